"""The event bus at the core of every step.

Steps emit typed events at well-defined points.  Two kinds:

* **informational** (``emit``): listeners observe; a failing listener is logged and
  never fails or blocks the step;
* **interceptable** (``intercept``): listeners run synchronously, in registration
  order, and may return a modified event (``dataclasses.replace``) or raise
  :class:`~bot.core.errors.Aborted`.  What the last interceptor returns is what happens
  (and what the user is asked to approve).

Terminal output and the forge are listeners like any plugin.

The event types live in :mod:`bot.events.types` (what happens to an RFD, a model's turns
and tool calls, and results), all on :class:`bot.events.types.Event`; this module names
them all, as plugins import them.
"""

from __future__ import annotations

from bot.core.bus import EventBus, Listener
from bot.events.types import (
    CommentPosted,
    ConversationSaved,
    Event,
    Notice,
    PhaseCompleted,
    PhaseFailed,
    PlanExtracted,
    QueryBefore,
    ResponseChunk,
    ResponseComplete,
    ResultReady,
    ReviewSaved,
    ReviewsDismissed,
    RfdCreated,
    RfdRenumbered,
    StatusChanged,
    StatusChanging,
    ToolCallAfter,
    ToolCallComplete,
    ToolCallIntercept,
    ToolCallModified,
    TrackingDue,
    TrackingIssueUpdated,
    TurnAborted,
    TurnComplete,
    TurnCycleComplete,
    TurnStarted,
)

__all__ = [
    "CommentPosted",
    "ConversationSaved",
    "Event",
    "EventBus",  # re-exported: steps import both from here
    "Listener",
    "Notice",
    "PhaseCompleted",
    "PhaseFailed",
    "PlanExtracted",
    "QueryBefore",
    "ResponseChunk",
    "ResponseComplete",
    "ResultReady",
    "ReviewSaved",
    "ReviewsDismissed",
    "RfdCreated",
    "RfdRenumbered",
    "StatusChanged",
    "StatusChanging",
    "ToolCallAfter",
    "ToolCallComplete",
    "ToolCallIntercept",
    "ToolCallModified",
    "TrackingDue",
    "TrackingIssueUpdated",
    "TurnAborted",
    "TurnComplete",
    "TurnCycleComplete",
    "TurnStarted",
    "all_event_types",
]


def all_event_types() -> list[type[Event]]:
    """Every concrete event type, for docs and for plugins that declare what they listen to."""
    return [
        cls
        for cls in (
            RfdCreated,
            RfdRenumbered,
            StatusChanging,
            StatusChanged,
            ReviewSaved,
            ReviewsDismissed,
            PlanExtracted,
            PhaseCompleted,
            PhaseFailed,
            TrackingDue,
            TrackingIssueUpdated,
            CommentPosted,
            Notice,
            QueryBefore,
            TurnStarted,
            ResponseChunk,
            ResponseComplete,
            TurnCycleComplete,
            TurnComplete,
            TurnAborted,
            ConversationSaved,
            ToolCallIntercept,
            ToolCallAfter,
            ToolCallComplete,
            ResultReady,
        )
    ]
