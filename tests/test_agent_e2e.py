"""The rule-of-five refinement end to end: real prompts, the real Anthropic provider
(replayed from a cassette, dummy key), real state and document edits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.agent.permission import Mode
from bot.agent.refine import Focus, StopReason, refine
from bot.agent.session import Session
from bot.agent.steps import active_reviews
from bot.config import Config
from bot.events import EventBus, ToolCallComplete
from bot.llm.anthropic import AnthropicLLM
from bot.usage import parse_line
from tests.agent_support import RFD, RFD_PATH, make_repo

DUMMY_KEY = "sk-ant-api03-test-dummy-key"
REVIEW = "# Review of RFD D1\n\n- major (Summary): the Summary is vague: say what is built.\n"
NEW_SUMMARY = (
    "Structured trace events, emitted by a macro that records the caller's file and line, "
    "replace ad-hoc log lines."
)


@pytest.mark.vcr
def test_refine_end_to_end_through_the_anthropic_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
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
    assert (result.usage.cache_write_tokens, result.usage.cache_read_tokens) == (2870, 1480)
    ledger = (repo.store.read_text("D1", "usage.jsonl") or "").splitlines()
    entries = [e for e in map(parse_line, ledger) if e]
    assert [e.model for e in entries] == ["claude-opus-5-5"] * 3
    assert all(e.cost_usd and e.cost_usd > 0 for e in entries)
