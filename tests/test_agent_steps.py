from __future__ import annotations

from pathlib import Path

import pytest

from bot.agent.implement import next_phase
from bot.agent.permission import Mode
from bot.agent.refine import StopReason
from bot.agent.steps import implement_rfd, refine_rfd, session_for
from bot.plan import PlanPhase
from tests.agent_support import RFD_PATH, StandInWorkspace, make_repo
from tests.fakes import ScriptedLLM, recording_bus, reply


@pytest.fixture
def ws(tmp_path: Path) -> StandInWorkspace:
    bus, _ = recording_bus()
    return StandInWorkspace(make_repo(tmp_path), ScriptedLLM([]), bus)


@pytest.mark.parametrize(
    ("interactive", "assume_yes", "mode"),
    [(True, False, Mode.ASK), (True, True, Mode.YES), (False, False, Mode.CONFINED)],
)
def test_the_workspace_decides_the_permission_mode(
    ws: StandInWorkspace, interactive: bool, assume_yes: bool, mode: Mode
) -> None:
    ws.interactive, ws.assume_yes = interactive, assume_yes
    session = session_for(ws, "D1", model="haiku")
    assert (session.mode, session.rfd_path, session.rfd_title) == (mode, RFD_PATH, "Tracing")
    assert session.model == "haiku"


def test_refine_applies_the_active_reviews(ws: StandInWorkspace) -> None:
    ws.repo.store.save_review("D1", "# Review\n\nSummary is vague.\n", now=1700000000)
    ws.llm = ScriptedLLM([reply("CONVERGED")])
    result = refine_rfd(ws, "D1", prompter=None)
    assert result.stop is StopReason.CONVERGED
    assert result.reviews == ("docs/rfd/.state/D1/reviews/1700000000.md",)
    assert "Summary is vague." in ws.llm.opening(0)


def test_implement_runs_the_next_phase(ws: StandInWorkspace) -> None:
    ws.repo.store.write_plan("D1", [PlanPhase("One", "first"), PlanPhase("Two", "second")])
    ws.repo.store.write_phase_summary("D1", 1, "Did one.\n")
    plan = "- [ ] 1. Only item\n"
    ws.llm = ScriptedLLM([reply("R."), reply(plan), reply("done"), reply("Summary of two.")])
    result = implement_rfd(ws, "D1")
    assert (result.phase, result.title, result.summary) == (2, "Two", "Summary of two.\n")
    assert next_phase(2, {1}) == 2
