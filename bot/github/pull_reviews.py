"""Pull-request reviews on GitHub (``/pulls/{n}/reviews``): list them, submit one.

Requests go through the repository API's requester (PyGithub's retries) and its write
pacer; a submitted review's text is redacted and fitted to GitHub's limit like every
body the bot writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.redact import redact
from bot.forge.base import Comment
from bot.forge.comments import fit
from bot.forge.github_errors import translated
from bot.github.api import RepoApi

PAGES = 3
"""Reviews listed at most (× 100): a PR with more is beyond what the bot looks through."""


@dataclass(frozen=True)
class LineComment:
    """A review comment on one line of the new side of a file (``side: RIGHT``)."""

    path: str
    line: int
    body: str


def pull_reviews(api: RepoApi, number: int) -> list[Comment]:
    """The reviews of #``number`` (oldest first) as comments: id, body, url, author."""
    with translated(f"list the reviews of #{number}"):
        return [_review(r) for r in api.paged(f"/pulls/{number}/reviews", PAGES)]


def submit_review(
    api: RepoApi, number: int, commit: str, body: str, comments: Sequence[LineComment]
) -> str:
    """Submit one review (``COMMENT``) of ``commit`` with ``comments``; its URL."""
    sent = {
        "commit_id": commit,
        "body": fit(redact(body)),
        "event": "COMMENT",
        "comments": [_line_comment(c) for c in comments],
    }
    with api.pacer.write(), translated(f"submit a review of #{number}"):
        _h, data = api.requester.requestJsonAndCheck(
            "POST", f"{api.url}/pulls/{number}/reviews", input=sent
        )
    return str(data["html_url"])


def _line_comment(comment: LineComment) -> dict[str, object]:
    return {
        "path": comment.path,
        "line": comment.line,
        "side": "RIGHT",
        "body": fit(redact(comment.body)),
    }


def _review(data: Mapping[str, Any]) -> Comment:
    login = str((data.get("user") or {}).get("login") or "")  # a deleted user: null
    return Comment(int(data["id"]), str(data.get("body") or ""), str(data["html_url"]), login)
