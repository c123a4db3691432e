"""Failure reports stay true: what a run did is said, and a re-run never unsays it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.errors import ForgeError
from bot.github.failure import FAILED, RETRY, retry_text, steps_reported
from bot.github.router import _failed
from tests.github_world import CONFIG
from tests.test_github_plugins import bot_context

COMMITTED = "RFD 045 accepted: committed to `rfd-045-streaming-exports` as 0a1b2c3d4e5f"


def test_the_steps_read_back_from_the_report_as_they_were_written() -> None:
    steps = [COMMITTED, "review of RFD 045 posted", "pushed to `@octo/evil\nbranch`"]
    report = FAILED.format(error="```\nboom\n```", retry=retry_text(steps))
    assert steps_reported(report)[:2] == steps[:2]
    assert "@octo" not in report and retry_text(steps_reported(report)) == retry_text(steps)


def test_nothing_done_says_so() -> None:
    assert retry_text([]) == RETRY
    assert steps_reported(FAILED.format(error="x", retry=RETRY)) == []


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_a_rerun_failing_again_keeps_what_the_first_run_did(tmp_path: Path) -> None:
    """The re-run did nothing new before it failed: its report still says what was committed."""
    root = tmp_path / "repo"
    (root / ".github").mkdir(parents=True)
    (root / ".github/rfd.toml").write_text(CONFIG, encoding="utf-8")
    ctx = bot_context(tmp_path, root)
    error = ForgeError(
        "GitHub refused to list the comments of #2: 503 Service Unavailable",
        hint="re-run the job; GitHub may be having trouble",
    )
    assert _failed(ctx, error) == 1
