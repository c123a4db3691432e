"""The offline provider's review: structural checks, in the same shape as an AI review.

No model, no network: what a careful reader would flag before reading for content —
template sections missing or still placeholders, an Implementation Plan without
phases or descriptions, links to RFDs that do not exist or do not link back,
TODO/TBD and open questions left.  Each finding names its section and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from bot import templates
from bot.config.discovery import RfdFile
from bot.core.text import plural
from bot.lifecycle import lint
from bot.model import phase_ids, plan
from bot.model.document import Document
from bot.model.ids import RfdId
from bot.model.reviews import Review, ReviewFinding, Severity
from bot.model.status import Status

_TODO_RE = re.compile(r"\b(TODO|TBD|FIXME|XXX)\b")
_OPEN_BOX_RE = re.compile(r"^\s*[-*]\s+\[ \]\s+(?P<q>.+)$")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_LINT_SEVERITY = {"error": Severity.MAJOR, "warning": Severity.MINOR}


def design_review(
    doc: Document,
    *,
    file: RfdFile | None,
    known: Mapping[RfdId, Status],
    backlinks: Mapping[RfdId, Document],
) -> Review:
    findings = _dedupe(
        [
            *_lint_findings(doc, file, known),
            *_plan_findings(doc),
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


def _plan_findings(doc: Document) -> Iterable[ReviewFinding]:
    if (doc.category or "design").lower() != "design" and doc.section(
        "Implementation Plan"
    ) is None:
        return
    section = doc.section("Implementation Plan")
    result = plan.extract(doc)
    line = section.line if section else None
    if result.problem:
        yield _f(Severity.MAJOR, "Implementation Plan", line, result.problem)
        return
    for phase in result.phases:
        if not phase.description.strip():
            label = phase.label or phase.title
            yield _f(
                Severity.MINOR,
                "Implementation Plan",
                line,
                f"Phase {label} ({phase.title}) has no description: say what it delivers",
            )


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
    fenced = False
    for n, line in enumerate(doc.text.splitlines(), start=1):
        if _FENCE_RE.match(line):
            fenced = not fenced
        elif not fenced:
            yield n, line


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


def _summary(doc: Document, findings: list[ReviewFinding], questions: tuple[str, ...]) -> str:
    if not findings and not questions:
        return (
            f"RFD {doc.rfd_id} is structurally complete: every required section is written, the "
            "plan has described phases and its links resolve. Offline review: structure only — "
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
