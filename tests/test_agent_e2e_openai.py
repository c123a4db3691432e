"""Every AI step through the CLI on the OpenAI-compatible provider, Gemini's endpoint.

Replayed from ``cassettes/test_agent_e2e_openai/`` (built by
``tests/data/cassettes/scenarios_openai.py``; requests recorded, usage estimated): refine
and accept answer a forced function call, the agent steps stream ``chat.completion.chunk``
lines whose tool calls come whole, without an ``index``, and end on ``finish_reason:
"stop"`` as Gemini sends them.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bot.lifecycle.workspace import Workspace
from bot.llm.usage import LEDGER, parse_line
from tests.agent_support import assert_authored
from tests.conftest import rfd_text, write_rfd

GEMINI = """[provider]
name = "openai"
base_url = "https://generativelanguage.googleapis.com/v1beta/openai/"
api_key_env = "GEMINI_API_KEY"

[models]
opus = "gemini-2.5-pro"
sonnet = "gemini-2.5-flash"
"""
DUMMY_KEY = "AIzaSy-test-dummy-key"
PHASE_HEADING = re.compile(r"^### Phase (\d): (.+)$", re.MULTILINE)
REVIEW = "# Review of RFD 001\n\n- major (Summary): the Summary is vague: say what is built.\n"


@pytest.fixture
def gemini(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(GEMINI)
    monkeypatch.setenv("GEMINI_API_KEY", DUMMY_KEY)
    return git_repo


def rfd(repo: Path, *argv: str) -> int:
    from bot.cli.main import main

    return main(["-C", str(repo), *argv])


def ledger(repo: Path) -> list[Any]:
    lines = (repo / "docs/rfd/.state/001" / LEDGER).read_text().splitlines()
    return [parse_line(line) for line in lines]


def sent(vcr: Any) -> list[dict[str, Any]]:
    for r in vcr.requests:
        assert r.headers["Authorization"] == "REDACTED"  # the key never reaches a cassette
    return [json.loads(r.body) for r in vcr.requests]


@pytest.mark.vcr
def test_refine_through_chat_completions(
    gemini: Path, capsys: pytest.CaptureFixture[str], vcr: Any
) -> None:
    path = write_rfd(gemini, "001-retry-queue.md", rfd_text("001", "Retry queue"))
    Workspace.open(gemini).store.save_review("001", REVIEW, now=1_763_890_000)

    assert rfd(gemini, "refine", "1", "--yes") == 0

    out = capsys.readouterr().out
    assert "pass 1 (reviews): Summary" in out and "pass 2 (completeness): no change" in out
    assert "rewrote **Summary** to say what is built" in out
    assert "stopped: converged" in out
    summary = path.read_text().split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary.startswith("Failed webhook deliveries are kept in a table")
    assert "Written design text." in path.read_text()  # other sections untouched
    entries = ledger(gemini)
    assert [e.model for e in entries] == ["gemini-2.5-pro"] * 2
    assert all(e.usage.input_tokens > 0 and e.cost_usd > 0 for e in entries)
    bodies = sent(vcr)
    assert all(b["tool_choice"]["function"]["name"] == "submit_revision" for b in bodies)
    assert bodies[0]["messages"][0]["role"] == "system" and "max_tokens" in bodies[0]


@pytest.mark.vcr
def test_accept_model_plan_after_a_rate_limit(
    gemini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], vcr: Any
) -> None:
    """The example RFD with its plan as prose, no phase headings: accept asks the model;
    Gemini first answers 429 (its error body a JSON list, no retry-after): backed off."""
    monkeypatch.setattr("bot.llm.openai.BASE_BACKOFF_SECONDS", 0.0)
    example = resources.files("bot.examples").joinpath("001-webhook-retry-queue.md")
    prose = PHASE_HEADING.sub(r"Step \1, \2:", example.read_text(encoding="utf-8"))
    path = write_rfd(gemini, "001-webhook-retry-queue.md", prose)

    assert rfd(gemini, "accept", "1") == 0

    out = capsys.readouterr().out
    assert "  2. Worker with backoff" in out and "  3. Dead letters and replay" in out
    assert "- **Status**: Accepted" in path.read_text()
    issue = (gemini / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert "- [ ] 1. Delivery table and enqueue" in issue
    (entry,) = ledger(gemini)  # the 429 is retried, not charged
    assert entry.step == "accept" and entry.model == "gemini-2.5-pro"
    first, second = sent(vcr)
    assert first == second and first["tool_choice"]["function"]["name"] == "submit_plan"


@pytest.mark.vcr
def test_implement_a_phase_streamed_over_chat_completions(
    gemini: Path, capsys: pytest.CaptureFixture[str], vcr: Any
) -> None:
    """research (a read_file call) → plan → one item (a write_file call) → summary."""
    write_rfd(gemini, "001-a.md", rfd_text("001", "A"))
    assert rfd(gemini, "accept", "1") == 0  # deterministic plan: no model

    assert rfd(gemini, "implement", "1", "--yes") == 0

    out = capsys.readouterr().out
    assert "Working on step 1 of 1: Create the deliveries table in db/schema.sql" in out
    assert "Phase 1 added the `deliveries` table" in out  # streamed text reached the terminal
    assert "phase 1 (Schema) done — 1/2 phases" in out
    assert (gemini / "db/schema.sql").read_text().startswith("CREATE TABLE deliveries (")
    state = gemini / "docs/rfd/.state/001"
    items = (state / "implement/1/items.md").read_text()
    assert items.endswith("\n- [x] 1. Create the deliveries table in db/schema.sql\n")
    assert (state / "phases/1.md").read_text().startswith("Phase 1 added the `deliveries`")
    issue = (gemini / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert "- [x] 1. Schema" in issue and "- [ ] 2. Worker" in issue
    entries = ledger(gemini)
    assert len(entries) == 6 and {e.model for e in entries} == {"gemini-2.5-pro"}
    bodies = sent(vcr)
    assert all(b["stream"] and b["stream_options"] == {"include_usage": True} for b in bodies)
    # the tool result goes back as a `tool` message answering the call's id
    research_turn2, item_turn2 = bodies[1]["messages"], bodies[4]["messages"]
    assert research_turn2[-2]["tool_calls"][0]["id"] == "function-call-7021551634098327519"
    assert research_turn2[-1]["role"] == "tool" and "# test repo" in research_turn2[-1]["content"]
    assert item_turn2[-1]["tool_call_id"] == "function-call-11853201944671580612"
    assert all(e.usage.input_tokens > 0 and e.usage.output_tokens > 0 for e in entries)


@pytest.mark.vcr
def test_explore_converge_draft_streamed_over_chat_completions(
    gemini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """converge's two rfd_decision calls arrive in one chunk, neither with an index."""
    path = write_rfd(gemini, "001-retry-queue.md", rfd_text("001", "Retry queue", "Draft"))

    for step in ("explore", "converge", "draft"):
        assert rfd(gemini, step, "1", "--yes") == 0

    assert_authored(gemini, path, capsys.readouterr().out)
    models = [e.model for e in ledger(gemini)]
    assert models == ["gemini-2.5-flash"] * 2 + ["gemini-2.5-pro"] * 4
