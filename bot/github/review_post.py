"""A posted review: its text, and which revision of the PR it was of.

The text puts the verdict first and folds the details.  The heading carries the
severity tally; one line says what it means for acceptance; blockers and majors are a
table whose every finding links the RFD's line (or, naming no line, its section's
heading) at the reviewed commit; minors, nits and questions fold into ``<details>``.
Offline reviews say so once and show no token count or cost.  Text from the review
(model output) goes through :mod:`bot.core.github_markdown` only.

A review comment carries ``<!-- rfd-bot:review:<id>:<sha> -->`` (the head it reviewed,
which also makes a re-delivered event find it and do nothing) and
``<!-- rfd-bot:head:<sha> -->`` (the head after the bot's own commit of the review file,
which is the same revision as far as the RFD is concerned).
``<!-- rfd-bot:blob:<sha> -->`` records the RFD's content reviewed (its git blob): when
known it alone decides, so a force-push to other content never leaves a review current,
and one that leaves the RFD as it was does not make it stale.  When the PR moves on, the
comment gets a banner saying it is of an older revision.  Only the markers that open the
comment count: a review quoting a marker (or a model writing one) never makes it current
at another head.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote

from bot.core.github_markdown import cell, inline, link_text
from bot.core.text import plural
from bot.forge.base import Comment, leading_markers, marker
from bot.model.reviews import Review, ReviewFinding, Severity

ICON = {Severity.BLOCKER: "🛑", Severity.MAJOR: "⚠️", Severity.MINOR: "", Severity.NIT: ""}
VISIBLE = (Severity.BLOCKER, Severity.MAJOR)
HEADING = "### 🔍 {kind} of RFD {rid} — {tally}"
NUMBERED = re.compile(
    r"^### 🔍 (?:Review|Implementation review)(?P<number> \d+)? of RFD ", re.MULTILINE
)
"""The heading's number: the one the status comment and ``/rfd dismiss`` use."""
VERDICT = {
    Severity.BLOCKER: "**Not ready to accept:** resolve the blocking findings below first.",
    Severity.MAJOR: "**Needs changes** before it is accepted: see the findings below.",
    Severity.MINOR: "**No blocking findings:** the rest is polish.",
}
CLEAN = "**Nothing to fix** as far as this review sees."
MORE = "{findings}{questions}"
OFFLINE_TAIL = re.compile(
    r"\s*Offline review: structure only — set an API key for a review "
    r"of the (?:content|code)\."
)
"""The CLI's advice at the end of an offline summary: said once, in the note, on GitHub."""


def commit_link(web: str, sha: str) -> str:
    """``[`abc123456789`](<web>/commit/<sha>)``: a revision as a link to its commit page on
    the repository ``web`` (``https://github.com/owner/repo``)."""
    return f"[`{sha[:12]}`]({web}/commit/{sha})"


@dataclass(frozen=True)
class Where:
    """The file reviewed and the commit it was reviewed at: where findings link to."""

    web: str
    """``https://github.com/owner/repo``."""
    path: str
    sha: str
    anchors: Mapping[str, str] = field(default_factory=dict)
    """The file's headings (lower-cased) and their anchors (:mod:`bot.core.github_markdown`)."""

    @classmethod
    def at(cls, web: str, path: str, sha: str, text: str) -> Where:
        """``path`` (whose text at ``sha`` is ``text``) reviewed at ``sha``."""
        from bot.core.github_markdown import anchors

        return cls(web, path, sha, anchors(text))

    def commit(self, sha: str = "") -> str:
        """The revision reviewed (or ``sha``) as a link to its commit page."""
        return commit_link(self.web, sha or self.sha)

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
    kinds = ", ".join(
        plural(sum(f.severity is s for f in rest), s.value)
        for s in Severity
        if any(f.severity is s for f in rest)
    )
    what = [
        f"{plural(len(rest), 'more finding')} ({kinds})" if rest else "",
        plural(len(questions), "question") if questions else "",
    ]
    summary = " and ".join(w for w in what if w)
    asked = ["**Questions**", "", *(f"- {inline(q)}" for q in questions), ""] if questions else []
    return [
        f"<details><summary>{summary}</summary>",
        "",
        *_table(rest, where),
        *asked,
        "</details>",
        "",
    ]


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


if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace

SHA_CHARS = 12
STALE_MARK = "<!-- rfd-bot:stale -->"
DISMISSED_MARK = "<!-- rfd-bot:dismissed -->"
DISMISSED = (
    "> [!NOTE]\n> **Dismissed**{by}: this review of RFD {rfd} at {commit} is settled and its "
    "file is off the branch. It is folded below."
)
DISMISSED_BY = " by {login} with `/rfd dismiss`"
FOLDED = "<details><summary>The dismissed review</summary>"
STALE_BANNER = (
    "> [!NOTE]\n> This review is of an older revision (`{sha}`); the PR has changed since. "
    "Apply the review label again or comment `/rfd review` for a fresh one."
)
_REVIEW = re.compile(r"<!-- rfd-bot:review:(?P<rfd>[A-Za-z0-9]+):(?P<sha>[0-9a-f]+) -->")
_HEAD = re.compile(r"<!-- rfd-bot:head:(?P<sha>[0-9a-f]+) -->")
_SAVED = re.compile(r"saved as `[^`]*/(?P<dir>[a-z-]+)/(?P<name>\d+\.md)`")
"""The footer's ``saved as `…/reviews/1795831200.md``: the file ``/rfd dismiss`` removes
(``…/impl-reviews/…``: an implementation review, which the status comment only counts)."""
_BLOB = re.compile(r"<!-- rfd-bot:blob:(?P<sha>[0-9a-f]+) -->")


def short(sha: str) -> str:
    return sha[:SHA_CHARS]


def review_marker(rfd: str, reviewed: str) -> str:
    return marker("review", f"{rfd}:{short(reviewed)}")


def head_marker(head: str) -> str:
    return marker("head", short(head))


def blob_markers(blob: str) -> list[str]:
    """The marker of the reviewed content (none when the blob is not known)."""
    return [marker("blob", short(blob))] if blob else []


@dataclass(frozen=True)
class PostedReview:
    comment: Comment
    rfd: str
    reviewed: str
    heads: frozenset[str]
    """Every head that counts as this revision (reviewed, and after the bot's commit)."""
    blob: str = ""
    """The RFD's content reviewed (short blob sha), when the review recorded it."""

    def is_current(self, head: str, blob: str = "") -> bool:
        """Is this a review of the RFD at ``head`` (whose content is ``blob``, when known)?"""
        if self.blob and blob:
            return short(blob) == self.blob
        return short(head) in self.heads

    @property
    def saved_name(self) -> str | None:
        """The review file's name on the branch (None when it was not saved: a fork)."""
        found = _SAVED.findall(self.comment.body)  # the bot's footer is the last line
        return found[-1][1] if found else None

    @property
    def implementation(self) -> bool:
        """Is this an implementation review (kept apart, never numbered nor dismissed)?"""
        found = _SAVED.findall(self.comment.body)
        return bool(found) and found[-1][0] == "impl-reviews"

    @property
    def marked_stale(self) -> bool:
        return STALE_MARK in leading_markers(self.comment.body)

    @property
    def marked_dismissed(self) -> bool:
        return DISMISSED_MARK in leading_markers(self.comment.body)


def posted_reviews(comments: Iterable[Comment]) -> list[PostedReview]:
    found = []
    for comment in comments:
        markers = leading_markers(comment.body)
        match = next((m for m in map(_REVIEW.fullmatch, markers) if m), None)
        if match:
            heads = {match["sha"], *(m["sha"] for m in map(_HEAD.fullmatch, markers) if m)}
            blob = next((m["sha"] for m in map(_BLOB.fullmatch, markers) if m), "")
            review = PostedReview(comment, match["rfd"], match["sha"], frozenset(heads), blob)
            found.append(review)
    return found


def with_stale_banner(review: PostedReview) -> str:
    """The comment's body with the banner after its markers (once)."""
    if review.marked_stale:
        return review.comment.body
    banner = f"{STALE_MARK}\n{STALE_BANNER.format(sha=review.reviewed)}\n"
    return _after_markers(review.comment.body, banner)


def _after_markers(body: str, text: str) -> str:
    lines = body.split("\n")
    cut = len(leading_markers(body))
    return "\n".join([*lines[:cut], text, *lines[cut:]])


def dismissed(review: PostedReview, web: str, by: str = "") -> str:
    """The comment of a review whose file was dismissed: its markers, a note saying so (by
    ``by``, when the run knows who), and its text folded away (once)."""
    from bot.core.github_markdown import inline

    body = review.comment.body
    if review.marked_dismissed:
        return body
    cut = len(leading_markers(body))
    lines = body.split("\n")
    commit = f"[`{review.reviewed}`]({web}/commit/{review.reviewed})"
    said = DISMISSED_BY.format(login=inline(by)) if by else ""
    note = DISMISSED.format(by=said, rfd=review.rfd, commit=commit)
    return "\n".join(
        [*lines[:cut], DISMISSED_MARK, note, "", FOLDED, "", *lines[cut:], "", "</details>"]
    )


def brought_up_to_date(
    review: PostedReview, number: int | None, *, current: bool, web: str, by: str = ""
) -> str:
    """What the comment of ``review`` says now: dismissed (its file is gone), else under the
    number it has now, with a banner when it is of an older revision (``current`` False)."""

    if review.saved_name is not None and number is None and not review.implementation:
        return dismissed(review, web, by)
    body = review.comment.body if number is None else renumbered(review.comment.body, number)
    if not current and not review.marked_stale:
        banner = f"{STALE_MARK}\n{STALE_BANNER.format(sha=review.reviewed)}\n"
        body = _after_markers(body, banner)
    return body


def review_numbers(ws: Workspace, rid: str, paths: Iterable[str]) -> list[int]:
    """The numbers the status comment shows for the reviews at ``paths`` (oldest first: 1)."""
    on_file = [ws.rel(r.path) for r in ws.store.read(rid).reviews]
    return sorted(on_file.index(p) + 1 for p in paths if p in on_file)
