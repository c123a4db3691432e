"""A discussion PR rebased, squashed or force-pushed after its sign-offs, end to end through
`rfd bot` (bot/github/bot_records.py): real commits rewritten by git in the test's
repositories, each later run on a fresh checkout of the newer default branch (as in
Actions, where the bot's commits the branch lost are fetched from origin by sha)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git
from tests.github_world import (
    BRANCH,
    CONFIG,
    REPO,
    RFD_PATH,
    RFD_TEXT,
    make_world,
    payload,
    run_bot,
    write,
)
from tests.test_github_signing import CONSENSUS, DISCUSSION_LABEL, LEDGER, comment, ledger

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
NOT_COUNTED = "Not counted on RFD 045"


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    return make_world(tmp_path, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT})


def sign(tmp_path: Path, checkout: Path, *said: tuple[str, str, int]) -> None:
    for body, sender, cid in said:
        assert run_bot(tmp_path, checkout, "issue_comment", comment(body, sender, cid)) == 0


def newer_main(tmp_path: Path, origin: Path) -> Path:
    """The seed repository's PR branch brought up to origin's (the bot's commits); then
    someone merges another change into main: ``origin/main`` in the seed is that."""
    seed, other = tmp_path / "seed", tmp_path / "other"
    git(seed, "pull", "-q", str(origin), BRANCH)
    git(seed, "fetch", "-q", str(origin), "+main:refs/remotes/origin/main")
    git(seed, "worktree", "add", "-q", "--detach", str(other), "origin/main")
    write(other, {"docs/exports.md": "How exports work today.\n"})
    git(other, "add", "-A")
    git(other, "commit", "-q", "-m", "Document today's exports")
    git(other, "push", "-q", str(origin), "HEAD:refs/heads/main")
    git(seed, "fetch", "-q", str(origin), "+main:refs/remotes/origin/main")
    return seed


def force_push(tmp_path: Path, origin: Path) -> tuple[str, str]:
    """The PR branch of the seed force-pushed: ``(head before, head after)``."""
    seed = tmp_path / "seed"
    before = git(origin, "rev-parse", BRANCH).strip()
    git(seed, "push", "-q", "--force", str(origin), f"HEAD:refs/heads/{BRANCH}")
    return before, git(origin, "rev-parse", BRANCH).strip()


def fresh_checkout(tmp_path: Path, origin: Path, name: str = "fresh") -> Path:
    """The default branch as the next workflow run checks it out: no object of earlier runs."""
    fresh = tmp_path / name
    git(tmp_path, "clone", "-q", "--branch", "main", str(origin), str(fresh))
    return fresh


def synchronize(tmp_path: Path, checkout: Path, pushed: tuple[str, str]) -> None:
    before, after = pushed
    data = payload(
        "pull_request.synchronize",
        **{
            "before": before,
            "after": after,
            "pull_request.head.sha": after,
            "pull_request.labels": [DISCUSSION_LABEL],
        },
    )
    assert run_bot(tmp_path, checkout, "pull_request", data) == 0


def status(vcr: Any) -> str:
    """The status comment as the last run left it."""
    edits = [r for r in vcr.requests if r.body and b"<!-- rfd-bot:status:2 -->" in r.body]
    text: str = json.loads(edits[-1].body)["body"]
    return text


def commit_link(sha: str) -> str:
    return f"[`{sha[:7]}`](https://github.com/{REPO}/commit/{sha})"


@pytest.mark.vcr
def test_a_pr_rebased_onto_a_newer_main_keeps_its_sign_offs(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """hubot and mona approve; main moves on; the author rebases the PR onto it (the bot's
    two commits get new shas, pushed by the author) and force-pushes.  The status comment
    the push refreshes still counts both approvals, of the rebased commit that brings the
    RFD, and names nothing as written by hand."""
    origin, checkout = world
    sign(tmp_path, checkout, ("/rfd approve", "hubot", 1001), ("/rfd approve", "mona", 1002))
    bot_commits = git(origin, "rev-list", BRANCH, "--", LEDGER).split()
    git(newer_main(tmp_path, origin), "rebase", "-q", "origin/main")
    pushed = force_push(tmp_path, origin)
    rebased = git(origin, "rev-list", BRANCH, "--", LEDGER).split()
    assert len(rebased) == 2 and not set(rebased) & set(bot_commits)  # new shas
    synchronize(tmp_path, fresh_checkout(tmp_path, origin), pushed)
    said = status(vcr)
    brought = git(origin, "log", "--format=%H", "--diff-filter=A", BRANCH, "--", RFD_PATH).strip()
    assert f"| hubot | ✅ at {commit_link(brought)} |" in said
    assert f"| @\u200bCodertocat/architects | ✅ by mona at {commit_link(brought)} |" in said
    assert NOT_COUNTED not in said
    assert [a["login"] for a in ledger(origin)["approvals"]] == ["hubot", "mona"]
