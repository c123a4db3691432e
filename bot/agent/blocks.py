"""The first user message of a step: documents as data, then the task.

Instructions live in the prompt templates (system prompt and task); documents (the
RFD, reviews, research...) come first, each wrapped as data by the templates, so
the message's stable prefix is the same from one call of a step to the next.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.llm.base import Message


def material(documents: Iterable[str], task: str, notes: str = "") -> Message:
    """One user message: the documents, the task, then the person's own words (if any)."""
    parts = [d.rstrip() for d in documents if d]
    parts += [t.strip() for t in (task, notes) if t.strip()]
    return Message("user", "\n\n".join(parts), cache=True)
