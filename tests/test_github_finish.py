"""Finishing an RFD: `/rfd done` works on the tracking issue (the bot opens the pull request
to Implemented) and, anywhere else it cannot work, answers with a link to where it does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
STATE = "docs/rfd/.state/045"
ACCEPTED = RFD_TEXT.replace("Discussion", "Accepted\n- **Tracking Issue**: #12")


def finished_world(tmp: Path, *phases: str) -> tuple[Path, Path]:
    """RFD 045 Accepted on main, its two phases recorded (``phases``: which)."""
    from bot.model.plan import PlanPhase, dumps

    plan = dumps((PlanPhase("Writer", "w"), PlanPhase("Endpoint", "e")))
    files = {RFD_PATH: ACCEPTED, f"{STATE}/plan.json": plan}
    files |= {f"{STATE}/phases/{n}.md": "done\n" for n in phases or ("1", "2")}
    return make_world(tmp, files, {})


def on_issue(body: str) -> dict[str, Any]:
    """``body`` commented by Codertocat on RFD 045's tracking issue #12."""
    data = payload("issue_comment.created.issue", **{"comment.body": body})
    data["issue"]["body"] = "<!-- rfd-bot:tracking:045 -->\nTracking issue"
    data["issue"]["user"] = {**data["issue"]["user"], "login": "github-actions[bot]"}
    return data


def posted(vcr: Any, path: str) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in vcr.requests if r.method == "POST" and r.path == path]


@pytest.mark.vcr
def test_done_on_the_tracking_issue_opens_the_pull_request_to_implemented(
    tmp_path: Path, vcr: Any
) -> None:
    origin, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_issue("/rfd done")) == 0
    branch = git(origin, "show", f"rfd/045-implemented:{RFD_PATH}")
    assert "- **Status**: Implemented" in branch
    assert "- **Status**: Accepted" in git(origin, "show", f"main:{RFD_PATH}")
    (pr,) = posted(vcr, "/repos/Codertocat/Hello-World/pulls")
    assert (pr["title"], pr["head"], pr["base"]) == (
        "RFD 045: Implemented",
        "rfd/045-implemented",
        "main",
    )
    assert "Closes #12" in pr["body"]
    (reply,) = bodies_sent(vcr)[1:]  # after the pull request's body
    assert lines(reply) == [
        "Opened https://github.com/Codertocat/Hello-World/pull/4: it marks RFD 045 Implemented."
        " **Next step:** one of Codertocat, hubot, mona (write access or more) merges it; the"
        " merge closes this issue."
    ]


@pytest.mark.vcr
def test_done_again_on_the_tracking_issue_links_the_pull_request_it_opened(
    tmp_path: Path, vcr: Any
) -> None:
    origin, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_issue("/rfd done")) == 0
    assert "rfd/045-implemented" not in git(origin, "branch", "--list")  # nothing redone
    (reply,) = bodies_sent(vcr)
    assert lines(reply) == [  # GitHub lists nobody to this token: who merges is described
        "RFD 045 already has its pull request to Implemented: https://github.com/Codertocat/"
        "Hello-World/pull/4. **Next step:** someone with write access merges it; the merge"
        " closes this issue."
    ]


@pytest.mark.vcr
def test_done_with_a_phase_missing_says_which_and_opens_nothing(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = finished_world(tmp_path, "1")
    assert run_bot(tmp_path, checkout, "issue_comment", on_issue("/rfd done")) == 0
    assert "rfd/045-implemented" not in git(origin, "branch", "--list", "-a")
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/12/comments")
    assert "Not yet: RFD 045 still has phases to do: 2. Endpoint." in reply["body"]
    assert "**Next step:** comment `/rfd implement` here" in reply["body"]


@pytest.mark.vcr
def test_done_on_a_phase_pull_request_links_the_tracking_issue(tmp_path: Path, vcr: Any) -> None:
    _, checkout = finished_world(tmp_path)
    data = payload("issue_comment.created.pr", **{"comment.body": "/rfd done"})
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert (
        "works on its tracking issue: comment it on [#12](https://github.com/Codertocat/"
        "Hello-World/issues/12)" in reply["body"]
    )


def closed(merged: bool) -> dict[str, Any]:
    """PR 2, which changes RFD 045, closed (``merged`` or not)."""
    data = payload("pull_request.reopened", action="closed")
    data["pull_request"].update(state="closed", merged=merged)
    return data


@pytest.mark.vcr
def test_a_merged_rfd_pr_says_where_the_rfd_lives_on(tmp_path: Path, vcr: Any) -> None:
    """No stale "merge this pull request": the file on main and the tracking issue, linked."""
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "pull_request_target", closed(merged=True)) == 0
    status, tracking = [json.loads(r.body)["body"] for r in vcr.requests if r.method == "PATCH"]
    assert "**Merged into `main`** as Accepted." in status
    assert "tracking issue [#12](https://github.com/Codertocat/Hello-World/issues/12)" in status
    assert "merge this pull request" not in status and "Next step" not in status
    assert lines(status)[-1] == (  # true: a later transition (Implemented) edits it once more
        "<sub>Final: this pull request is merged · rfd-bot updates this comment only when the "
        "RFD's status changes</sub>"
    )
    # the tracking issue linked the RFD at the PR's head until now: the head branch may go
    rfd = "https://github.com/Codertocat/Hello-World/blob/main/docs/rfd/045-streaming-exports.md"
    assert f"[RFD 045: Streaming exports]({rfd})" in tracking
    assert "/blob/rfd-045-streaming-exports/" not in tracking
    assert "Discussed in [#2](https://github.com/Codertocat/Hello-World/pull/2)" in tracking


@pytest.mark.vcr
def test_a_closed_rfd_pr_says_the_rfd_is_not_on_main(tmp_path: Path, vcr: Any) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", closed(merged=False)) == 0
    (status,) = [json.loads(r.body)["body"] for r in vcr.requests if r.method == "PATCH"]
    assert "**Closed without merging.** RFD 045 is not on `main`" in status
    assert lines(status)[-1] == (  # reopened, it is the live status comment again; the RFD
        # can still reach main through another pull request, whose merge edits it
        "<sub>Final: this pull request is closed without merging · rfd-bot updates this comment "
        "again only if it is reopened, or when a pull request that changes the RFD is merged</sub>"
    )


@pytest.mark.vcr
def test_a_quiet_command_answered_by_its_rocket_is_not_run_again(tmp_path: Path, vcr: Any) -> None:
    """`/rfd dismiss` answers with 🚀 and the status comment, no reply: a re-delivery finds
    the bot's 🚀 and writes nothing."""
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    data = payload("issue_comment.created.pr", **{"comment.body": "/rfd dismiss all"})
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    assert [r.method for r in vcr.requests] == ["GET", "GET"]


@pytest.mark.vcr
def test_a_label_colour_that_fails_is_a_warning_not_a_failed_run(tmp_path: Path) -> None:
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "pull_request_target", closed(merged=True)) == 0
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "⚠️" in summary and "Resource not accessible by integration" in summary


@pytest.mark.vcr
def test_status_on_a_merged_pr_keeps_its_final_state(tmp_path: Path, vcr: Any) -> None:
    """`/rfd status` on the merged RFD PR refreshes the final state, never a dashboard that
    says "merge this pull request"."""
    _, checkout = finished_world(tmp_path)
    data = payload("issue_comment.created.pr", **{"comment.body": "/rfd status"})
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    status, _ = [json.loads(r.body)["body"] for r in vcr.requests if r.method == "PATCH"]
    assert "**Merged into `main`** as Accepted." in status
    assert "merge this pull request" not in status


@pytest.mark.vcr
def test_status_while_a_phase_pr_is_open_says_to_merge_it_then_done(
    tmp_path: Path, vcr: Any
) -> None:
    """Phase 2's pull request #2 is open; it records the phase only (no finish_in_last_phase)."""
    _, checkout = finished_world(tmp_path, "1")
    assert run_bot(tmp_path, checkout, "issue_comment", on_issue("/rfd status")) == 0
    (reply,) = [json.loads(r.body)["body"] for r in vcr.requests if r.method == "POST"]
    assert reply.splitlines()[-1] == (
        "**Next step:** review and merge [#2](https://github.com/Codertocat/Hello-World/pull/2) "
        "(phase 2: Endpoint), then comment `/rfd done` here to mark the RFD Implemented."
    )
