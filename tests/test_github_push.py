"""push to the default branch → tracking issues ticked, updated, closed; human ticks kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.model.plan import PlanPhase, dumps
from tests.conftest import bodies_sent, lines
from tests.github_world import RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played")
PHASES = (
    PlanPhase("Writer", "A streaming CSV writer."),
    PlanPhase("Endpoint", "The HTTP endpoint that uses it."),
)
STATE = "docs/rfd/.state/045"
ACCEPTED = RFD_TEXT.replace(
    "- **Status**: Discussion", "- **Status**: Accepted\n- **Tracking Issue**: #12"
)


def pushed(*added: str) -> dict[str, object]:
    data = payload("push")
    data["commits"][0]["added"] = list(added)
    return data


def world(tmp_path: Path, text: str, done: tuple[int, ...]) -> Path:
    files = {RFD_PATH: text, f"{STATE}/plan.json": dumps(PHASES)}
    files |= {f"{STATE}/phases/{n}.md": f"Phase {n} shipped.\n" for n in done}
    return make_world(tmp_path, files, {})[1]


WEB = "https://github.com/Codertocat/Hello-World"
SUMMARY_1 = f"[summary]({WEB}/blob/main/{STATE}/phases/1.md)"
SUMMARY_2 = f"[summary]({WEB}/blob/main/{STATE}/phases/2.md)"
NOTE = "Note from the team: endpoint shipped early behind a flag."


@pytest.mark.vcr
def test_phase_summary_ticks_its_box_and_keeps_a_human_tick(tmp_path: Path, vcr: Any) -> None:
    checkout = world(tmp_path, ACCEPTED, (1,))
    assert run_bot(tmp_path, checkout, "push", pushed(f"{STATE}/phases/1.md")) == 0
    assert "RFD 045: tracking issue #12 in sync" in (tmp_path / "summary.md").read_text()
    (tracking,) = bodies_sent(vcr)  # the issue's body, edited
    shown = lines(tracking)
    assert "**Progress:** 2/2 phases ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓ 100%" in shown
    assert f"- [x] 1. Writer — {SUMMARY_1}" in shown  # the bot's tick, linking the summary
    assert "- [x] 2. Endpoint" in shown  # the human's tick, kept
    assert shown[-1] == NOTE  # the team's note below the checklist, kept


@pytest.mark.vcr
def test_redelivered_push_writes_nothing(tmp_path: Path, vcr: Any) -> None:
    checkout = world(tmp_path, ACCEPTED, (1,))
    assert run_bot(tmp_path, checkout, "push", pushed(f"{STATE}/phases/1.md")) == 0
    assert "RFD 045: tracking issue #12 in sync" in (tmp_path / "summary.md").read_text()
    assert bodies_sent(vcr) == []  # the issue already says it: no edit


@pytest.mark.vcr
def test_implemented_with_every_phase_closes_the_issue(tmp_path: Path, vcr: Any) -> None:
    done = ACCEPTED.replace("Status**: Accepted", "Status**: Implemented")
    checkout = world(tmp_path, done, (1, 2))
    assert run_bot(tmp_path, checkout, "push", pushed(f"{STATE}/phases/2.md", RFD_PATH)) == 0
    assert "tracking issue #12 closed" in (tmp_path / "summary.md").read_text()
    (tracking,) = bodies_sent(vcr)  # then the label follows the status and the issue closes
    shown = lines(tracking)
    assert "**Progress:** 2/2 phases ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓ 100%" in shown
    assert f"- [x] 1. Writer — {SUMMARY_1}" in shown
    assert f"- [x] 2. Endpoint — {SUMMARY_2}" in shown
    assert shown[-1] == NOTE


@pytest.mark.vcr
def test_push_touching_no_rfd_costs_nothing(tmp_path: Path, vcr: Any) -> None:
    checkout = world(tmp_path, ACCEPTED, ())
    assert run_bot(tmp_path, checkout, "push", pushed("src/app.py")) == 0
    said = (tmp_path / "summary.md").read_text()
    assert "the push touches no RFD, plan or phase summary" in said
    assert bodies_sent(vcr) == []


@pytest.mark.vcr
def test_push_to_another_branch_is_ignored(tmp_path: Path, vcr: Any) -> None:
    data = pushed(f"{STATE}/phases/1.md") | {"ref": "refs/heads/feature"}
    assert run_bot(tmp_path, world(tmp_path, ACCEPTED, (1,)), "push", data) == 0
    said = (tmp_path / "summary.md").read_text()
    assert "push to refs/heads/feature: not the default branch, nothing to do" in said
    assert bodies_sent(vcr) == []


WHY = "- **Abandoned**: the reports service streams them (2026-11-20)"
ABANDONED = ACCEPTED.replace("Status**: Accepted", f"Status**: Abandoned\n{WHY}")


@pytest.mark.vcr
def test_an_abandoned_rfd_closes_its_issue_as_not_planned_with_the_reason(
    tmp_path: Path, vcr: Any
) -> None:
    # the cassette: the label follows the status, a comment gives the reason, then the issue
    # closes with state_reason not_planned (grey), not as completed
    checkout = world(tmp_path, ABANDONED, (1,))
    assert run_bot(tmp_path, checkout, "push", pushed(RFD_PATH)) == 0
    assert "tracking issue #12 closed" in (tmp_path / "summary.md").read_text()
    (reason,) = bodies_sent(vcr)
    assert lines(reason) == [
        "RFD 045 was abandoned: the reports service streams them (2026-11-20)."
        " This issue closes as not planned."
    ]


@pytest.mark.vcr
def test_a_ticked_phase_keeps_its_pr_link_beside_its_summary(tmp_path: Path, vcr: Any) -> None:
    """`/rfd implement` linked phase 1's PR on the issue; the push recording the phase ticks it
    and keeps that link, with the summary's after it (no request to find the PR again)."""
    checkout = world(tmp_path, ACCEPTED, (1,))
    assert run_bot(tmp_path, checkout, "push", pushed(f"{STATE}/phases/1.md")) == 0
    (tracking,) = bodies_sent(vcr)
    shown = lines(tracking)
    assert "**Progress:** 1/2 phases ▓▓▓▓▓▓▓▓▓▓░░░░░░░░░░ 50%" in shown
    assert f"- [x] 1. Writer — [#3]({WEB}/pull/3) · {SUMMARY_1}" in shown
    assert "- [ ] 2. Endpoint" in shown
