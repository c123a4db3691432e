"""Writes that only decorate a run's work (a reaction, the status comment's refresh, a
progress edit) never fail it: GitHub's refusal is a warning in the job summary and the log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.errors import ForgeError
from bot.github.progress import Progress, Snapshot, Stage
from tests.conftest import bodies_sent, git, lines
from tests.github_world import BRANCH, CONFIG, RFD_PATH, RFD_TEXT, make_world, payload, run_bot

LEDGER = "docs/rfd/.state/045/consensus.json"
CONSENSUS = """
[consensus]
reviewers = ["hubot", "@Codertocat/architects"]
approvals = 2
fcp_days = 7
fcp_accepts = true
"""
PR_URL = "https://github.com/Codertocat/Hello-World/pull/2"


def approve(sender: str, cid: int) -> dict[str, object]:
    changes = {
        "comment.body": "/rfd approve",
        "comment.user.login": sender,
        "sender.login": sender,
        "comment.id": cid,
        "comment.html_url": f"{PR_URL}#issuecomment-{cid}",
    }
    return payload("issue_comment.created.pr", **changes)


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_a_refused_reaction_or_status_edit_is_a_warning_not_a_failed_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], vcr: Any
) -> None:
    world = make_world(tmp_path, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT})
    origin, checkout = world
    summary = tmp_path / "summary.md"

    assert run_bot(tmp_path, checkout, "issue_comment", approve("hubot", 1001)) == 0
    said = summary.read_text(encoding="utf-8")
    assert "⚠️ the rocket reaction failed (" in said
    assert "Validation Failed" in said and "the run's work is done and stands" in said
    assert "::warning::the rocket reaction failed" in capsys.readouterr().out  # the log
    signed = json.loads(git(origin, "show", f"{BRANCH}:{LEDGER}"))["approvals"]
    assert [a["login"] for a in signed] == ["hubot"]  # the sign-off stands

    summary.unlink()
    git(checkout, "fetch", "-q", "origin")
    assert run_bot(tmp_path, checkout, "issue_comment", approve("mona", 1002)) == 0
    said = summary.read_text(encoding="utf-8")
    assert "⚠️ refreshing the status comment failed (" in said and "Validation Failed" in said
    signed = json.loads(git(origin, "show", f"{BRANCH}:{LEDGER}"))["approvals"]
    assert [a["login"] for a in signed] == ["hubot", "mona"]
    # what the PR shows: the status comment of hubot's sign-off (the edit for mona's was
    # refused, and the job summary says so)
    shown, _refused = bodies_sent(vcr)
    assert (
        "**Next step:** Sign-offs 1 of 2: waiting for @\u200bCodertocat/architects"
        " (`/rfd approve`). Then accept with `/rfd accept` or the `rfd:accept` label."
    ) in lines(shown)
    assert "| @\u200bCodertocat/architects | waiting |" in lines(shown)


def test_a_refused_progress_edit_is_warned_and_the_next_edit_tries_again() -> None:
    written: list[str] = []
    warned: list[str] = []

    def write(text: str) -> None:
        if not written and not warned:
            raise ForgeError("Validation Failed (HTTP 422)")
        written.append(text)

    snap = Snapshot("Refining", "RFD 045", Stage.PASS, k=1, n=5)
    progress = Progress(
        write,
        snap,
        clock=lambda: 0.0,
        spent=lambda: (0, 0.0),
        warn=lambda err: warned.append(err.message),
    )
    progress.update(force=True)
    assert warned == ["Validation Failed (HTTP 422)"] and written == []
    progress.update(k=2)  # not written before: due now, not waiting for its pace
    assert len(written) == 1 and "Pass 2 of at most 5" in written[0]


def test_the_outcome_of_a_progress_comment_is_never_swallowed() -> None:
    def write(text: str) -> None:
        raise ForgeError("Validation Failed (HTTP 422)")

    snap = Snapshot("Refining", "RFD 045", Stage.PASS, k=1, n=5)
    progress = Progress(
        write, snap, clock=lambda: 0.0, spent=lambda: (0, 0.0), warn=lambda err: None
    )
    with pytest.raises(ForgeError):
        progress.done("refined in 1 pass (converged)")
