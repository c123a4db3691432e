"""A review as the bot posts it on a PR: the verdict first, the details folded.

The heading carries the severity tally; one line says what it means for
acceptance; blockers and majors are a table whose every finding links the RFD's
line (or, naming no line, its section's heading) at the reviewed commit; minors, nits
and questions fold into ``<details>``.
Offline reviews say so once and show no token count or cost.  Text from the
review (model output) goes through :mod:`bot.core.markdown_safe` only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from bot.core.markdown_safe import cell, inline, link_text
from bot.core.text import plural
from bot.model.reviews import Review, ReviewFinding, Severity

ICON = {Severity.BLOCKER: "🛑", Severity.MAJOR: "⚠️", Severity.MINOR: "", Severity.NIT: ""}
VISIBLE = (Severity.BLOCKER, Severity.MAJOR)
HEADING = "### 🔍 {kind} of RFD {rid} — {tally}"
NUMBERED = re.compile(r"^### 🔍 (?:Review|Implementation review)(?P<number> \d+)? of RFD ",
                      re.MULTILINE)  # fmt: skip
"""The heading's number: the one the status comment and ``/rfd dismiss`` use."""
VERDICT = {
    Severity.BLOCKER: "**Not ready to accept:** resolve the blocking findings below first.",
    Severity.MAJOR: "**Needs changes** before it is accepted: see the findings below.",
    Severity.MINOR: "**No blocking findings:** the rest is polish.",
}
CLEAN = "**Nothing to fix** as far as this review sees."
MORE = "{findings}{questions}"
OFFLINE_TAIL = re.compile(r"\s*Offline review: structure only — set an API key for a review "
                          r"of the (?:content|code)\.")  # fmt: skip
"""The CLI's advice at the end of an offline summary: said once, in the note, on GitHub."""


@dataclass(frozen=True)
class Where:
    """The file reviewed and the commit it was reviewed at: where findings link to."""

    web: str
    """``https://github.com/owner/repo``."""
    path: str
    sha: str
    anchors: Mapping[str, str] = field(default_factory=dict)
    """The file's headings (lower-cased) and their anchors (:mod:`bot.core.heading_anchors`)."""

    @classmethod
    def at(cls, web: str, path: str, sha: str, text: str) -> Where:
        """``path`` (whose text at ``sha`` is ``text``) reviewed at ``sha``."""
        from bot.core.heading_anchors import anchors

        return cls(web, path, sha, anchors(text))

    def commit(self, sha: str = "") -> str:
        """``[`abc123456789`](…/commit/<sha>)``: a revision as a link to its commit page."""
        sha = sha or self.sha
        return f"[`{sha[:12]}`]({self.web}/commit/{sha})"

    def run_link(self, kept: Kept) -> list[str]:
        return [f"[workflow run]({kept.run})"] if kept.run else []

    def line(self, n: int) -> str:
        return f"{self.web}/blob/{self.sha}/{quote(self.path)}#L{n}"

    def section(self, name: str) -> str | None:
        """The link to the heading ``name`` names at the reviewed commit; None when the file
        has no such heading (a finding about the whole RFD, a section the model made up)."""
        anchor = self.anchors.get(name.strip().lstrip("#").strip().lower())
        return f"{self.web}/blob/{self.sha}/{quote(self.path)}#{quote(anchor)}" if anchor else None


@dataclass(frozen=True)
class Kept:
    """Where a posted review is kept and found again: its file on the branch (None: not
    saved, a fork's), its number there, and the run that made it (None outside Actions)."""

    saved: str | None
    number: int | None = None
    run: str | None = None


def tally(review: Review) -> str:
    counts = review.counts()
    parts = [f"{ICON[s]} {counts[s.value]} {s.value}".strip() for s in Severity if counts[s.value]]
    return " · ".join(parts) or "no findings"


def verdict(review: Review) -> str:
    worst = min((f.severity for f in review.findings), key=lambda s: s.rank, default=None)
    if worst is None:
        return CLEAN
    return VERDICT.get(worst, VERDICT[Severity.MINOR])


def _row(finding: ReviewFinding, where: Where) -> str:
    text = cell(link_text(finding.section))
    if finding.line:
        place = f"[{text} L{finding.line}]({where.line(finding.line)})"
    elif heading := where.section(finding.section):
        place = f"[{text}]({heading})"
    else:
        place = cell(finding.section)
    icon = f"{ICON[finding.severity]} " if ICON[finding.severity] else ""
    return f"| {icon}{finding.severity.value} | {place} | {cell(finding.message)} |"


def _table(findings: list[ReviewFinding], where: Where) -> list[str]:
    if not findings:
        return []
    return ["| | section | finding |", "|---|---|---|", *(_row(f, where) for f in findings), ""]


def _folded(rest: list[ReviewFinding], questions: tuple[str, ...], where: Where) -> list[str]:
    if not rest and not questions:
        return []
    kinds = ", ".join(plural(sum(f.severity is s for f in rest), s.value)
                      for s in Severity if any(f.severity is s for f in rest))  # fmt: skip
    what = [f"{plural(len(rest), 'more finding')} ({kinds})" if rest else "",
            plural(len(questions), "question") if questions else ""]  # fmt: skip
    summary = " and ".join(w for w in what if w)
    asked = ["**Questions**", "", *(f"- {inline(q)}" for q in questions), ""] if questions else []
    return [f"<details><summary>{summary}</summary>", "", *_table(rest, where), *asked,
            "</details>", ""]  # fmt: skip


def renumbered(body: str, number: int) -> str:
    """A posted review's ``body`` with the number it has now (dismissing an earlier review
    moves the ones after it up); unchanged when it has it already."""

    def number_of(match: re.Match[str]) -> str:
        head = match[0].removesuffix(" of RFD ")
        if match["number"]:
            head = head.removesuffix(match["number"])
        return f"{head} {number} of RFD "

    return NUMBERED.sub(number_of, body, count=1)


def render(review: Review, *, rid: str, where: Where, number: int | None = None) -> str:
    """The review's markdown for the PR comment (markers, notes and footer are added by the
    caller); ``number``: as the status comment and ``/rfd dismiss`` take it (None: a review
    not saved to the branch has none)."""
    kind = "Implementation review" if review.kind == "implementation" else "Review"
    kind += f" {number}" if number else ""
    summary = OFFLINE_TAIL.sub("", review.summary).strip()
    shown = [f for f in review.findings if f.severity in VISIBLE]
    rest = [f for f in review.findings if f.severity not in VISIBLE]
    lines = [HEADING.format(kind=kind, rid=rid, tally=tally(review)), "", verdict(review), ""]
    if summary:
        lines += [inline(summary), ""]
    lines += [*_table(shown, where), *_folded(rest, review.questions, where)]
    return "\n".join(lines).rstrip() + "\n"
