"""Cassettes of ``review.inline``: the review's findings also as a PR review on the RFD's lines.

The PR changes one line of the RFD (its Date, a major); the other major (the plan's
heading) is on a line the diff does not show, so it stays in the review comment only.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from gh_data import COLLABORATORS, call, diff_entry, pull_review
from scenarios_bot import (
    ADMIN,
    DISCUSSION,
    INLINE_COMMIT,
    RFD,
    STATUS_ONLY,
    UNLABEL,
    answered,
    blob_sha,
    body,
    comment,
    edited,
    labelled,
    reply,
    status_comment,
    with_proofs,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.github_world import MISDATED, PLANLESS

R = "test_github_review_label/"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the labeled payload's head


def patch(old: str, new: str) -> str:
    """The hunks GitHub lists as a changed file's ``patch`` (no file headers)."""
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=3)
    return "\n".join(list(lines)[2:])


FILES = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry(RFD, "modified", blob_sha(MISDATED), patch(PLANLESS, MISDATED))],
)
REVIEWS = call("GET", "/pulls/2/reviews", query="per_page=100&page=1", reply=[])
INLINE = {
    "commit_id": HEAD,
    "body": body("inline-review"),
    "event": "COMMENT",
    "comments": [{"path": RFD, "line": 6, "side": "RIGHT", "body": body("inline-date")}],
}
SUBMITTED = pull_review(80, 2, body("inline-review"), HEAD)
POSTED = call(
    "POST",
    "/issues/2/comments",
    body={"body": body("review-inline")},
    status=201,
    reply=comment(951, 2, body("review-inline")),
)

CASSETTES = {
    R + "test_inline_review_comments_on_the_lines_of_the_diff": [
        COLLABORATORS,
        ADMIN,
        FILES,
        STATUS_ONLY,
        REVIEWS,
        call("POST", "/pulls/2/reviews", body=INLINE, reply=SUBMITTED),
        POSTED,
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": with_proofs(body("status-after-inline"), [INLINE_COMMIT])},
            reply=comment(950, 2, with_proofs(body("status-after-inline"), [INLINE_COMMIT])),
        ),
        *labelled(2, DISCUSSION),
        UNLABEL,
    ],
    # Run 1 submits the PR review, then posting the review comment meets a 502; run 2 posts
    # the committed review and finds its PR review by the marker: one of each, in the end.
    R + "test_inline_review_is_submitted_once_across_a_rerun": [
        COLLABORATORS,
        ADMIN,
        FILES,
        STATUS_ONLY,
        REVIEWS,
        call("POST", "/pulls/2/reviews", body=INLINE, reply=SUBMITTED),
        call(
            "POST",
            "/issues/2/comments",
            status=502,
            reply={"message": "Server Error"},
            body={"body": body("review-inline")},
        ),
        reply("review-inline-failed-502", cid=961),
        # run 2
        ADMIN,
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[
                status_comment(),
                answered("review-inline-failed-502", 961, "2019-05-15T15:20:41Z"),
            ],
        ),
        call("GET", "/pulls/2/reviews", query="per_page=100&page=1", reply=[SUBMITTED]),
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("review-inline-resumed")},
            status=201,
            reply=comment(962, 2, body("review-inline-resumed")),
        ),
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": with_proofs(body("status-after-inline-rerun"), [INLINE_COMMIT])},
            reply=comment(950, 2, with_proofs(body("status-after-inline-rerun"), [INLINE_COMMIT])),
        ),
        *labelled(2, DISCUSSION),
        UNLABEL,
        edited("review-inline-finished", 961),
    ],
}
