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


def fresh_checkout(tmp_path: Path, origin: Path) -> Path:
    """The default branch as the next workflow run checks it out: no object of earlier runs."""
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", "--no-local", "--branch", "main", str(origin), str(fresh))
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


def amend_ledger(seed: Path, edit: Any) -> None:
    """The branch's last commit (the bot's copy) amended: its ledger as ``edit`` returns it,
    its message (the bot's trailer) kept."""
    data = json.loads((seed / LEDGER).read_text(encoding="utf-8"))
    (seed / LEDGER).write_text(json.dumps(edit(data), indent=2) + "\n", encoding="utf-8")
    git(seed, "commit", "-q", "--amend", "--no-edit", "-a")


@pytest.mark.vcr
def test_a_ledger_edited_during_the_rebase_is_named_and_the_bots_record_counts(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """hubot approves; the author rebases and, editing the bot's commit on the way, adds an
    approval by mona to its ledger.  That commit is no copy of the bot's: hubot's approval
    counts as the bot recorded it, mona's is named as written by hand."""
    origin, checkout = world
    sign(tmp_path, checkout, ("/rfd approve", "hubot", 1001))
    seed = newer_main(tmp_path, origin)
    git(seed, "rebase", "-q", "origin/main")
    mona = {
        "login": "mona",
        "revision": "cf966ebba4a58ec177a17b71f7328274d0aadcf6",
        "at": 1795000000,
    }
    amend_ledger(seed, lambda d: {**d, "approvals": [*d["approvals"], mona]})
    pushed = force_push(tmp_path, origin)
    synchronize(tmp_path, fresh_checkout(tmp_path, origin), pushed)
    said = status(vcr)
    assert "| hubot | ✅ at " in said
    assert "| @\u200bCodertocat/architects | waiting |" in said
    assert f"> {NOT_COUNTED}: an approval by mona — written into `consensus.json`" in said
    assert "an approval by hubot" not in said


THREE = (
    ("/rfd approve", "hubot", 1001),
    ("/rfd approve", "mona", 1002),
    ("/rfd concern Proxies may buffer the chunked response", "mona", 1003),
)


@pytest.mark.vcr
def test_a_pr_squashed_by_its_author_keeps_its_sign_offs(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """Two approvals and a concern; the author squashes the whole PR (their commit and the
    bot's three) into one commit on the newer main.  No commit of the branch is the bot's,
    but the bot's comments name its three, which origin still has: each counts as the bot
    made it."""
    origin, checkout = world
    sign(tmp_path, checkout, *THREE)
    seed = newer_main(tmp_path, origin)
    git(seed, "reset", "-q", "--soft", git(seed, "merge-base", "HEAD", "origin/main").strip())
    git(seed, "commit", "-q", "-m", "RFD 045: Streaming exports")
    git(seed, "rebase", "-q", "origin/main")
    assert len(git(seed, "rev-list", "origin/main..HEAD").split()) == 1
    pushed = force_push(tmp_path, origin)
    synchronize(tmp_path, fresh_checkout(tmp_path, origin), pushed)
    said = status(vcr)
    assert "| hubot | ✅ at " in said and "| @\u200bCodertocat/architects | ✅ by mona at " in said
    assert "- **Concern 1** by mona: Proxies may buffer the chunked response" in said
    assert NOT_COUNTED not in said


@pytest.mark.vcr
def test_a_concern_dropped_in_a_rebase_still_blocks_and_is_named(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """Two approvals and mona's concern; the author rebases without the bot's concern
    commit.  The concern is still open (the bot's commit is its record) and the status says
    it was taken out on the branch."""
    origin, checkout = world
    sign(tmp_path, checkout, *THREE)
    seed = newer_main(tmp_path, origin)
    git(seed, "reset", "-q", "--hard", "HEAD~1")  # the bot's concern commit dropped
    git(seed, "rebase", "-q", "origin/main")
    pushed = force_push(tmp_path, origin)
    synchronize(tmp_path, fresh_checkout(tmp_path, origin), pushed)
    said = status(vcr)
    assert "- **Concern 1** by mona: Proxies may buffer the chunked response" in said
    assert f"> {NOT_COUNTED}: concern 1 taken out — written into `consensus.json`" in said
    assert "| hubot | ✅ at " in said and "| @\u200bCodertocat/architects | ✅ by mona at " in said


class Cancelled(BaseException):
    """The runner cancelling the job (a timeout, a newer run of the workflow)."""


@pytest.mark.vcr
def test_a_sign_off_redelivered_after_a_rebase_is_not_recorded_again(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hubot's approval: its run pushes the bot's commit and is cancelled before it says so
    (no status comment, no 🚀).  The author rebases; the job is re-run for the same comment:
    the rebased copy of the bot's commit is recognized, nothing is committed again: 🚀, and
    the job summary says the earlier run did it."""
    origin, checkout = world

    def cancelled(*_: object, **__: object) -> None:
        raise Cancelled

    with monkeypatch.context() as patched:
        patched.setattr("bot.github.signing.refreshed", cancelled)
        with pytest.raises(Cancelled):
            sign(tmp_path, checkout, ("/rfd approve", "hubot", 1001))
    seed = newer_main(tmp_path, origin)
    git(seed, "rebase", "-q", "origin/main")
    force_push(tmp_path, origin)
    head = git(origin, "rev-parse", BRANCH).strip()
    sign(tmp_path, fresh_checkout(tmp_path, origin), ("/rfd approve", "hubot", 1001))
    assert git(origin, "rev-parse", BRANCH).strip() == head  # nothing committed again
    rockets = [r for r in vcr.requests if r.path.endswith("/1001/reactions") and r.method == "POST"]
    assert [json.loads(r.body)["content"] for r in rockets] == ["eyes", "eyes", "rocket"]
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8").split("### rfd-bot")[-1]
    assert (
        f"RFD 045 approved: an earlier run of this command committed it as [`{head[:12]}`]"
    ) in summary
    assert [a["login"] for a in ledger(origin)["approvals"]] == ["hubot"]


@pytest.mark.vcr
def test_a_rebased_copy_follows_the_comment_the_bots_commit_names_not_its_own_message(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """hubot and mona approve; hubot deletes his comment.  The author rebases and rewrites
    the message of hubot's copy to name mona's comment (still an `/rfd approve`) instead.
    The copy stands for the bot's commit, whose own message names hubot's comment: his
    approval no longer counts, and the status says why."""
    origin, checkout = world
    sign(tmp_path, checkout, ("/rfd approve", "hubot", 1001), ("/rfd approve", "mona", 1002))
    seed = newer_main(tmp_path, origin)
    git(seed, "rebase", "-q", "origin/main")
    monas = git(seed, "rev-parse", "HEAD").strip()
    git(seed, "checkout", "-q", "--detach", "HEAD~1")
    message = git(seed, "log", "-1", "--format=%B").replace("c1001", "c1002")
    git(seed, "commit", "-q", "--amend", "-m", message)
    git(seed, "cherry-pick", monas)
    git(seed, "checkout", "-q", "-B", BRANCH)
    pushed = force_push(tmp_path, origin)
    synchronize(tmp_path, fresh_checkout(tmp_path, origin), pushed)
    said = status(vcr)
    assert "| hubot | waiting |" in said
    assert "| @\u200bCodertocat/architects | ✅ by mona at " in said
    assert "the approval by hubot no longer counts: its comment was deleted" in said


@pytest.mark.vcr
def test_when_origin_no_longer_has_the_bots_commits_their_sign_offs_are_named(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """As the first test, but origin has since collected the commits the force-push left
    behind: nothing shows that the copies are the bot's, so neither approval counts and the
    status names both (their reviewers give them again)."""
    origin, checkout = world
    sign(tmp_path, checkout, ("/rfd approve", "hubot", 1001), ("/rfd approve", "mona", 1002))
    git(newer_main(tmp_path, origin), "rebase", "-q", "origin/main")
    pushed = force_push(tmp_path, origin)
    git(origin, "reflog", "expire", "--expire=now", "--all")
    git(origin, "gc", "-q", "--prune=now")
    synchronize(tmp_path, fresh_checkout(tmp_path, origin), pushed)
    said = status(vcr)
    assert "| hubot | waiting |" in said and "| @\u200bCodertocat/architects | waiting |" in said
    assert f"> {NOT_COUNTED}: an approval by hubot, an approval by mona — written into" in said


NO_FCP = CONSENSUS.replace("fcp_days = 7", "fcp_days = 0")


@pytest.mark.vcr
def test_a_rebased_pr_is_accepted_with_the_sign_offs_given_before_the_rebase(
    tmp_path: Path, vcr: Any
) -> None:
    """Two approvals are all the RFD needs (no final comment period); the author rebases onto
    a newer main; hubot's `/rfd accept` accepts it, with both sign-offs."""
    origin, checkout = make_world(
        tmp_path, {".github/rfd.toml": CONFIG + NO_FCP}, {RFD_PATH: RFD_TEXT}
    )
    sign(tmp_path, checkout, ("/rfd approve", "hubot", 1001), ("/rfd approve", "mona", 1002))
    git(newer_main(tmp_path, origin), "rebase", "-q", "origin/main")
    force_push(tmp_path, origin)
    sign(tmp_path, fresh_checkout(tmp_path, origin), ("/rfd accept", "hubot", 1003))
    assert "- **Status**: Accepted" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
    accepted = json.loads(git(origin, "show", f"{BRANCH}:{LEDGER}"))["accepted"]
    assert accepted["by"] == "hubot" and accepted["signers"] == ["hubot", "mona"]
    (reply,) = [r.body for r in vcr.requests if r.body and b"reply:c1003-accept" in r.body]
    assert "🚀 RFD 045 is Accepted: 2 phases, tracking issue #12." in json.loads(reply)["body"]
    said = status(vcr)
    brought = git(origin, "log", "--format=%H", "--diff-filter=A", BRANCH, "--", RFD_PATH).strip()
    signed = f"(at {commit_link(brought)})"
    assert f"with the sign-offs of @\u200bhubot {signed}, @\u200bmona {signed}." in said
    assert NOT_COUNTED not in said
