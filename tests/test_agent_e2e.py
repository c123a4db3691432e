"""The rule-of-five refinement end to end: real prompts, the real Anthropic provider
(replayed from a cassette, dummy key), real state and document edits."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bot.agent.authoring.refine import Focus, StopReason, refine
from bot.agent.conversation.session import Session
from bot.agent.steps import active_reviews
from bot.agent.toolbox.permission import Mode
from bot.config.load import Config
from bot.events import EventBus, ToolCallComplete
from bot.llm.anthropic import AnthropicLLM
from bot.llm.usage import parse_line
from tests.agent_support import RFD, RFD_PATH, assert_authored, make_repo
from tests.conftest import rfd_text, write_rfd

DUMMY_KEY = "sk-ant-api03-test-dummy-key"
REVIEW = "# Review of RFD D1\n\n- major (Summary): the Summary is vague: say what is built.\n"
NEW_SUMMARY = (
    "Structured trace events, emitted by a macro that records the caller's file and line, "
    "replace ad-hoc log lines."
)


@pytest.mark.vcr
def test_refine_end_to_end_through_the_anthropic_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", DUMMY_KEY)
    config = Config()
    repo = make_repo(tmp_path, config)
    repo.store.save_review("D1", REVIEW, now=1_700_000_000)
    bus, tools = EventBus(), []
    bus.subscribe(ToolCallComplete, tools.append)
    llm = AnthropicLLM.from_config(config, os.environ)
    session = Session(
        repo.root, config, llm, bus, repo.store, mode=Mode.YES, clock=lambda: 1_700_000_100.0
    ).for_rfd("D1", RFD_PATH, "Tracing")

    result = refine(session, active_reviews(session))

    assert result.stop is StopReason.CONVERGED
    assert [(p.focus, p.changed_sections) for p in result.passes] == [
        (Focus.REVIEWS, ("Summary",)),
        (Focus.COMPLETENESS, ()),
    ]
    assert repo.rfd.read_text() == RFD.replace("Old summary.", NEW_SUMMARY)
    assert result.passes[0].reply.startswith("- Summary is vague → rewrote **Summary**")
    assert [(t.tool, t.is_error) for t in tools] == [("rfd_section", False)]
    ledger = (repo.store.read_text("D1", "usage.jsonl") or "").splitlines()
    entries = [e for e in map(parse_line, ledger) if e]
    assert [e.model for e in entries] == ["claude-opus-5-5"] * 2  # one call per pass
    assert all(e.cost_usd and e.cost_usd > 0 for e in entries)
    # each pass answers the shared schema (the three answer tools) on the shared system
    # prompt; pass 1 changed the RFD, so pass 2 reads the answer schema and instructions
    pass1, pass2 = (json.loads(vcr.requests[i].body) for i in (0, 1))
    assert pass1["output_config"] == pass2["output_config"] and "tools" not in pass1
    assert set(pass1["output_config"]["format"]["schema"]["properties"]) == {
        "submit_review",
        "submit_revision",
        "submit_plan",
    }
    assert pass1["system"][0] == pass2["system"][0] and pass1["system"] != pass2["system"]
    assert entries[1].usage.cache_read_tokens > 0


def rfd(repo: Path, *argv: str) -> int:
    from bot.cli.main import main

    return main(["-C", str(repo), *argv])


@pytest.mark.vcr
def test_implement_a_phase_streamed(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    vcr: Any,
) -> None:
    """research → plan → two items (write and edit tools, one write refused outside the
    repository) → summary, each reply streamed as Messages API SSE events."""
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert rfd(git_repo, "accept", "1") == 0  # deterministic plan: no model
    monkeypatch.setenv("ANTHROPIC_API_KEY", DUMMY_KEY)

    assert rfd(git_repo, "implement", "1", "--yes") == 0

    out = capsys.readouterr().out
    assert "Working on step 2 of 2: Point README.md at the schema" in out
    assert "Phase 1 added the `deliveries` table" in out  # streamed text reached the terminal
    assert "phase 1 (Schema) done — 1/2 phases" in out
    assert (git_repo / "db/schema.sql").read_text().startswith("CREATE TABLE deliveries (")
    assert not (git_repo.parent / "schema.sql").exists()  # confined to the repository
    assert "lives in `db/schema.sql`" in (git_repo / "README.md").read_text()
    state = git_repo / "docs/rfd/.state/001"
    assert (
        (state / "implement/1/items.md")
        .read_text()
        .endswith(
            "\n- [x] 1. Create the deliveries table in db/schema.sql\n"
            "- [x] 2. Point README.md at the schema\n"
        )
    )
    assert (state / "phases/1.md").read_text().startswith("Phase 1 added the `deliveries` table")
    issue = (git_repo / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert "- [x] 1. Schema" in issue and "- [ ] 2. Worker" in issue
    entries = [parse_line(line) for line in (state / "usage.jsonl").read_text().splitlines()]
    assert len(entries) == 9 and all(e and e.model == "claude-opus-5-5" for e in entries)
    assert sum(e.usage.cache_read_tokens for e in entries if e) > 0  # from the SSE usage
    # research and plan share tools, system prompt, RFD and phase: plan reads them cached
    research, plan = (json.loads(vcr.requests[i].body) for i in (0, 2))
    assert (plan["tools"], plan["system"]) == (research["tools"], research["system"])
    assert plan["messages"][0]["content"][:2] == research["messages"][0]["content"][:2]
    assert entries[2] and entries[2].usage.cache_read_tokens > 0


@pytest.mark.vcr
def test_explore_converge_draft_streamed(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The authoring steps with --yes: each writes only through its own tool; converge
    answers with two tool_use blocks in one streamed message."""
    path = write_rfd(git_repo, "001-retry-queue.md", rfd_text("001", "Retry queue", "Draft"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", DUMMY_KEY)
    assert rfd(git_repo, "draft", "1", "--yes") == 1
    assert "there are no decisions to draft from yet" in capsys.readouterr().err

    for step in ("explore", "converge", "draft"):
        assert rfd(git_repo, step, "1", "--yes") == 0

    assert_authored(git_repo, path, capsys.readouterr().out)
