"""Which revision of a PR each posted review was of, and marking older ones.

A review comment carries ``<!-- rfd-bot:review:<id>:<sha> -->`` (the head it
reviewed, which also makes a re-delivered event find it and do nothing) and
``<!-- rfd-bot:head:<sha> -->`` (the head after the bot's own commit of the
review file, which is the same revision as far as the RFD is concerned).
``<!-- rfd-bot:blob:<sha> -->`` records the RFD's content reviewed (its git blob):
when known it alone decides, so a force-push to other content never leaves a review
current, and one that leaves the RFD as it was does not make it stale.
When the PR moves on, the comment gets a banner saying it is of an older one.
Only the markers that open the comment count: a review quoting a marker (or a
model writing one) never makes it current at another head.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.forge.base import Comment
from bot.forge.comments import leading_markers, marker

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
    from bot.core.markdown_safe import inline

    body = review.comment.body
    if review.marked_dismissed:
        return body
    cut = len(leading_markers(body))
    lines = body.split("\n")
    commit = f"[`{review.reviewed}`]({web}/commit/{review.reviewed})"
    said = DISMISSED_BY.format(login=inline(by)) if by else ""
    note = DISMISSED.format(by=said, rfd=review.rfd, commit=commit)
    return "\n".join([*lines[:cut], DISMISSED_MARK, note, "", FOLDED, "", *lines[cut:], "",
                      "</details>"])  # fmt: skip


def brought_up_to_date(review: PostedReview, number: int | None, *, current: bool, web: str,
                       by: str = "") -> str:  # fmt: skip
    """What the comment of ``review`` says now: dismissed (its file is gone), else under the
    number it has now, with a banner when it is of an older revision (``current`` False)."""
    from bot.github.review_post import renumbered

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
