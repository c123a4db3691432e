from __future__ import annotations

from pathlib import Path

import pytest

from bot.agent.authoring.refine import StopReason
from bot.agent.steps import author, implement_rfd, refine_rfd, session_for
from bot.agent.toolbox.permission import Mode
from bot.lifecycle.workspace import Workspace
from bot.model.plan import PlanPhase
from tests.agent_support import RFD_PATH, make_repo
from tests.fakes import ScriptedLLM, item_done, reply


def open_ws(root: Path, llm: ScriptedLLM, **flags: bool) -> Workspace:
    repo = make_repo(root)
    return Workspace.open(
        root, config=repo.config, llm=llm, vcs=False, clock=lambda: 1_700_000_000.0, **flags
    )


@pytest.mark.parametrize(
    ("interactive", "assume_yes", "mode"),
    [(True, False, Mode.ASK), (True, True, Mode.YES), (False, False, Mode.CONFINED)],
)
def test_the_workspace_decides_the_permission_mode(
    tmp_path: Path, interactive: bool, assume_yes: bool, mode: Mode
) -> None:
    ws = open_ws(tmp_path, ScriptedLLM([]), interactive=interactive, assume_yes=assume_yes)
    session = session_for(ws, "d1", model="haiku")
    assert (session.mode, session.rfd_path, session.rfd_title) == (mode, RFD_PATH, "Tracing")
    assert (session.event_id, session.model) == ("D1", "haiku")


def test_refine_applies_the_active_reviews(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("CONVERGED")])
    ws = open_ws(tmp_path, llm)
    ws.store.save_review("D1", "# Review\n\nSummary is vague.\n", now=1_700_000_000)
    result = refine_rfd(ws, "D1")
    assert result.stop is StopReason.CONVERGED
    assert result.reviews == ("docs/rfd/.state/D1/reviews/1700000000.md",)
    assert "Summary is vague." in llm.requests[0].system


def test_implement_runs_the_next_phase(tmp_path: Path) -> None:
    plan = "- [ ] 1. Only item\n"
    llm = ScriptedLLM([reply("R."), reply(plan), item_done("done"), reply("Summary of two.")])
    ws = open_ws(tmp_path, llm)
    ws.store.write_plan("D1", [PlanPhase("One", "first"), PlanPhase("Two", "second")])
    ws.store.write_phase_summary("D1", 1, "Did one.\n")
    result = implement_rfd(ws, "D1")
    assert (result.phase, result.title, result.summary) == (2, "Two", "Summary of two.\n")
    assert "Did one." in llm.opening(0)


def test_author_creates_the_draft_then_explores(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("What exists: nothing yet.")])
    ws = open_ws(tmp_path, llm)
    result = author(ws, "Better logging", "Logs are a mess.")
    created = [f for f in ws.files() if f.slug == "better-logging"]
    assert len(created) == 1 and str(created[0].rfd_id) == "D2"
    assert ws.store.read_explore(created[0].rfd_id) == "What exists: nothing yet.\n"
    assert result.saved == "explore.md"
    assert llm.opening(0).endswith("Logs are a mess.")
