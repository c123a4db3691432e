"""AI review of an RFD (design, in Discussion) or of its implementation (Accepted).

One forced tool call whose input schema is :data:`bot.reviews.REVIEW_SCHEMA`, so
the review always has the fixed shape.  The stable prefix — system prompt, the
RFD, then the reviews (or phase summaries) already on file — carries cache
breakpoints: a second review of the same RFD reads it from the prompt cache.  An
implementation review also sees the diff since acceptance (:mod:`bot.ai.impl_diff`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.ai.call import Doc, build, call, tool_input
from bot.ai.impl_diff import review_diff
from bot.llm.base import ToolSpec, Usage
from bot.llm.guard import require_input
from bot.reviews import (
    MAX_FINDINGS,
    MAX_SUMMARY_CHARS,
    REVIEW_SCHEMA,
    Review,
    digest,
    from_data,
)

if TYPE_CHECKING:
    from bot.document import Document
    from bot.workspace import Workspace

STEP = "review"
TOOL = ToolSpec(
    name="submit_review",
    description="Submit the review: a summary, findings with severity and section, questions.",
    input_schema=REVIEW_SCHEMA,
)


@dataclass(frozen=True)
class AiReview:
    review: Review
    usage: Usage
    model: str
    cost_usd: float
    """0.0 when the model is not in the price table (the ledger then says ``$?``)."""
    notices: tuple[str, ...] = ()
    """What was truncated to fit the context budget (show them as warnings)."""


def ai_review(ws: Workspace, doc: Document, *, impl: bool, model: str | None) -> AiReview:
    """Review ``doc`` with the configured model (``model`` overrides it)."""
    require_input(doc.text, f"RFD {doc.rfd_id or doc.path}")
    context = {
        "rfd_id": str(doc.rfd_id or ""),
        "title": doc.title,
        "max_findings": MAX_FINDINGS,
        "summary_chars": MAX_SUMMARY_CHARS,
        "tool_name": TOOL.name,
    }
    docs = [Doc(f"RFD {doc.rfd_id or doc.path}", doc.text, cache=True)]
    notices: tuple[str, ...] = ()
    if impl:
        diff = review_diff(ws, doc)
        notices = diff.notices
        docs += _phase_summaries(ws, doc) + ([Doc(diff.label, diff.text)] if diff.text else [])
        context["has_diff"] = bool(diff.text)
    else:
        docs += _reviews(ws, doc)
    request, cut = build(
        ws,
        step=STEP,
        template="review_impl" if impl else "review",
        context=context,
        docs=docs,
        model=ws.config.model_for(STEP, model),
        tool=TOOL,
    )
    done = call(ws, request, step=STEP, rfd_id=doc.rfd_id)
    data = tool_input(done.reply, TOOL.name)
    kind = "implementation" if impl else "design"
    review = from_data(data, kind=kind, reviewer=ws.llm.name, model=done.model)
    return AiReview(review, done.reply.usage, done.model, done.cost_usd or 0.0, notices + cut)


def _reviews(ws: Workspace, doc: Document) -> list[Doc]:
    """The design reviews on file, oldest first, one block each, a breakpoint after the last.

    A new review only adds a block at the end, so the next call finds everything before
    it in the cache (the API looks back from a breakpoint for the longest cached prefix).
    Each is passed as its :func:`~bot.reviews.digest` (findings and questions): the
    one part of a second review's prompt the cache cannot hold is the review saved since.
    """
    if doc.rfd_id is None:
        return []
    files = ws.store.list_reviews(str(doc.rfd_id), impl=False)
    return [
        Doc(f"review on file ({f.path.name})", digest(_read(ws, doc, f.path)), cache=last)
        for last, f in zip(_last_flags(len(files)), files, strict=True)
    ]


def _phase_summaries(ws: Workspace, doc: Document) -> list[Doc]:
    if doc.rfd_id is None:
        return []
    summaries = sorted(ws.store.phase_summaries(str(doc.rfd_id)).items())
    return [
        Doc(f"phase {n} summary", _read(ws, doc, path), cache=last)
        for last, (n, path) in zip(_last_flags(len(summaries)), summaries, strict=True)
    ]


def _read(ws: Workspace, doc: Document, path: Path) -> str:
    """A state file the store listed, read back through the store."""
    key = str(doc.rfd_id)
    return ws.store.read_text(key, path.relative_to(ws.store.dir(key)).as_posix()) or ""


def _last_flags(n: int) -> list[bool]:
    """``[False, …, False, True]``: the breakpoint goes after the last summary only."""
    return [i == n - 1 for i in range(n)]
