//! Pending events, persisted with the conversation.

pub struct Queue;
