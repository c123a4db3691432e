"""workflow_dispatch / schedule → drift repaired and reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.plan import PlanPhase, dumps
from tests.github_world import RFD_PATH, RFD_TEXT, all_played, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played")
_ = all_played


@pytest.mark.vcr
def test_missing_tracking_issue_is_created_and_stuck_labels_reported(tmp_path: Path) -> None:
    plan = dumps((PlanPhase("Writer", "A streaming CSV writer."),
                  PlanPhase("Endpoint", "The HTTP endpoint that uses it.")))  # fmt: skip
    files = {RFD_PATH: RFD_TEXT.replace("Discussion", "Accepted"),
             "docs/rfd/.state/045/plan.json": plan}  # fmt: skip
    _, checkout = make_world(tmp_path, files, {})
    assert run_bot(tmp_path, checkout, "workflow_dispatch", payload("workflow_dispatch")) == 0
    summary = (tmp_path / "summary.md").read_text()
    assert "RFD 045: tracking issue #12 created" in summary
    assert "#2 still has `rfd:review`" in summary
