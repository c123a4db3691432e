"""GitHubForge against hand-written cassettes of GitHub's real answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.core.errors import ConfigError, ForgeError
from bot.forge.github import Connection, GitHubForge

MARKER = "<!-- rfd-bot:tracking:045 -->"


def make_forge() -> GitHubForge:
    conn = Connection("Codertocat/Hello-World", "ghs_test", seconds_between_writes=None)
    return GitHubForge.connect(conn)


@pytest.fixture
def forge() -> GitHubForge:
    return make_forge()


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Waits urllib3's retry loop asked for (recorded, not slept)."""
    import urllib3.util.retry

    waited: list[float] = []
    monkeypatch.setattr(urllib3.util.retry.time, "sleep", waited.append)
    yield waited


@pytest.mark.vcr
def test_find_issue_by_marker(forge: GitHubForge) -> None:
    found = forge.find_issue(MARKER)
    assert found is not None
    assert (found.number, found.title, found.labels) == (12, "RFD 045: Streaming exports", ("rfd",))


@pytest.mark.vcr
def test_find_issue_missing(forge: GitHubForge) -> None:
    assert forge.find_issue(MARKER) is None


@pytest.mark.vcr
def test_find_comment_then_edit(forge: GitHubForge) -> None:
    found = forge.find_comment(7, "<!-- rfd-bot:status:7 -->")
    assert found is not None and found.id == 901
    assert forge.edit_comment(7, found.id, "new").body == "new"


@pytest.mark.vcr
def test_create_comment(forge: GitHubForge) -> None:
    made = forge.create_comment(7, "hello")
    assert (made.id, made.author) == (902, "github-actions[bot]")
    assert made.url.endswith("#issuecomment-902")


@pytest.mark.vcr
def test_502_then_success(forge: GitHubForge, sleeps: list[float]) -> None:
    assert [c.body for c in forge.all_comments(7)] == ["Looks good to me"]


def patient_forge() -> GitHubForge:
    """A forge told to wait 7 s for a secondary rate limit that names no time."""
    conn = Connection(
        "Codertocat/Hello-World", "ghs_test", seconds_between_writes=None, secondary_rate_wait=7.0
    )
    return GitHubForge.connect(conn)


@pytest.mark.vcr
def test_secondary_rate_limit_waits_its_retry_after(sleeps: list[float]) -> None:
    assert patient_forge().create_comment(7, "hello").id == 902
    assert sleeps == [1.0]  # GitHub's `Retry-After: 1`, not the configured 7 s


@pytest.mark.vcr
def test_secondary_rate_limit_without_retry_after_waits_the_configured_time(
    sleeps: list[float],
) -> None:
    assert patient_forge().create_comment(7, "hello").id == 902
    assert sleeps == [7.0]


@pytest.mark.vcr
def test_create_issue_and_close(forge: GitHubForge) -> None:
    made = forge.create_issue("RFD 045: Streaming exports", f"{MARKER}\nPhases", ("rfd",))
    assert made.number == 12 and made.state == "open"
    assert forge.edit_issue(12, state="closed").state == "closed"


@pytest.mark.vcr
def test_get_issue(forge: GitHubForge) -> None:
    assert MARKER in forge.get_issue(12).body


@pytest.mark.vcr
def test_labels(forge: GitHubForge) -> None:
    forge.add_labels(7, ("rfd:review",))
    forge.remove_label(7, "rfd:review")
    forge.remove_label(7, "rfd:accept")  # not there: fine


@pytest.mark.vcr
def test_forbidden_is_a_forge_error(forge: GitHubForge) -> None:
    with pytest.raises(ForgeError) as info:
        forge.edit_issue(12, body="x")
    assert "403 Resource not accessible by integration" in str(info.value)
    assert "permission" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"GITHUB_TOKEN": "t"}, "GITHUB_REPOSITORY"),
        ({"GITHUB_REPOSITORY": "o/r"}, "GITHUB_TOKEN"),
    ],
)
def test_from_env_needs_repository_and_token(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        GitHubForge.from_env(environ)


def test_from_env_uses_enterprise_url() -> None:
    environ = {
        "GITHUB_REPOSITORY": "o/r",
        "GITHUB_TOKEN": "t",
        "GITHUB_API_URL": "https://ghe.example.com/api/v3/",
    }
    conn = Connection.from_env(environ, seconds_between_writes=None)
    assert conn.api_url == "https://ghe.example.com/api/v3"
    assert GitHubForge.connect(conn).repo.full_name == "o/r"


@pytest.mark.vcr
def test_find_issue_skips_a_planted_marker(forge: GitHubForge) -> None:
    found = forge.find_issue(MARKER)  # a newer issue by mallory carries the same marker
    assert found is not None and (found.number, found.author) == (12, "github-actions[bot]")


@pytest.mark.vcr
def test_find_comment_skips_a_planted_marker(forge: GitHubForge) -> None:
    found = forge.find_comment(7, "<!-- rfd-bot:status:7 -->")
    assert found is not None and found.id == 901


@pytest.mark.vcr
def test_a_review_quoting_the_status_marker_is_not_the_status_comment(forge: GitHubForge) -> None:
    """Markers count where the bot puts them: the review is never overwritten by the status."""
    found = forge.find_comment(7, "<!-- rfd-bot:status:7 -->")
    assert found is not None and found.id == 901


@pytest.mark.vcr
def test_a_configured_login_owns_its_comments() -> None:
    conn = Connection("Codertocat/Hello-World", "ghs_test", seconds_between_writes=None)
    forge = GitHubForge.connect(conn, login="rfd-helper[bot]")
    found = forge.find_comment(7, "<!-- rfd-bot:status:7 -->")
    assert found is not None and found.id == 903


@pytest.mark.vcr
def test_edit_survives_a_502_then_a_503_with_retry_after(
    forge: GitHubForge, sleeps: list[float]
) -> None:
    assert forge.edit_comment(7, 901, "new").body == "new"
    assert 2.0 in sleeps  # the 503's Retry-After


@pytest.mark.vcr
def test_label_removal_survives_a_504(forge: GitHubForge, sleeps: list[float]) -> None:
    forge.remove_label(7, "rfd:review")


@pytest.mark.vcr
def test_a_comment_is_not_posted_again_after_a_502(forge: GitHubForge, sleeps: list[float]) -> None:
    """GitHub may have made the comment before failing: a second POST could duplicate it."""
    with pytest.raises(ForgeError, match="502"):
        forge.create_comment(7, "hello")
