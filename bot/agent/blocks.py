"""The opening messages of a step: documents as data, then the task.

Instructions live in the prompt templates (system prompt and task).  The documents
(the RFD, reviews, research...) come first, each wrapped as data by the templates,
with a cache breakpoint after the last one: every later call of the step — the
next tool cycle, the next pass — reads that prefix from the prompt cache.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.llm.base import Message


def material(documents: Sequence[str], task: str, notes: str = "") -> tuple[Message, ...]:
    """One user message per document (cached prefix), then the task and the person's words."""
    docs = [Message("user", d.rstrip()) for d in documents if d]
    if docs:
        docs[-1] = Message("user", docs[-1].text, cache=True)
    request = "\n\n".join(t.strip() for t in (task, notes) if t.strip())
    return (*docs, Message("user", request))
