"""Cassettes of the bot's end-to-end tests (one event through ``rfd bot`` each)."""

from __future__ import annotations

from pathlib import Path

from gh_data import call, comment, diff_entry, issue, permission, reaction, user

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
