"""Single-call AI steps (review, plan extraction) with the scripted model: what the bus,
the ledger and the budget see of each call."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ai.plan import extract_plan
from bot.ai.review import ai_review
from bot.core.errors import ConfigError, ProviderError
from bot.events import Event
from bot.lifecycle.workspace import Workspace
from bot.llm.usage import LEDGER
from tests.conftest import rfd_text, write_rfd
from tests.fakes import ScriptedLLM, recording_bus, reply

SONNET = "claude-sonnet-4-5"
CONFIG = f'[models]\nsonnet = "{SONNET}"\n'
REVIEW = {"summary": "Sound.", "findings": [], "questions": []}
PLAN = {"phases": [{"title": "Schema", "description": "Add the table.", "label": "1"}]}


def open_ws(repo: Path, llm: ScriptedLLM, config: str = CONFIG) -> tuple[Workspace, list[Event]]:
    (repo / ".github").mkdir(exist_ok=True)
    (repo / ".github/rfd.toml").write_text(config)
    write_rfd(repo, "001-a.md", rfd_text("001", "A", plan="No phases here.\n"))
    bus, seen = recording_bus()
    return Workspace.open(repo, llm=llm, bus=bus, clock=lambda: 1000.0), seen


def turns(seen: list[Event]) -> list[str]:
    return [e.name for e in seen if e.name.startswith("turn.")]


def test_a_review_is_seen_on_the_bus_as_one_turn(git_repo: Path) -> None:
    llm = ScriptedLLM([reply("", ("submit_review", REVIEW), tokens=(1200, 80), model=SONNET)])
    ws, seen = open_ws(git_repo, llm)
    ai_review(ws, ws.document("1"), impl=False, model=None)
    assert turns(seen) == ["turn.started", "turn.cycle_complete", "turn.complete"]
    started = next(e for e in seen if e.name == "turn.started")
    done = next(e for e in seen if e.name == "turn.complete")
    assert (started.rfd_id, started.step, started.model) == ("001", "review", "claude-sonnet-4-5")  # type: ignore[attr-defined]
    assert (done.input_tokens, done.output_tokens) == (1200, 80)  # type: ignore[attr-defined]
    assert done.cost_usd > 0  # type: ignore[attr-defined]


def test_a_failed_model_plan_call_is_reported_aborted(git_repo: Path) -> None:
    llm = ScriptedLLM([ProviderError("Anthropic did not answer within 120 s")])
    ws, seen = open_ws(git_repo, llm)
    with pytest.raises(ProviderError):
        extract_plan(ws, ws.document("1"))
    assert turns(seen) == ["turn.started", "turn.aborted"]
    aborted = next(e for e in seen if e.name == "turn.aborted")
    assert "did not answer" in aborted.reason and aborted.step == "accept"  # type: ignore[attr-defined]


def test_ctrl_c_during_a_review_is_reported_aborted(git_repo: Path) -> None:
    ws, seen = open_ws(git_repo, ScriptedLLM([KeyboardInterrupt()]))
    with pytest.raises(KeyboardInterrupt):
        ai_review(ws, ws.document("1"), impl=False, model=None)
    assert turns(seen) == ["turn.started", "turn.aborted"]


def test_model_plan_extraction_emits_its_turn(git_repo: Path) -> None:
    ws, seen = open_ws(git_repo, ScriptedLLM([reply("", ("submit_plan", PLAN))]))
    assert [p.title for p in extract_plan(ws, ws.document("1"))] == ["Schema"]
    assert turns(seen) == ["turn.started", "turn.cycle_complete", "turn.complete"]
    assert ws.store.read_text("001", LEDGER)


def test_a_dollar_budget_on_an_unpriced_review_model_sends_nothing(git_repo: Path) -> None:
    config = '[steps.review]\nmodel = "qwen3-coder-local"\nbudget_usd = 0.25\n'
    llm = ScriptedLLM([reply("", ("submit_review", REVIEW))])
    ws, seen = open_ws(git_repo, llm, config)
    with pytest.raises(ConfigError, match="'qwen3-coder-local' has no price") as err:
        ai_review(ws, ws.document("1"), impl=False, model=None)
    assert "steps.review.budget_tokens" in (err.value.hint or "")
    assert llm.requests == [] and turns(seen) == []
    assert ws.store.read_text("001", LEDGER) is None


def test_a_cut_off_review_is_billed_in_the_ledger(git_repo: Path) -> None:
    from bot.llm.base import PaidError, Usage

    cut = PaidError(
        "not a JSON object (stop reason max_tokens)",
        model=SONNET,
        usage=Usage(input_tokens=2_000, output_tokens=8_192),
    )
    ws, _ = open_ws(git_repo, ScriptedLLM([cut]))
    with pytest.raises(ProviderError, match="max_tokens"):
        ai_review(ws, ws.document("1"), impl=False, model=None)
    from bot.llm.usage import parse_line

    lines = (ws.store.read_text("001", LEDGER) or "").splitlines()
    assert [(e.step, e.usage.output_tokens) for e in map(parse_line, lines) if e] == [
        ("review", 8_192)
    ]


def test_a_review_cut_off_at_max_tokens_says_so(git_repo: Path) -> None:
    import dataclasses

    cut = dataclasses.replace(
        reply("", ("submit_review", REVIEW), model=SONNET), stop_reason="max_tokens"
    )
    ws, seen = open_ws(git_repo, ScriptedLLM([cut]))
    ai_review(ws, ws.document("1"), impl=False, model=None)
    warned = [getattr(e, "message", "") for e in seen if e.name == "notice"]
    assert any("review answer was cut off at its max_tokens limit" in w for w in warned)
