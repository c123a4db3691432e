"""The opening messages of a step: documents as data, then the task.

Instructions live in the prompt templates (system prompt and task).  The documents
(the RFD, reviews, research...) come first, each wrapped as data by the templates,
with a cache breakpoint after the last one: every later call of the step — the
next tool cycle, the next pass — reads that prefix from the prompt cache.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.llm.base import Message


def material(
    documents: Sequence[str],
    task: str,
    notes: str = "",
    *,
    shared: int = 0,
    task_cached: bool = False,
) -> tuple[Message, ...]:
    """One user message per document (cached prefix), then the task and the person's words.

    ``shared``: the first ``shared`` documents end a prefix an earlier conversation
    cached; a breakpoint after them too lets this one read it.  ``task_cached``: a
    breakpoint after the task as well (staged prompts carry their instructions there, and
    the next tool cycle should read them from the cache)."""
    docs = [Message("user", d.rstrip()) for d in documents if d]
    for end in {shared, len(docs)} - {0}:
        docs[end - 1] = Message("user", docs[end - 1].text, cache=True)
    request = "\n\n".join(t.strip() for t in (task, notes) if t.strip())
    return (*docs, Message("user", request, cache=task_cached))
