"""The adapter for what the bot needs beyond the Forge protocol."""

from __future__ import annotations

import pytest

from bot.forge.base import Permission, PullRequest, Reaction
from bot.forge.github import Connection, GitHubForge, RepoApi


@pytest.fixture
def api() -> RepoApi:
    conn = Connection("Codertocat/Hello-World", "ghs_test", seconds_between_writes=None)
    return RepoApi(GitHubForge.connect(conn).repo)


@pytest.mark.vcr
def test_permission(api: RepoApi) -> None:
    users = ("Codertocat", "octocat", "stranger", "hubot", "monalisa")
    roles = [api.permission(u) for u in users]
    # hubot's custom role is based on write: allowed to run mutating commands, not refused
    assert roles == [
        Permission.ADMIN,
        Permission.MAINTAIN,
        Permission.NONE,
        Permission.WRITE,
        Permission.READ,
    ]


@pytest.mark.vcr
def test_react(api: RepoApi) -> None:
    assert api.react(900, Reaction.EYES)


@pytest.mark.vcr
def test_react_survives_a_502(api: RepoApi) -> None:
    """Reacting twice adds one reaction: unlike a new comment, the POST is sent again."""
    waited: list[float] = []
    api.sleep = waited.append
    assert api.react(900, Reaction.EYES)
    assert waited == [1.0]


@pytest.mark.vcr
def test_react_to_a_deleted_comment_says_so(api: RepoApi) -> None:
    assert api.react(900, Reaction.EYES) is False


@pytest.mark.vcr
def test_pull_files_and_text(api: RepoApi) -> None:
    files = api.pull_files(7)
    assert [(f.path, f.status) for f in files] == [
        ("docs/rfd/045-streaming-exports.md", "added"),
        ("src/app.py", "modified"),
    ]
    text = api.file_text("docs/rfd/045-streaming-exports.md", "abc123")
    assert text is not None and text.startswith("# RFD 045: Streaming exports")
    assert api.file_text("docs/rfd/046-missing.md", "abc123") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("admin", Permission.ADMIN), ("Write", Permission.WRITE), ("bogus", Permission.NONE)],
)
def test_permission_parse(text: str, expected: Permission) -> None:
    assert Permission.parse(text) is expected


def test_pull_request_from_fork_payload() -> None:
    data = {
        "number": 3,
        "title": "t",
        "user": {"login": "forker"},
        "head": {"ref": "main", "sha": "a" * 40, "repo": {"full_name": "forker/Hello-World"}},
        "base": {"ref": "main", "repo": {"full_name": "Codertocat/Hello-World"}},
    }
    pr = PullRequest.from_payload(data)
    assert pr.is_fork and pr.head_repo == "forker/Hello-World"
