"""The one shape every review has, whoever wrote it (offline checks or a model).

A review is saved as ``reviews/<unix-ts>.md`` (design) or ``impl-reviews/<ts>.md``
(implementation) and posted as a PR comment in exactly this markdown::

    # Review of RFD 045: Title
    <!-- rfd-bot:review kind=design reviewer=offline model=structural -->

    ## Summary
    ...
    ## Findings
    - **major** · Implementation Plan (line 40): Phase 2 has no description.
    ## Questions
    - ...
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

MAX_FINDINGS = 25
MAX_SUMMARY_CHARS = 1500
MAX_FINDING_CHARS = 600
MAX_QUESTIONS = 10


class Severity(enum.Enum):
    BLOCKER = "blocker"
    MAJOR = "major"
    MINOR = "minor"
    NIT = "nit"

    @property
    def rank(self) -> int:
        return list(Severity).index(self)


@dataclass(frozen=True)
class ReviewFinding:
    severity: Severity
    section: str
    line: int | None
    message: str


@dataclass(frozen=True)
class Review:
    kind: str  # "design" | "implementation"
    summary: str
    findings: tuple[ReviewFinding, ...] = ()
    questions: tuple[str, ...] = ()
    reviewer: str = "offline"
    model: str = "structural"

    def capped(self) -> Review:
        """The review within its length caps (most severe findings kept)."""
        findings = sorted(self.findings, key=lambda f: f.severity.rank)[:MAX_FINDINGS]
        return Review(
            kind=self.kind,
            summary=_clip(self.summary, MAX_SUMMARY_CHARS),
            findings=tuple(
                ReviewFinding(f.severity, f.section, f.line, _clip(f.message, MAX_FINDING_CHARS))
                for f in findings
            ),
            questions=tuple(_clip(q, MAX_FINDING_CHARS) for q in self.questions[:MAX_QUESTIONS]),
            reviewer=self.reviewer,
            model=self.model,
        )

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Severity}
        for f in self.findings:
            out[f.severity.value] += 1
        return out


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


REVIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["summary", "findings", "questions"],
    "properties": {
        "summary": {
            "type": "string",
            "description": "Two to five sentences: overall assessment and the main risks.",
        },
        "findings": {
            "type": "array",
            "maxItems": MAX_FINDINGS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["severity", "section", "message"],
                "properties": {
                    "severity": {"type": "string", "enum": [s.value for s in Severity]},
                    "section": {"type": "string", "description": "The ## section concerned."},
                    "line": {"type": "integer", "description": "Line in the RFD, if known."},
                    "message": {"type": "string", "description": "The problem and a fix."},
                },
            },
        },
        "questions": {
            "type": "array",
            "maxItems": MAX_QUESTIONS,
            "items": {"type": "string"},
        },
    },
}


def from_data(data: dict[str, Any], *, kind: str, reviewer: str, model: str) -> Review:
    """A Review from structured output shaped like ``REVIEW_SCHEMA`` (already validated)."""
    findings = tuple(
        ReviewFinding(
            severity=Severity(str(f.get("severity", "minor")).lower()),
            section=str(f.get("section", "")).strip() or "General",
            line=f["line"] if isinstance(f.get("line"), int) else None,
            message=str(f.get("message", "")).strip(),
        )
        for f in data.get("findings", [])
        if str(f.get("severity", "minor")).lower() in {s.value for s in Severity}
    )
    questions = tuple(str(q).strip() for q in data.get("questions", []) if str(q).strip())
    return Review(
        kind=kind,
        summary=str(data.get("summary", "")).strip(),
        findings=findings,
        questions=questions,
        reviewer=reviewer,
        model=model,
    ).capped()


def render(review: Review, *, rfd_id: str, title: str) -> str:
    kind_title = "Implementation review" if review.kind == "implementation" else "Review"
    lines = [
        f"# {kind_title} of RFD {rfd_id}: {title}",
        f"<!-- rfd-bot:review kind={review.kind} reviewer={review.reviewer} "
        f"model={review.model} -->",
        "",
        "## Summary",
        "",
        review.summary or "_No summary._",
        "",
    ]
    return "\n".join(lines + _findings_and_questions(review)) + "\n"


def _findings_and_questions(review: Review) -> list[str]:
    lines = ["## Findings", ""]
    if not review.findings:
        lines.append("_No findings._")
    for f in review.findings:
        where = f"{f.section} (line {f.line})" if f.line else f.section
        lines.append(f"- **{f.severity.value}** · {where}: {f.message}")
    lines += ["", "## Questions", ""]
    return lines + ([f"- {q}" for q in review.questions] or ["_None._"])


_META_RE = re.compile(
    r"<!--\s*rfd-bot:review\s+kind=(?P<kind>\S+)\s+reviewer=(?P<reviewer>\S+)"
    r"\s+model=(?P<model>\S+)\s*-->"
)
_FINDING_RE = re.compile(
    r"""^-\s+\*\*(?P<sev>\w+)\*\*\s*·\s*   # - **major** ·
        (?P<section>.*?)                   # section name
        (?:\s\(line\s(?P<line>\d+)\))?     # optional (line N)
        :\s(?P<msg>.*)$""",
    re.VERBOSE,
)


def parse(text: str) -> Review:
    """Read a saved review back (tolerant: a hand-written review becomes its summary)."""
    meta = _META_RE.search(text)
    sections = _split_sections(text)
    findings = []
    for line in sections.get("findings", "").splitlines():
        m = _FINDING_RE.match(line.strip())
        if m and m["sev"].lower() in {s.value for s in Severity}:
            findings.append(
                ReviewFinding(
                    Severity(m["sev"].lower()),
                    m["section"].strip(),
                    int(m["line"]) if m["line"] else None,
                    m["msg"].strip(),
                )
            )
    questions = [
        ln.strip()[2:].strip()
        for ln in sections.get("questions", "").splitlines()
        if ln.strip().startswith("- ")
    ]
    summary = sections.get("summary", "" if sections else text).strip()
    return Review(
        kind=meta["kind"] if meta else "design",
        summary=summary,
        findings=tuple(findings),
        questions=tuple(questions),
        reviewer=meta["reviewer"] if meta else "unknown",
        model=meta["model"] if meta else "unknown",
    )


def digest(text: str) -> str:
    """What a later reviewer needs of a saved review: its findings and questions.

    A new review must not repeat what the reviews on file already say; their summaries
    restate their main findings, so only the findings and questions are passed on (fewer
    tokens that are new to the prompt cache).  A review the bot did not write (no
    ``rfd-bot:review`` marker) passes whole: its shape is not known.
    """
    if not _META_RE.search(text):
        return text
    return "\n".join(_findings_and_questions(parse(text))) + "\n"


def headline(text: str, width: int = 60) -> str:
    """A one-line description of a review for listings (first sentence of its summary)."""
    summary = parse(text).summary or text.strip()
    first = summary.splitlines()[0] if summary else ""
    return first if len(first) <= width else first[: width - 1] + "…"


def _split_sections(text: str) -> dict[str, str]:
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = out.setdefault(line[3:].strip().lower(), [])
        elif current is not None:
            current.append(line)
    return {k: "\n".join(v) for k, v in out.items()}
