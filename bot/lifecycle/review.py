"""``review`` and ``dismiss``: design reviews in Discussion, implementation reviews after.

The offline provider's review (:func:`design_review`, :func:`implementation_review`) is
structural checks in the same shape as an AI review.  No model, no network: what a
careful reader would flag before reading for content — template sections missing or
still placeholders, an Implementation Plan without phases or descriptions, links to RFDs
that do not exist or do not link back, TODO/TBD and open questions left.  Each finding
names its section and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot import templates
from bot.config.discovery import RfdFile
from bot.core.errors import TransitionError
from bot.core.text import plural
from bot.events import ReviewSaved, ReviewsDismissed
from bot.lifecycle import lint
from bot.lifecycle.workspace import Workspace
from bot.llm.base import Usage
from bot.model import phase_ids, plan, reviews
from bot.model.document import Document
from bot.model.ids import RfdId
from bot.model.markdown import LineKind, content
from bot.model.reviews import Review, ReviewFinding, Severity
from bot.model.status import Status, named, said

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


NOT_REVIEWABLE_HINT = (
    "reviews apply to {draft}, {discussion} (design) and {accepted} (implementation)"
)


def review(
    ws: Workspace, query: str, *, model: str | None = None, steer: Steer | None = None
) -> ReviewOutcome:
    """Review the RFD (Draft/Discussion) or its implementation (Accepted); save the review.
    ``steer`` (``--edit``): the person edits the model's task before it is sent."""
    file = ws.find(query)
    doc = ws.document(file)
    if doc.status not in REVIEWABLE:
        word = doc.status_word  # the messages say the RFD's own words (``committed``)
        said_as = {s.name.lower(): said(s, word) for s in REVIEWABLE}
        raise TransitionError(
            f"RFD {file.rfd_id} is {named(doc.status, word)}: there is nothing left to review",
            path=file.path,
            hint=NOT_REVIEWABLE_HINT.format(**said_as),
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
        review = implementation_review(doc, phases, summaries)
        return review, Usage(), "", 0.0, ()
    known, linked = _neighbours(ws, doc)
    needed = ws.config.process.accepted_needs_plan
    result = design_review(doc, file=file, known=known, backlinks=linked, plan_needed=needed)
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


_TODO_RE = re.compile(r"\b(TODO|TBD|FIXME|XXX)\b")
_OPEN_BOX_RE = re.compile(r"^\s*[-*]\s+\[ \]\s+(?P<q>.+)$")
_LINT_SEVERITY = {"error": Severity.MAJOR, "warning": Severity.MINOR}


def design_review(
    doc: Document,
    *,
    file: RfdFile | None,
    known: Mapping[RfdId, Status],
    backlinks: Mapping[RfdId, Document],
    plan_needed: bool = True,
) -> Review:
    """``plan_needed``: ``[process] accepted_needs_plan`` — where it is off, a design RFD
    with no Implementation Plan section is no finding (a plan it has is still checked)."""
    findings = _dedupe(
        [
            *_lint_findings(doc, file, known),
            *_plan_findings(doc, plan_needed),
            *_link_findings(doc, backlinks),
            *_todo_findings(doc),
        ]
    )
    questions = tuple(_open_questions(doc))
    return Review(
        kind="design",
        summary=_summary(doc, findings, questions),
        findings=tuple(findings),
        questions=questions,
        reviewer="offline",
        model="structural",
    ).capped()


def implementation_review(
    doc: Document, phases: tuple[plan.PlanPhase, ...], summaries: Mapping[str, str]
) -> Review:
    """``summaries``: the text of each ``phases/<key>.md`` by phase key
    (``bot.model.phase_ids``)."""
    findings: list[ReviewFinding] = []
    labels = phase_ids.labels(phases)
    done: dict[int, str] = {}
    for key, text in sorted(summaries.items()):
        n = phase_ids.position(phases, key)
        if n is None:
            message = f"phases/{key}.md has no matching phase in plan.json"
            findings.append(_f(Severity.MINOR, "Implementation Plan", None, message))
            continue
        done.setdefault(n, text)
        if not text.strip():
            message = f"phases/{key}.md is empty: say what phase {labels[n - 1]} delivered"
            findings.append(_f(Severity.MAJOR, f"Phase {labels[n - 1]}", None, message))
    todo = [i for i in range(1, len(phases) + 1) if i not in done]
    nxt = f"; next: phase {labels[todo[0] - 1]} ({phases[todo[0] - 1].title})." if todo else ""
    summary = (
        f"{len(done)} of {plural(len(phases), 'phase')} recorded"
        + (nxt or "; all done.")
        + " Offline review: structure only — set an API key for a review of the code."
    )
    return Review("implementation", summary, tuple(findings), (), "offline", "structural")


def _f(sev: Severity, section: str, line: int | None, msg: str) -> ReviewFinding:
    return ReviewFinding(sev, section, line, msg)


def _section_of(doc: Document, line: int) -> str:
    name = "Header"
    for s in doc.sections:
        if s.line <= line:
            name = s.title
    return name


def _lint_findings(
    doc: Document, file: RfdFile | None, known: Mapping[RfdId, Status]
) -> Iterable[ReviewFinding]:
    for f in lint.lint_document(doc, known=known, file=file):
        sev = _LINT_SEVERITY.get(f.severity.value, Severity.MINOR)
        hint = f" ({f.hint})" if f.hint else ""
        yield _f(sev, f.section or _section_of(doc, f.line or 0), f.line, f"{f.message}{hint}")


def _plan_findings(doc: Document, plan_needed: bool = True) -> Iterable[ReviewFinding]:
    designed = plan_needed and (doc.category or "design").lower() == "design"
    if not designed and doc.section("Implementation Plan") is None:
        return
    section = doc.section("Implementation Plan")
    result = plan.extract(doc)
    line = section.line if section else None
    if result.problem:
        yield _f(Severity.MAJOR, "Implementation Plan", result.line or line, result.problem)
        return
    for phase, at in zip(result.phases, _phase_lines(doc, len(result.phases), line), strict=True):
        if not phase.description.strip():
            label = phase.label or phase.title
            yield _f(
                Severity.MINOR,
                "Implementation Plan",
                at,
                f"Phase {label} ({phase.title}) has no description: say what it delivers",
            )


def _phase_lines(doc: Document, count: int, section_line: int | None) -> list[int | None]:
    """The line of each phase's heading; the section's when the phases are a list."""
    section = doc.section("Implementation Plan")
    if section is not None:
        body = "".join(doc.lines[section.start : section.end])
        syntax = plan.syntax_of(doc.path)
        found = plan.phase_headings(body, line_offset=section.start, syntax=syntax)
        if len(found) == count:
            return [heading.line for heading in found]
    return [section_line] * count


_BACKLINK = {"Supersedes": "Superseded by", "Superseded by": "Supersedes"}


def _link_findings(doc: Document, backlinks: Mapping[RfdId, Document]) -> Iterable[ReviewFinding]:
    for key, reverse in _BACKLINK.items():
        line = next((f.line for f in doc.fields if f.key.lower() == key.lower()), None)
        for rid in doc.links(key):
            other = backlinks.get(rid)
            if other is not None and doc.rfd_id not in other.links(reverse):
                yield _f(
                    Severity.MINOR,
                    "Header",
                    line,
                    f"{key} RFD {rid}, but RFD {rid} has no `{reverse}` link back",
                )


def _code_free_lines(doc: Document) -> Iterable[tuple[int, str]]:
    """Each line outside code blocks (AsciiDoc's delimited blocks too), numbered from 1."""
    for n, (line, kind) in enumerate(zip(doc.lines, doc.kinds, strict=True), start=1):
        if kind is not LineKind.CODE:
            yield n, content(line)


def _todo_findings(doc: Document) -> Iterable[ReviewFinding]:
    for n, line in _code_free_lines(doc):
        m = _TODO_RE.search(line)
        if m and not templates.is_placeholder(line):
            yield _f(
                Severity.MINOR,
                _section_of(doc, n),
                n,
                f"{m.group(1)} left in the text: “{line.strip()[:80]}”",
            )


def _open_questions(doc: Document) -> Iterable[str]:
    for n, line in _code_free_lines(doc):
        m = _OPEN_BOX_RE.match(line)
        section = _section_of(doc, n)
        if m and "question" in section.lower():
            yield f"Still open · {section} (line {n}): {m['q'].strip()}"


def _dedupe(findings: list[ReviewFinding]) -> list[ReviewFinding]:
    """One finding per place: the lint rule's, when a structural check says it again."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for f in findings:
        key: tuple[object, ...] = (f.section, f.line) if f.line else (f.line, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


NO_PLAN_SAID = "it plans no phases (the repository accepts RFDs without an Implementation Plan)"


def _summary(doc: Document, findings: list[ReviewFinding], questions: tuple[str, ...]) -> str:
    if not findings and not questions:
        planned = "the plan has described phases" if plan.extract(doc).phases else NO_PLAN_SAID
        return (
            f"RFD {doc.rfd_id} is structurally complete: every required section is written, "
            f"{planned} and its links resolve. Offline review: structure only — "
            "set an API key for a review of the content."
        )
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.severity.value] = counts.get(f.severity.value, 0) + 1
    parts = ", ".join(f"{n} {sev}" for sev, n in counts.items())
    return (
        f"{plural(len(findings), 'structural finding')} ({parts or 'none'})"
        f" and {plural(len(questions), 'open question')}. Offline review: structure only — "
        "set an API key for a review of the content."
    )
