"""``review`` and ``dismiss``: design reviews in Discussion, implementation reviews after."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot.config.discovery import RfdFile
from bot.core.errors import TransitionError
from bot.core.text import plural
from bot.events import ReviewSaved, ReviewsDismissed
from bot.lifecycle import offline_review
from bot.lifecycle.workspace import Workspace
from bot.llm.base import Usage
from bot.model import reviews
from bot.model.document import Document
from bot.model.ids import RfdId
from bot.model.reviews import Review
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.ai.steer import Steer

REVIEWABLE = {Status.DRAFT, Status.DISCUSSION, Status.ACCEPTED}


@dataclass(frozen=True)
class ReviewOutcome:
    rfd_id: str
    path: Path
    review: Review
    text: str
    usage: Usage
    model: str
    cost_usd: float
    changed: tuple[Path, ...]
    message: str
    notices: tuple[str, ...] = ()
    """What the user should know about the review's input (cuts, the diff's base)."""

    @property
    def impl(self) -> bool:
        return self.review.kind == "implementation"


@dataclass(frozen=True)
class DismissOutcome:
    rfd_id: str
    dismissed: tuple[Path, ...]
    changed: tuple[Path, ...]
    message: str


def review(
    ws: Workspace, query: str, *, model: str | None = None, steer: Steer | None = None
) -> ReviewOutcome:
    """Review the RFD (Draft/Discussion) or its implementation (Accepted); save the review.
    ``steer`` (``--edit``): the person edits the model's task before it is sent."""
    file = ws.find(query)
    doc = ws.document(file)
    if doc.status not in REVIEWABLE:
        raise TransitionError(
            f"RFD {file.rfd_id} is {doc.status.value}: there is nothing left to review",
            path=file.path,
            hint="reviews apply to Draft, Discussion (design) and Accepted (implementation)",
        )
    impl = doc.status is Status.ACCEPTED
    result, usage, used_model, cost, notices = _run_review(
        ws, file, doc, impl=impl, model=model, steer=steer
    )
    text = reviews.render(result, rfd_id=str(file.rfd_id), title=doc.title)
    path = ws.store.save_review(str(file.rfd_id), text, impl=impl, now=ws.now())
    ws.bus.emit(
        ReviewSaved(
            rfd_id=str(file.rfd_id),
            path=ws.rel(path),
            kind=result.kind,
            provider=result.reviewer,
            findings=len(result.findings),
            body=text,
        )
    )
    what = "implementation review" if impl else "review"
    findings = plural(len(result.findings), "finding")
    msg = f"saved {what} of RFD {file.rfd_id}: {ws.rel(path)} ({findings})"
    return ReviewOutcome(
        str(file.rfd_id), path, result, text, usage, used_model, cost, (path,), msg, notices
    )


def _run_review(
    ws: Workspace,
    file: RfdFile,
    doc: Document,
    *,
    impl: bool,
    model: str | None,
    steer: Steer | None = None,
) -> tuple[Review, Usage, str, float, tuple[str, ...]]:
    if not ws.llm_for("review", model).offline:
        from bot.ai.review import ai_review

        ai = ai_review(ws, doc, impl=impl, model=model, steer=steer)
        return ai.review, ai.usage, ai.model, ai.cost_usd or 0.0, ai.notices
    rid = str(file.rfd_id)
    if impl:
        phases = ws.store.read_plan(rid) or ()
        summaries = {k: p.read_text(encoding="utf-8") for k, p in ws.store.phase_files(rid).items()}
        review = offline_review.implementation_review(doc, phases, summaries)
        return review, Usage(), "", 0.0, ()
    known, linked = _neighbours(ws, doc)
    result = offline_review.design_review(doc, file=file, known=known, backlinks=linked)
    return result, Usage(), "structural", 0.0, ()


def _neighbours(ws: Workspace, doc: Document) -> tuple[dict[RfdId, Status], dict[RfdId, Document]]:
    """Statuses of the RFDs this one links to, and their documents (read only those)."""
    by_id = {f.rfd_id: f for f in ws.files()}
    known: dict[RfdId, Status] = {}
    linked: dict[RfdId, Document] = {}
    wanted = {
        r for key in ("Requires", "Extends", "Supersedes", "Superseded by") for r in doc.links(key)
    }
    for rid in wanted:
        if rid in by_id:
            try:
                other = ws.document(by_id[rid])
            except Exception:  # broken neighbour: lint in its own right
                continue
            known[rid], linked[rid] = other.status, other
    for rid in by_id:
        known.setdefault(rid, Status.DRAFT if rid.draft else Status.DISCUSSION)
    return known, linked


def dismiss(
    ws: Workspace, query: str, selection: Sequence[int] | Literal["all"], *, impl: bool = False
) -> DismissOutcome:
    """Delete reviews that have served their purpose (numbers as listed by ``rfd status``)."""
    file = ws.find(query)
    removed = ws.store.dismiss(str(file.rfd_id), selection, impl=impl)
    ws.bus.emit(ReviewsDismissed(rfd_id=str(file.rfd_id), paths=tuple(ws.rel(p) for p in removed)))
    msg = f"dismissed {plural(len(removed), 'review')} of RFD {file.rfd_id}"
    return DismissOutcome(str(file.rfd_id), tuple(removed), tuple(removed), msg)
