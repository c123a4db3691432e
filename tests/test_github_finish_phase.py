"""``[implement] finish_in_last_phase``: the last phase's pull request also marks the RFD
Implemented, and merging it closes the tracking issue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import CONFIG, RFD_PATH, make_world, run_bot
from tests.test_github_finish import ACCEPTED
from tests.test_github_slash import implement_comment, item_done, scripted_model

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
STATE = "docs/rfd/.state/045"
FINISH = "[implement]\nfinish_in_last_phase = true\n"
ENDPOINT = (
    "Research.",
    "- [ ] 1. Add the endpoint\n",
    item_done("done"),
    "The endpoint streams the export.",
)


def last_phase_world(tmp: Path) -> tuple[Path, Path]:
    """RFD 045 Accepted on main (tracking issue #12), phase 1 of 2 recorded, the option on."""
    from bot.model.plan import PlanPhase, dumps

    plan = dumps((PlanPhase("Writer", "w"), PlanPhase("Endpoint", "e")))
    files = {
        RFD_PATH: ACCEPTED,
        f"{STATE}/plan.json": plan,
        f"{STATE}/phases/1.md": "done\n",
        ".github/rfd.toml": CONFIG + FINISH,
    }
    return make_world(tmp, files, {})


@pytest.mark.vcr
def test_the_last_phase_pr_marks_the_rfd_implemented_and_closes_the_issue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    scripted_model(monkeypatch, *ENDPOINT)
    origin, checkout = last_phase_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    branch = "rfd/045-phase-2"
    assert "- **Status**: Implemented" in git(origin, "show", f"{branch}:{RFD_PATH}")
    recorded = git(origin, "show", f"{branch}:{STATE}/phases/2.md")
    assert recorded == "The endpoint streams the export.\n"
    log = git(origin, "log", "--format=%s", f"main..{branch}").splitlines()
    assert log == ["RFD 045: implemented by rfd-bot", "RFD 045: phase 2 by rfd-bot"]
    assert "- **Status**: Accepted" in git(origin, "show", f"main:{RFD_PATH}")  # until merged
    (pr,) = [
        json.loads(r.body) for r in vcr.requests if r.path.endswith("/pulls") and r.method == "POST"
    ]
    assert "It also marks RFD 045 Implemented" in pr["body"] and "closes #12" in pr["body"]
    (*_, shown) = [b for b in bodies_sent(vcr) if b.startswith("<!-- rfd-bot:implement:045-2")]
    assert lines(shown)[2] == (
        "**Next step:** review and merge [#3](https://github.com/Codertocat/Hello-World/pull/3): "
        "it records phase 2 and marks RFD 045 Implemented, and the merge closes this issue "
        "(no `/rfd done` needed)."
    )


MERGE_3 = (
    "**Next step:** review and merge [#3](https://github.com/Codertocat/Hello-World/pull/3): "
    "it records phase 2 and marks RFD 045 Implemented, and the merge closes this issue "
    "(no `/rfd done` needed)."
)


@pytest.mark.vcr
def test_status_while_the_last_phase_pr_is_open_says_to_merge_it_not_done(
    tmp_path: Path, vcr: Any
) -> None:
    """Phase 2's pull request #3 is open and changes the RFD to Implemented."""
    _, checkout = last_phase_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment("/rfd status")) == 0
    (reply,) = bodies_sent(vcr)
    assert "1 of 2 phases done." in lines(reply)
    phase_2 = (
        "- Phase 2: Endpoint — in review · [#3](https://github.com/Codertocat/Hello-World/pull/3)"
    )
    assert phase_2 in lines(reply)
    assert lines(reply)[-1] == MERGE_3
    assert "/rfd implement" not in reply


@pytest.mark.vcr
def test_done_while_the_last_phase_pr_is_open_links_it_and_opens_nothing(
    tmp_path: Path, vcr: Any
) -> None:
    origin, checkout = last_phase_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment("/rfd done")) == 0
    assert "rfd/045-implemented" not in git(origin, "branch", "--list", "-a")
    (reply,) = bodies_sent(vcr)
    assert lines(reply) == [f"Not yet: RFD 045 still has phases to do: 2. Endpoint. {MERGE_3}"]
