"""``review.inline``: a review's findings also as one pull-request review on the RFD's lines.

The blocker and major findings that name a line of the PR's diff become comments on
that line (GitHub takes none elsewhere: 422); the others stay in the review comment
only.  The pull-request review opens with ``<!-- rfd-bot:pr-review:<id>:<sha> -->``
(the RFD and the head reviewed): before submitting, the bot lists the PR's reviews and
submits nothing when its own marked one is there, so a re-run or a re-delivered event
never submits a second.  It is submitted before the review comment is posted: a run
that fails between the two is finished by its re-run, which posts the committed review
and finds this one.  With the option off nothing here runs (no request at all).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.diff_lines import commentable
from bot.core.markdown_safe import inline
from bot.core.text import plural
from bot.forge.base import LineComment, PullRequest
from bot.forge.comments import carries, marker
from bot.github.context import Context
from bot.github.review_post import ICON, VISIBLE, Where
from bot.github.revisions import short
from bot.model.reviews import Review, ReviewFinding

BODY = "{kind} of RFD {rid}: {shown} on the lines this pull request changes."
ELSEWHERE = " {n} on other lines {are} in the review comment only."
FINDING = "**{icon}{severity}** · {section}: {message}"
SUBMITTED = "submitted the inline review of RFD {rid} ({n})"
ALREADY = "the inline review of RFD {rid} at {sha} was already submitted"


def pr_review_marker(rid: str, reviewed: str) -> str:
    return marker("pr-review", f"{rid}:{short(reviewed)}")


def finding_text(finding: ReviewFinding) -> str:
    icon = f"{ICON[finding.severity]} " if ICON[finding.severity] else ""
    section, message = inline(finding.section), inline(finding.message)
    return FINDING.format(
        icon=icon, severity=finding.severity.value, section=section, message=message
    )


def line_comments(
    review: Review, path: str, on_diff: Callable[[int], bool]
) -> tuple[list[LineComment], int]:
    """The comments of the blocker/major findings on diff lines, and how many are elsewhere."""
    shown = [f for f in review.findings if f.severity in VISIBLE and f.line]
    placed = [
        LineComment(path, f.line, finding_text(f)) for f in shown if f.line and on_diff(f.line)
    ]
    return placed, len(shown) - len(placed)


def review_body(rid: str, review: Review, reviewed: str, placed: int, left: int) -> str:
    kind = "Implementation review" if review.kind == "implementation" else "Review"
    text = BODY.format(kind=kind, rid=rid, shown=plural(placed, "finding"))
    if left:
        text += ELSEWHERE.format(n=plural(left, "finding"), are="is" if left == 1 else "are")
    return f"{pr_review_marker(rid, reviewed)}\n{text}"


def submit_inline(ctx: Context, pr: PullRequest, rid: str, review: Review, where: Where) -> None:
    """Submit the review's inline comments once (``review.inline`` on, some line in the diff)."""
    if not ctx.cfg.review.inline:
        return
    changed = next((f for f in ctx.api.pull_files(pr.number) if f.path == where.path), None)
    if changed is None:
        return

    def on_diff(line: int) -> bool:
        return commentable(line, changed.status, changed.patch)

    placed, left = line_comments(review, where.path, on_diff)
    if not placed:
        return
    if _submitted(ctx, pr.number, pr_review_marker(rid, where.sha)):
        ctx.summary.note(ALREADY.format(rid=rid, sha=short(where.sha)))
        return
    body = review_body(rid, review, where.sha, len(placed), left)
    ctx.api.submit_review(pr.number, where.sha, body, placed)
    ctx.progress.append(SUBMITTED.format(rid=rid, n=plural(len(placed), "line comment")))


def _submitted(ctx: Context, number: int, mark: str) -> bool:
    """Is the bot's PR review carrying ``mark`` there already (a re-run, a re-delivery)?"""
    reviews = ctx.api.reviews(number)
    return any(carries(r.body, mark) and ctx.forge.is_mine(r.author) for r in reviews)
