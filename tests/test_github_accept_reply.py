"""The reply to an accept (label or ``/rfd accept``): one next step, whatever was accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.forge.base import Issue
from bot.github.accept import next_step
from bot.lifecycle.accept import AcceptOutcome
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
