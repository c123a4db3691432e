"""AI review of an RFD (design, in Discussion) or of its implementation (Accepted).

One forced tool call whose input schema is :data:`bot.model.reviews.REVIEW_SCHEMA`, so
the review always has the fixed shape.  A design review sends the prefix refine and
plan extraction share (:mod:`bot.ai.shared`: answer tools, system prompt, the RFD and
the reviews on file): a second review, a refine or an accept on the same model reads it
from the prompt cache.  An implementation review has its own prefix — system prompt,
RFD, phase summaries, with breakpoints — and also sees the diff since acceptance
(:mod:`bot.ai.impl_diff`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.ai.call import Doc, build, call, tool_input
from bot.ai.impl_diff import review_diff
from bot.ai.shared import REVIEW_TOOL, shared_request
from bot.ai.steer import Steer, steered
from bot.llm.base import Request, Usage
from bot.llm.guard import require_input
from bot.model.reviews import MAX_FINDINGS, MAX_SUMMARY_CHARS, Review, from_data

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document

STEP = "review"
TOOL = REVIEW_TOOL


@dataclass(frozen=True)
class AiReview:
    review: Review
    usage: Usage
    model: str
    cost_usd: float
    """0.0 when the model is not in the price table (the ledger then says ``$?``)."""
    notices: tuple[str, ...] = ()
    """What was truncated to fit the context budget (show them as warnings)."""


def ai_review(
    ws: Workspace, doc: Document, *, impl: bool, model: str | None, steer: Steer | None = None
) -> AiReview:
    """Review ``doc`` with the configured model (``model`` overrides it); ``steer``
    (``--edit``): the person edits the task before it is sent (:mod:`bot.ai.steer`)."""
    require_input(doc.text, f"RFD {doc.rfd_id or doc.path}")
    context: dict[str, Any] = {"rfd_id": str(doc.rfd_id or ""), "title": doc.title}
    if impl:
        request, notices = _impl_request(ws, doc, context, model)
    else:
        request, notices = shared_request(
            ws,
            doc,
            step=STEP,
            template="review",
            context=context,
            model=ws.config.model_for(STEP, model),
            tool=TOOL,
        )
    done = call(ws, steered(request, steer), step=STEP, rfd_id=doc.rfd_id)
    data = tool_input(done.reply, TOOL.name)
    kind = "implementation" if impl else "design"
    review = from_data(data, kind=kind, reviewer=ws.llm_for(STEP, model).name, model=done.model)
    return AiReview(review, done.reply.usage, done.model, done.cost_usd or 0.0, notices)


def _impl_request(
    ws: Workspace, doc: Document, context: dict[str, Any], model: str | None
) -> tuple[Request, tuple[str, ...]]:
    """An implementation review: RFD, phase summaries (cached), then the diff."""
    diff = review_diff(ws, doc)
    docs = [Doc(f"RFD {doc.rfd_id or doc.path}", doc.text, cache=True)]
    docs += _phase_summaries(ws, doc) + ([Doc(diff.label, diff.text)] if diff.text else [])
    context = {
        **context,
        "has_diff": bool(diff.text),
        "tool_name": TOOL.name,
        "max_findings": MAX_FINDINGS,
        "summary_chars": MAX_SUMMARY_CHARS,
    }
    request, cut = build(
        ws,
        step=STEP,
        template="review_impl",
        context=context,
        docs=docs,
        model=ws.config.model_for(STEP, model),
        tool=TOOL,
    )
    return request, diff.notices + cut


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
