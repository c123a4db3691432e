"""The reply to an accept (label or ``/rfd accept``): one next step, whatever was accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.forge.base import Issue
from bot.github.accept import next_step
from bot.lifecycle.accept import NO_PLAN, AcceptOutcome
from bot.model.plan import PlanPhase


def _accepted(rid: str, issue: int, title: str, label: str = "") -> AcceptOutcome:
    phases = (PlanPhase(title, "", label), PlanPhase("Later", ""))
    tracking = Issue(issue, f"RFD {rid}", "", "open", f"https://x/issues/{issue}")
    return AcceptOutcome(rid, phases, "headings", tracking, Path(rid), (), "")


@pytest.mark.parametrize(
    ("outcomes", "expected"),
    [
        ([_accepted("045", 12, "Writer")], "on tracking issue #12 to start phase 1: Writer."),
        (
            [_accepted("045", 12, "Writer", "0"), _accepted("046", 13, "<b>Reader</b>")],
            "on tracking issues #12 (RFD 045, phase 0: Writer) and #13 "
            "(RFD 046, phase 1: <\u200bb>Reader<\u200b/b>).",
        ),
    ],
)
def test_the_accept_reply_names_one_next_step(outcomes: list[AcceptOutcome], expected: str) -> None:
    """One line for one RFD or several; titles stay text (no HTML)."""
    line = next_step(outcomes, "trunk")
    assert line.startswith("**Next step:** merge this pull request into `trunk`, then comment ")
    assert line.endswith(expected)


def _accepted_without_a_plan(rid: str, issue: int) -> AcceptOutcome:
    tracking = Issue(issue, f"RFD {rid}", "", "open", f"https://x/issues/{issue}")
    return AcceptOutcome(rid, (), NO_PLAN, tracking, Path(rid), (), "")


def test_an_rfd_accepted_without_a_plan_has_no_phase_to_start() -> None:
    """Where ``[process] accepted_needs_plan = false`` (Oxide), an RFD accepted without an
    Implementation Plan leaves merging as the one next step; one accepted with a plan in
    the same PR still names its first phase."""
    alone = next_step([_accepted_without_a_plan("0006", 2)], "master")
    assert alone == (
        "**Next step:** merge this pull request into `master`; there is no phase to implement: "
        "once the work is done, comment `/rfd done` on tracking issue #2."
    )
    both = next_step([_accepted_without_a_plan("0006", 2), _accepted_without_a_plan("7", 3)], "m")
    assert both.endswith("comment `/rfd done` on tracking issues #2 (RFD 0006) and #3 (RFD 7).")
    mixed = next_step([_accepted_without_a_plan("0006", 2), _accepted("0008", 3, "Telemetry")], "m")
    assert mixed.endswith("on tracking issue #3 to start phase 1: Telemetry.")
