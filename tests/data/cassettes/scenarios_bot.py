"""Cassettes of the bot's end-to-end tests (one event through ``rfd bot`` each)."""

from __future__ import annotations

import sys
from pathlib import Path

from gh_data import call, comment, content_file, diff_entry, issue, permission, reaction, user

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.github_world import RFD_TEXT

RFD = "docs/rfd/045-streaming-exports.md"
BODIES = Path(__file__).resolve().parent / "bodies"


def body(name: str) -> str:
    """A comment body the bot posts, kept as a reviewable markdown snapshot."""
    return (BODIES / f"{name}.md").read_text(encoding="utf-8")


FILES = call("GET", "/pulls/2/files", query="per_page=100&page=1", reply=[diff_entry(RFD)])
NO_COMMENTS = call("GET", "/issues/2/comments", query="per_page=100", reply=[])


def status_comment(cid: int = 950) -> dict[str, object]:
    return comment(cid, 2, body("status-opened"))


S = "test_github_status_comment/"
CASSETTES = {
    S + "test_opened_posts_one_status_comment": [
        FILES,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("status-opened")},
            status=201,
            reply=status_comment(),
        ),
    ],
    S + "test_redelivered_opened_writes_nothing": [
        FILES,
        call("GET", "/issues/2/comments", query="per_page=100", reply=[status_comment()]),
    ],
    S + "test_pr_without_rfds_is_left_alone": [
        call(
            "GET",
            "/pulls/2/files",
            query="per_page=100&page=1",
            reply=[diff_entry("src/app.py", "modified")],
        ),
    ],
}
_ = (issue, permission, reaction, user)

R = "test_github_review_label/"
ADMIN = call("GET", "/collaborators/Codertocat/permission", reply=permission("Codertocat", "admin"))
STATUS_ONLY = call("GET", "/issues/2/comments", query="per_page=100", reply=[status_comment()])
UNLABEL = call("DELETE", "/issues/2/labels/rfd%3Areview", reply=[])


def review_comment(cid: int = 951) -> dict[str, object]:
    return comment(cid, 2, body("review-offline"))


CASSETTES |= {
    R + "test_review_is_committed_posted_and_label_removed": [
        ADMIN,
        FILES,
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("review-offline")},
            status=201,
            reply=review_comment(),
        ),
        UNLABEL,
    ],
    R + "test_redelivered_label_writes_nothing": [
        ADMIN,
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[status_comment(), review_comment()],
        ),
    ],
    R + "test_reader_is_refused_with_a_reason": [
        call("GET", "/collaborators/octocat/permission", reply=permission("octocat", "read")),
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("refused-reader")},
            status=201,
            reply=comment(952, 2, body("refused-reader")),
        ),
        UNLABEL,
    ],
    R + "test_bot_sender_is_refused": [
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("refused-bot")},
            status=201,
            reply=comment(952, 2, body("refused-bot")),
        ),
        UNLABEL,
    ],
    R + "test_fork_without_key_posts_but_does_not_commit": [
        ADMIN,
        FILES,
        STATUS_ONLY,
        call(
            "GET",
            "https://api.github.com/repos/forker/Hello-World/contents/" + RFD,
            query="ref=ec26c3e57ca3a959ca5aad62de7213c562f8c821",
            reply=content_file(RFD, RFD_TEXT, "ec26c3e57ca3a959ca5aad62de7213c562f8c821"),
        ),
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("review-fork")},
            status=201,
            reply=comment(953, 2, body("review-fork")),
        ),
        UNLABEL,
    ],
}
