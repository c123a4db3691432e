"""A command given where it does not work, through the real entry point: its answer links
the place where it works (the grid of every verb and place: ``test_github_places``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import lines
from tests.github_world import CONFIG, RFD_PATH, RFD_TEXT, make_world, payload, run_bot
from tests.test_github_finish import finished_world, on_issue, posted

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
WEB = "https://github.com/Codertocat/Hello-World"
RFD = f"{WEB}/blob/main/docs/rfd/045-streaming-exports.md"


def on_pr(body: str, number: int = 2) -> dict[str, Any]:
    data = payload("issue_comment.created.pr", **{"comment.body": body})
    data["issue"]["number"] = number
    return data


@pytest.mark.vcr
def test_implement_on_the_merged_rfd_pr_links_the_tracking_issue(tmp_path: Path, vcr: Any) -> None:
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd implement")) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert (
        f"`/rfd implement` for RFD 045 works on its tracking issue: comment it on [#12]"
        f"({WEB}/issues/12)." in reply["body"]
    )


@pytest.mark.vcr
def test_review_on_the_closed_pr_links_the_rfd_where_another_pr_brought_it(
    tmp_path: Path, vcr: Any
) -> None:
    """PR 2 was closed without merging; PR 5 brought RFD 045 to `main`, as PR 2's status
    comment says.  Reopening PR 2 is not the way: the answer says where the RFD is now."""
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd review")) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert lines(reply["body"]) == [
        "This pull request was closed without merging, but the RFD "
        f"reached [`main`]({RFD}) through [#5]({WEB}/pull/5), and its status there is "
        "Accepted: `/rfd review` works on an open pull request that changes it — open one "
        "that edits the file and comment it there. Its implementation is followed on tracking "
        f"issue [#12]({WEB}/issues/12).",
    ]
    assert "reopen" not in reply["body"]


@pytest.mark.vcr
def test_review_on_the_closed_pr_names_the_pr_the_rfd_was_accepted_on(
    tmp_path: Path, vcr: Any
) -> None:
    """PR 2 was closed without merging and its status comment names no pull request that
    brought RFD 045 to `main`; the tracking issue says it was discussed (accepted) in #5:
    the answer names #5 rather than only "another way"."""
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd review")) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert lines(reply["body"]) == [
        "This pull request was closed without merging, but the RFD "
        f"reached [`main`]({RFD}) another way (it was accepted on [#5]({WEB}/pull/5)), and its "
        "status there is Accepted: `/rfd review` works on an open pull request that changes it "
        "— open one that edits the file and comment it there. Its implementation is followed "
        f"on tracking issue [#12]({WEB}/issues/12).",
    ]


@pytest.mark.vcr
def test_implement_on_the_closed_pr_of_an_unaccepted_rfd_says_where_it_is_accepted(
    tmp_path: Path, vcr: Any
) -> None:
    """PR 2 was closed without merging before RFD 045 was accepted: there is no tracking
    issue, and the closed PR is not where accepting happens (an open one is)."""
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd implement")) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert lines(reply["body"]) == [
        "RFD 045 is not accepted: it has no tracking issue yet, which is opened when the RFD is "
        "accepted on an open pull request that changes it. This pull request is closed without "
        "merging — reopen it, then accept the RFD there. `/rfd implement` works on the tracking "
        "issue afterwards.",
    ]


@pytest.mark.vcr
def test_implement_on_the_merged_pr_of_an_unaccepted_rfd_says_where_it_is_accepted_now(
    tmp_path: Path, vcr: Any
) -> None:
    """PR 2 was merged with RFD 045 in Discussion, never accepted: there is no tracking
    issue, and the merged PR is not where accepting happens any more (a new PR that edits
    the file on `main` is)."""
    _, checkout = make_world(tmp_path, {RFD_PATH: RFD_TEXT}, {})
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd implement")) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert lines(reply["body"]) == [
        "RFD 045 has no tracking issue yet: it is opened when the RFD is accepted on an open "
        "pull request that changes it. This pull request was merged, and the RFD's status on "
        f"[`main`]({RFD}) is Discussion: open a pull request that edits the file and accept the "
        "RFD there. `/rfd implement` works on the tracking issue afterwards.",
    ]
    assert "#2" not in reply["body"]  # not "accepted on #2": it is merged


@pytest.mark.vcr
def test_approve_on_the_closed_pr_of_an_rfd_that_lives_only_there_says_to_reopen_it(
    tmp_path: Path, vcr: Any
) -> None:
    """PR 2 was closed without merging and RFD 045 is not on `main`: the pull request is
    the only place the RFD lives, and the answer given on it says so in its own words."""
    signing = {".github/rfd.toml": CONFIG + '[consensus]\nreviewers = ["Codertocat"]\n'}
    _, checkout = make_world(tmp_path, signing, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd approve")) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert lines(reply["body"]) == [
        "This pull request was closed without merging, and RFD 045 is not on `main`: reopen "
        "this pull request, then comment `/rfd approve` again.",
    ]


@pytest.mark.vcr
def test_review_on_the_tracking_issue_links_the_open_rfd_pr(tmp_path: Path, vcr: Any) -> None:
    """Accepted on its pull request, not merged yet: the discussion goes on there."""
    _, checkout = finished_world(tmp_path)
    data = on_issue("/rfd review")
    data["issue"]["body"] += f"\nDiscussed in [#2]({WEB}/pull/2)."
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/12/comments")
    assert (
        f"`/rfd review` for RFD 045 works on its pull request: comment it on [#2]({WEB}/pull/2)."
        in reply["body"]
    )


@pytest.mark.vcr
def test_dismiss_on_a_phase_pr_links_the_rfd_on_main_and_its_issue(
    tmp_path: Path, vcr: Any
) -> None:
    """Not "this pull request changes no RFD": the RFD, merged, changes through a new pull
    request; its discussion and tracking issue are linked."""
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd dismiss all", 5)) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/5/comments")
    said = reply["body"]
    assert f"RFD 045 was merged in [#2]({WEB}/pull/2) and lives on [on `main`]({RFD})" in said
    assert "`/rfd dismiss` works on an open pull request that changes it" in said
    assert f"tracking issue [#12]({WEB}/issues/12)" in said
    assert "changes no RFD" not in json.dumps(reply)


@pytest.mark.vcr
def test_status_on_a_phase_pr_links_the_tracking_issue(tmp_path: Path, vcr: Any) -> None:
    """Not "this pull request changes no RFD": where the RFD stands is on its tracking issue."""
    _, checkout = finished_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", on_pr("/rfd status", 5)) == 0
    (reply,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/5/comments")
    assert f"on its tracking issue [#12]({WEB}/issues/12)" in reply["body"]
