"""``[implement] finish_in_last_phase``: the last phase's pull request also marks the RFD
Implemented, and merging it closes the tracking issue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git
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
