"""PR worktrees and the bot's commit, on real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.errors import ForgeError
from bot.forge.base import PullRequest
from bot.github.checkout import (
    FORK_NOTE,
    close,
    commit_and_push,
    delivery_commit,
    git_env,
    open_pull,
)
from tests.conftest import git
from tests.github_world import BRANCH, REPO, make_world

RFD = "docs/rfd/045-streaming-exports.md"


def pull(head_repo: str = REPO) -> PullRequest:
    return PullRequest(2, "RFD 045", "octocat", BRANCH, "f" * 40, head_repo, "main", REPO)


class FakeApi:
    def __init__(self) -> None:
        self.read: list[tuple[str, str, str | None]] = []

    def file_text(self, path: str, ref: str, *, repo: str | None = None) -> str | None:
        self.read.append((path, ref, repo))
        return "# RFD 045 from the fork\n"


def test_same_repo_pr_is_fetched_committed_and_pushed(tmp_path: Path) -> None:
    origin, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD: "# RFD 045\n"})
    co = open_pull(checkout, pull(), FakeApi(), {"RUNNER_TEMP": str(tmp_path)})  # type: ignore[arg-type]
    assert co.writable and (co.root / RFD).read_text() == "# RFD 045\n"
    review = co.root / "docs/rfd/.state/045/reviews/1.md"
    review.parent.mkdir(parents=True)
    review.write_text("review\n")
    sha = commit_and_push(co, [review], "RFD 045: review", {})
    assert sha == git(origin, "rev-parse", BRANCH).strip()
    assert git(origin, "log", "-1", "--format=%an %s", BRANCH).strip() == "rfd-bot RFD 045: review"
    assert commit_and_push(co, [review], "again", {}) is None  # nothing changed: no commit
    close(checkout, co)
    assert not co.root.exists()


def test_the_commit_of_a_delivery_is_found_by_its_exact_trailer(tmp_path: Path) -> None:
    """A re-run finds its own event's commit; a key that merely starts the same does not."""
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD: "# RFD 045\n"})
    co = open_pull(checkout, pull(), FakeApi(), {"RUNNER_TEMP": str(tmp_path)})  # type: ignore[arg-type]
    (co.root / "a.md").write_text("a\n")
    sha = commit_and_push(co, ["a.md"], "RFD 045: review\n\nRfd-Bot-Event: c12", {})
    assert delivery_commit(co, "c12") == sha
    assert delivery_commit(co, "c1") is None
    assert delivery_commit(co, "labeled-abc-needs.review*") is None  # regex characters are text
    close(checkout, co)


def test_fork_reads_files_through_the_api_and_never_pushes(tmp_path: Path) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {})
    api = FakeApi()
    co = open_pull(
        checkout, pull("forker/Hello-World"), api, {"RUNNER_TEMP": str(tmp_path)}, paths=[RFD]
    )  # type: ignore[arg-type]
    assert not co.writable and co.note == FORK_NOTE
    assert (co.root / RFD).read_text() == "# RFD 045 from the fork\n"
    assert api.read == [(RFD, "f" * 40, "forker/Hello-World")]
    assert commit_and_push(co, [co.root / RFD], "x", {}) is None


def test_fork_paths_cannot_escape(tmp_path: Path) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {})
    with pytest.raises(ForgeError, match="outside the repository"):
        open_pull(checkout, pull("forker/x"), FakeApi(), {}, paths=["../evil"])  # type: ignore[arg-type]


def test_token_goes_in_an_environment_header_only() -> None:
    env = git_env({"GITHUB_TOKEN": "ghs_secret", "GITHUB_SERVER_URL": "https://ghe.example"})
    assert env["GIT_CONFIG_KEY_0"] == "http.https://ghe.example/.extraheader"
    assert "ghs_secret" not in env["GIT_CONFIG_VALUE_0"]  # base64, never in a URL or argv
    assert "GIT_CONFIG_COUNT" not in git_env({})


@pytest.mark.parametrize("branch", ["--upload-pack=touch /tmp/x", "a:refs/heads/main", "a..b"])
def test_a_branch_name_git_refuses_is_never_fetched(tmp_path: Path, branch: str) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD: "# RFD 045\n"})
    pr = PullRequest(2, "RFD 045", "octocat", branch, "f" * 40, REPO, "main", REPO)
    refs = git(checkout, "for-each-ref")
    with pytest.raises(ForgeError, match="is not one git accepts"):
        open_pull(checkout, pr, FakeApi(), {"RUNNER_TEMP": str(tmp_path)})  # type: ignore[arg-type]
    assert git(checkout, "for-each-ref") == refs  # nothing fetched


def test_a_link_on_the_pr_branch_leaves_no_worktree_behind(tmp_path: Path) -> None:
    from bot.core.errors import InvalidStructure

    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD: "# RFD 045\n"})
    seed = tmp_path / "seed"
    (seed / "docs/rfd/046-link.md").symlink_to("/etc/hostname")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "link")
    git(seed, "push", "-q", str(tmp_path / "origin.git"), f"HEAD:refs/heads/{BRANCH}")
    with pytest.raises(InvalidStructure, match="symbolic link") as caught:
        open_pull(
            checkout,
            pull(),
            FakeApi(),
            {"RUNNER_TEMP": str(tmp_path)},  # type: ignore[arg-type]
            guarded=["docs/rfd"],
        )
    assert caught.value.path == "docs/rfd/046-link.md"
    assert git(checkout, "worktree", "list").count("\n") == 1  # only the checkout itself


def test_the_content_a_commit_holds_and_who_wrote_a_file(git_repo: Path) -> None:
    """What a resumed review records (the RFD's blob at the review commit) and the writers
    accept checks (the emails of the commits that wrote the file)."""
    from bot.github.checkout import Checkout, blob_at, writers

    (git_repo / "rfd.md").write_text("# RFD\n", encoding="utf-8")
    git(git_repo, "add", "rfd.md")
    git(git_repo, "commit", "-q", "-m", "rfd", "--author", "Ann <9+ann@users.noreply.github.com>")
    first = git(git_repo, "rev-parse", "HEAD").strip()
    (git_repo / "rfd.md").write_text("# RFD, force-pushed\n", encoding="utf-8")
    git(git_repo, "commit", "-q", "-am", "other text")
    checkout = Checkout(git_repo, "main", writable=True)
    assert (
        blob_at(checkout, first, "rfd.md") == git(git_repo, "rev-parse", f"{first}:rfd.md").strip()
    )
    assert blob_at(checkout, first, "rfd.md") != blob_at(checkout, "HEAD", "rfd.md")
    assert blob_at(checkout, first, "missing.md") == ""
    emails = [email for c in writers(checkout, "rfd.md") for email in c.emails]
    assert emails == ["test@example.com", "9+ann@users.noreply.github.com"]
