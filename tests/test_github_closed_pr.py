"""The RFD's discussion pull request closed WITHOUT merging while the RFD reached `main`
another way (a new pull request, a push): its final comment never says "merged".

PR 2 is the pull request the tracking issue #12 names ("Discussed in #2"); it was closed
without merging.  Its status comment is what people find when they follow that link.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import lines
from tests.github_world import RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
WEB = "https://github.com/Codertocat/Hello-World"
RFD_URL = f"{WEB}/blob/main/{RFD_PATH}"
LIVES_ON = (
    f"Its implementation is followed on tracking issue [#12]({WEB}/issues/12), where the "
    "phases are ticked and the next command is named (`/rfd status` there says where it "
    "stands)."
)
FOOTER_CLOSED = (
    "<sub>Final: this pull request is closed without merging · rfd-bot updates this comment "
    "again only if it is reopened, or when a pull request that changes the RFD is merged</sub>"
)


def on_main(tmp: Path, status: str) -> Path:
    """The checkout of `main`, where RFD 045 is ``status`` with its tracking issue #12."""
    text = RFD_TEXT.replace("Discussion", f"{status}\n- **Tracking Issue**: #12")
    return make_world(tmp, {RFD_PATH: text}, {})[1]


def closed(number: int, branch: str, *, merged: bool) -> dict[str, Any]:
    """Pull request ``number`` (head ``branch``), which changes RFD 045, closed."""
    data = payload("pull_request.reopened", action="closed")
    data["pull_request"].update(state="closed", merged=merged, number=number, labels=[])
    data["pull_request"]["head"]["ref"] = branch
    data["number"] = number
    return data


def written(vcr: Any, path: str) -> list[str]:
    """The bodies the bot sent to ``path`` (a comment or an issue), in order."""
    return [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method in ("POST", "PATCH") and r.path == path and "body" in json.loads(r.body)
    ]


@pytest.mark.vcr
def test_the_merge_of_a_new_pr_says_the_discussion_pr_was_closed_not_merged(
    tmp_path: Path, vcr: Any
) -> None:
    """The discussion was re-opened in PR 5 (another branch), which is merged: PR 2's final
    comment names PR 5 as what brought the RFD to `main`, and its own state as closed."""
    checkout = on_main(tmp_path, "Accepted")
    assert (
        run_bot(tmp_path, checkout, "pull_request_target", closed(5, "rfd-045-again", merged=True))
        == 0
    )
    (status_2,) = written(vcr, "/repos/Codertocat/Hello-World/issues/comments/950")
    assert lines(status_2) == [
        f"### [RFD 045: Streaming exports]({RFD_URL})",
        f"**Closed without merging.** RFD 045 reached `main` through [#5]({WEB}/pull/5) "
        "instead: it is Accepted there.",
        LIVES_ON,
        FOOTER_CLOSED,
    ]
    assert "Merged" not in status_2 and "made it so" not in status_2
    (status_5,) = written(vcr, "/repos/Codertocat/Hello-World/issues/5/comments")
    assert "**Merged into `main`** as Accepted." in status_5  # the merged case, unchanged
    # the tracking issue linked the RFD at PR 2's head (accepted there): now on main
    (tracking,) = written(vcr, "/repos/Codertocat/Hello-World/issues/12")
    assert f"[RFD 045: Streaming exports]({RFD_URL})" in tracking
    assert "/blob/rfd-045-streaming-exports/" not in tracking
    assert f"Discussed in [#2]({WEB}/pull/2)" in tracking  # true: it was discussed there


@pytest.mark.vcr
def test_closing_the_discussion_pr_after_a_push_to_main_says_where_the_rfd_is(
    tmp_path: Path, vcr: Any
) -> None:
    """An admin pushed the RFD to `main`, then closed PR 2: closed, the RFD on `main` linked,
    and the tracking issue relinked from PR 2's head (the branch may be deleted)."""
    checkout = on_main(tmp_path, "Accepted")
    data = closed(2, "rfd-045-streaming-exports", merged=False)
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    (status_2,) = written(vcr, "/repos/Codertocat/Hello-World/issues/comments/950")
    assert lines(status_2) == [
        f"### [RFD 045: Streaming exports]({RFD_URL})",
        f"**Closed without merging.** RFD 045 on `main` is Accepted: [read it there]({RFD_URL}).",
        LIVES_ON,
        FOOTER_CLOSED,
    ]
    (tracking,) = written(vcr, "/repos/Codertocat/Hello-World/issues/12")
    assert "/blob/rfd-045-streaming-exports/" not in tracking


@pytest.mark.vcr
@pytest.mark.parametrize(
    ("earlier", "standing"),
    [
        pytest.param(  # PR 5's merge brought it, and PR 2's comment said so: still said
            "closed-brought",
            f"**Closed without merging.** RFD 045 reached `main` through [#5]({WEB}/pull/5) "
            "instead.",
            id="brought by PR 5",
        ),
        pytest.param(  # a push brought it: which one is not known, and not guessed
            "closed-on-main",
            "**Closed without merging.** RFD 045 reached `main` another way.",
            id="pushed",
        ),
    ],
)
def test_a_later_transition_keeps_the_discussion_pr_closed_not_merged(
    tmp_path: Path, vcr: Any, earlier: str, standing: str
) -> None:
    """PR 4 (`/rfd done`'s) is merged: RFD 045 is Implemented.  PR 2's final comment gets
    the transition, and still says it was closed without merging."""
    checkout = on_main(tmp_path, "Implemented")
    data = closed(4, "rfd/045-implemented", merged=True)
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    (status_2,) = written(vcr, "/repos/Codertocat/Hello-World/issues/comments/950")
    assert lines(status_2) == [
        f"### [RFD 045: Streaming exports]({RFD_URL})",
        standing,
        LIVES_ON,
        f"Since then: RFD 045 is Implemented on `main` — [#4]({WEB}/pull/4) made it so.",
        FOOTER_CLOSED,
    ]
    assert "Merged" not in status_2


@pytest.mark.vcr
@pytest.mark.parametrize(
    ("case", "since"),
    [
        pytest.param(  # the diff, read back from main, has the status line unchanged
            "its diff",
            f"Since then: [#7]({WEB}/pull/7) changed RFD 045 on `main`; it is still Accepted.",
            id="its diff",
        ),
        pytest.param(  # main changed again since (or GitHub left the diff out): not guessed
            "a diff that no longer fits",
            f"Since then: [#7]({WEB}/pull/7) changed RFD 045 on `main`; it is Accepted now.",
            id="a diff that no longer fits",
        ),
    ],
)
def test_an_edit_that_keeps_the_status_is_not_called_a_transition(
    tmp_path: Path, vcr: Any, case: str, since: str
) -> None:
    """PR 7 rewords RFD 045's design and is merged; the RFD stays Accepted.  PR 2's final
    comment says PR 7 changed the RFD, never that it "made it so"."""
    checkout = on_main(tmp_path, "Accepted")
    data = closed(7, "rfd-045-wording", merged=True)
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    (status_2,) = written(vcr, "/repos/Codertocat/Hello-World/issues/comments/950")
    assert lines(status_2) == [
        f"### [RFD 045: Streaming exports]({RFD_URL})",
        f"**Closed without merging.** RFD 045 reached `main` through [#5]({WEB}/pull/5) instead.",
        LIVES_ON,
        since,
        FOOTER_CLOSED,
    ]
    assert "made it so" not in status_2


@pytest.mark.vcr
def test_status_on_the_closed_discussion_pr_keeps_the_pr_that_brought_the_rfd(
    tmp_path: Path, vcr: Any
) -> None:
    """`/rfd status` on PR 2 refreshes its final state: still closed, still naming PR 5 (read
    back from its own comment), with the RFD's status on `main` now."""
    checkout = on_main(tmp_path, "Implemented")
    data = payload("issue_comment.created.pr", **{"comment.body": "/rfd status"})
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    (status_2,) = written(vcr, "/repos/Codertocat/Hello-World/issues/comments/950")
    assert lines(status_2) == [
        f"### [RFD 045: Streaming exports]({RFD_URL})",
        f"**Closed without merging.** RFD 045 reached `main` through [#5]({WEB}/pull/5) "
        "instead: it is Implemented there.",
        LIVES_ON,
        FOOTER_CLOSED,
    ]


@pytest.mark.vcr
def test_a_discussion_pr_github_does_not_answer_for_is_a_warning(tmp_path: Path, vcr: Any) -> None:
    """PR 4's merge is written, PR 2 cannot be read (404): a warning in the job summary,
    PR 2's comment left as it was rather than guessed at, the run not failed."""
    checkout = on_main(tmp_path, "Implemented")
    data = closed(4, "rfd/045-implemented", merged=True)
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    assert written(vcr, "/repos/Codertocat/Hello-World/issues/comments/950") == []
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "⚠️ GitHub refused to read pull request #2: 404 Not Found" in summary
