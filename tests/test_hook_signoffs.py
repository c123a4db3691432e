"""rfd-status counts only the sign-offs GitHub's side of the repository can vouch for.

Real git repositories whose ``origin`` is a GitHub repository with a fetched default
branch: a branch that writes ``consensus.json`` by hand cannot accept an RFD, and the hook
names each entry it left out; entries merged into the default branch, or added by a
commit the bot's own comments on the pull request name, count.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from hooks import _git
from hooks._files import Root
from hooks.rfd_status import main
from tests.conftest import git
from tests.hooks_support import STATE, commit, rfd, run_hook, staged, write

A = "docs/rfd/001-alpha.md"
LEDGER = f"{STATE}/001/consensus.json"
CONFIG = '[consensus]\nreviewers = ["bob", "carol"]\napprovals = 2\nfcp_days = 7\n'
FORGED = json.dumps(
    {
        "approvals": [
            {"login": "bob", "revision": "0", "at": 0, "reviewer": "bob"},
            {"login": "carol", "revision": "0", "at": 0, "reviewer": "carol"},
        ],
        "concerns": [],
        "fcp": {"by": "bob", "start": 0, "end": 86400, "paused": False},
    },
    indent=2,
)
"""Both reviewers approved and the final comment period ended in 1970."""


@pytest.fixture
def on_github(fixed_git_dates: None, git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """RFD 001 in Discussion on the default branch (fetched as ``origin/main``), and a branch
    of a pull request checked out."""
    for name in ("GITHUB_BASE_REF", "GITHUB_TOKEN", "GITHUB_REPOSITORY", "GITHUB_API_URL"):
        monkeypatch.delenv(name, raising=False)
    commit(git_repo, {".github/rfd.toml": CONFIG, A: rfd(status="Discussion")})
    git(git_repo, "remote", "add", "origin", "https://github.com/Codertocat/Hello-World.git")
    git(git_repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(git_repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    git(git_repo, "checkout", "-q", "-b", "rfd-001")
    return git_repo


def test_a_ledger_written_on_the_branch_does_not_accept(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's case: two approvals and an ended FCP written by hand, then Accepted."""
    forged = commit(on_github, {LEDGER: FORGED}, "sign-offs")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert f"{A}:3: cannot move to Accepted: the sign-offs are not in (approvals: 0 of 2" in out
    by = f"written by commit {forged[:12]}, not by a commit the bot can be shown to have made"
    for entry in ("an approval by bob", "an approval by carol", "a final comment period"):
        assert f"- {LEDGER}: {entry} ({by})" in out
    assert "sign-offs count when given on the pull request (`/rfd approve`" in out


def test_a_ledger_staged_with_the_move_does_not_accept(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(on_github, {LEDGER: FORGED, A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert f"- {LEDGER}: an approval by carol (written by the staged change, not" in out


def test_ci_over_the_pushed_range_fails_too(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`pre-commit run --from-ref origin/main --to-ref HEAD`, as a CI job runs it."""
    commit(on_github, {LEDGER: FORGED}, "sign-offs")
    commit(on_github, {A: rfd(status="Accepted")}, "accept")
    args = ["--from-ref", "origin/main", "--to-ref", "HEAD", A]
    code, out = run_hook(main, on_github, args, monkeypatch, capsys)
    assert code == 1, out
    assert f"- {LEDGER}: an approval by bob (written by commit" in out


def test_sign_offs_merged_into_the_default_branch_count(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    git(on_github, "checkout", "-q", "main")
    commit(on_github, {LEDGER: FORGED}, "sign-offs, merged by a maintainer")
    git(on_github, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(on_github, "checkout", "-q", "-b", "accept-001")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 0, out


def test_in_actions_without_the_default_branch_the_hook_says_to_fetch_it(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    git(on_github, "update-ref", "-d", "refs/remotes/origin/HEAD")
    git(on_github, "update-ref", "-d", "refs/remotes/origin/main")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    commit(on_github, {LEDGER: FORGED}, "sign-offs")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert f"cannot tell which sign-offs in {LEDGER} are trusted" in out
    assert "fetch-depth: 0" in out


def test_without_a_github_remote_the_committed_ledger_is_the_record(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A team that signs off with the local commands (`rfd approve` …) on its own server."""
    git(on_github, "remote", "set-url", "origin", "https://git.example.org/team/rfds.git")
    commit(on_github, {LEDGER: FORGED}, "rfd approve 001 (bob, carol)")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 0, out


@pytest.mark.vcr
def test_a_commit_the_bots_comments_name_counts_and_a_hand_written_one_does_not(
    on_github: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    all_played: None,
) -> None:
    """In the pull request's CI run with a token: the bot's comments on PR 7 name the commit
    that recorded bob's approval; carol's, written by hand next to it, is still refused (a
    comment by someone else naming that commit proves nothing)."""
    _bob_by_the_bot_carol_by_hand(on_github, monkeypatch, tmp_path)
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert "approvals: 1 of 2, waiting on carol" in out
    assert f"- {LEDGER}: an approval by carol" in out
    assert "an approval by bob" not in out
    # the branch's fcp_days = 0 does not lower the default branch's bar
    assert "a final comment period of 7 days" in out


@pytest.mark.vcr
def test_with_the_status_comment_deleted_the_bots_push_is_the_proof(
    on_github: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    all_played: None,
) -> None:
    """The same branch, but no comment of the bot's is left on PR 7: GitHub's activity
    record says the bot's account pushed bob's commit, so it counts; carol's still does not."""
    _bob_by_the_bot_carol_by_hand(on_github, monkeypatch, tmp_path)
    monkeypatch.setenv("GITHUB_HEAD_REF", "rfd-001")
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert "approvals: 1 of 2, waiting on carol" in out
    assert f"- {LEDGER}: an approval by carol" in out
    assert "an approval by bob" not in out


def _bob_by_the_bot_carol_by_hand(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The bot's commit of bob's approval, then carol's written by hand with the branch's
    configuration asking for no FCP, and RFD 001 staged as Accepted; a PR run's environment."""
    one = json.loads(FORGED)
    one["approvals"], one["fcp"] = one["approvals"][:1], None
    bots = commit(on_github, {LEDGER: json.dumps(one, indent=2)}, "RFD 001: bob approves")
    assert bots == BOT_SHA, "the cassette names this commit: rebuild it if the sha changed"
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7}}), encoding="utf-8")
    for name, value in (
        ("GITHUB_ACTIONS", "true"),
        ("GITHUB_TOKEN", "ghs_test"),
        ("GITHUB_REPOSITORY", "Codertocat/Hello-World"),
        ("GITHUB_EVENT_PATH", str(event)),
        ("GITHUB_BASE_REF", "main"),
    ):
        monkeypatch.setenv(name, value)
    no_fcp = CONFIG.replace("fcp_days = 7", "fcp_days = 0")
    commit(on_github, {".github/rfd.toml": no_fcp, LEDGER: FORGED}, "carol too")
    write(on_github, {A: rfd(status="Accepted")})


def test_a_branch_that_drops_the_consensus_table_still_needs_the_sign_offs(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(on_github, {".github/rfd.toml": '[rfd]\ndir = "docs/rfd"\n'}, "no more sign-offs")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert "the sign-offs are not in (approvals: 0 of 2" in out


def test_git_is_asked_once_where_origin_is(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a [consensus] of its own the branch is held to the default branch's; whether
    origin is on GitHub is asked of git once (it was asked twice), and the answer still
    counts: the hand-written approvals do not accept."""
    commit(on_github, {".github/rfd.toml": '[rfd]\ndir = "docs/rfd"\n', LEDGER: FORGED}, "mine")
    write(on_github, {A: rfd(status="Accepted")})
    started = spawned(monkeypatch)
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert "the sign-offs are not in (approvals: 0 of 2" in out
    assert started.count(("remote", "get-url", "origin")) == 1, started


def spawned(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The command line of every git the hooks start from now on."""
    started: list[tuple[str, ...]] = []
    spawn = _git.spawn

    def counting(root: Root, args: Sequence[str], **how: bool) -> _git.Process:
        started.append(tuple(args))
        return spawn(root, args, **how)

    monkeypatch.setattr(_git, "spawn", counting)
    return started


def test_with_no_default_branch_fetched_origin_is_not_asked(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Outside Actions a branch without a [consensus], where no default branch was fetched,
    has no sign-offs of GitHub's side to count: it accepts, and git is not asked where
    origin is (one process less)."""
    commit(on_github, {".github/rfd.toml": '[rfd]\ndir = "docs/rfd"\n', LEDGER: FORGED}, "mine")
    git(on_github, "update-ref", "-d", "refs/remotes/origin/HEAD")
    git(on_github, "update-ref", "-d", "refs/remotes/origin/main")
    write(on_github, {A: rfd(status="Accepted")})
    started = spawned(monkeypatch)
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 0, out
    assert f"{A}: Discussion → Accepted" in out
    assert ("remote", "get-url", "origin") not in started, started


def test_in_actions_a_branch_without_consensus_still_needs_the_default_branch(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(on_github, {".github/rfd.toml": '[rfd]\ndir = "docs/rfd"\n', LEDGER: FORGED}, "mine")
    git(on_github, "update-ref", "-d", "refs/remotes/origin/HEAD")
    git(on_github, "update-ref", "-d", "refs/remotes/origin/main")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert f"cannot tell which sign-offs in {LEDGER} are trusted" in out


def test_the_base_branch_of_a_pull_request_counts_as_fetched(
    on_github: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """origin/HEAD gone, origin/main there and named by GITHUB_BASE_REF: the default
    branch's [consensus] still decides."""
    commit(on_github, {".github/rfd.toml": '[rfd]\ndir = "docs/rfd"\n', LEDGER: FORGED}, "mine")
    git(on_github, "symbolic-ref", "-d", "refs/remotes/origin/HEAD")
    monkeypatch.setenv("GITHUB_BASE_REF", "main")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert "the sign-offs are not in (approvals: 0 of 2" in out


BOT_SHA = "2fab5182faaa493a93492c883b212cf9008a5bcd"


@pytest.mark.vcr
def test_a_rebased_copy_of_the_bots_commit_counts(
    on_github: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    all_played: None,
) -> None:
    """As above, but the branch was rebased onto a newer main and force-pushed before
    carol's commit: bob's approval is now a copy of the bot's commit that its comment names
    (the same change, a new sha).  The CI checkout lacks the bot's commit: the hook fetches
    it from origin by sha, and bob's copy counts; carol's, written by hand, still does not."""
    _bob_by_the_bot_carol_by_hand(on_github, monkeypatch, tmp_path)
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(on_github, "reset", "-q", "--hard", "HEAD~1")  # back to the bot's commit, pushed
    git(on_github, "remote", "set-url", "origin", str(origin))
    git(on_github, "push", "-q", "origin", "HEAD:refs/heads/rfd-001")
    git(on_github, "checkout", "-q", "main")
    commit(on_github, {"docs/exports.md": "How exports work today.\n"}, "another change")
    git(on_github, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(on_github, "checkout", "-q", "rfd-001")
    git(on_github, "rebase", "-q", "main")
    git(on_github, "push", "-q", "--force", "origin", "HEAD:refs/heads/rfd-001")
    git(on_github, "reflog", "expire", "--expire=now", "--all")
    git(on_github, "gc", "-q", "--prune=now")
    gone = subprocess.run(["git", "cat-file", "-e", BOT_SHA], cwd=on_github, check=False)
    assert gone.returncode != 0  # the checkout lacks the bot's commit
    no_fcp = CONFIG.replace("fcp_days = 7", "fcp_days = 0")
    commit(on_github, {".github/rfd.toml": no_fcp, LEDGER: FORGED}, "carol too")
    write(on_github, {A: rfd(status="Accepted")})
    code, out = run_hook(main, on_github, staged(on_github), monkeypatch, capsys)
    assert code == 1, out
    assert "approvals: 1 of 2, waiting on carol" in out
    assert f"- {LEDGER}: an approval by carol" in out
    assert "an approval by bob" not in out
