"""A repository with one RFD and its state, for the agent tests (pure setup, no fakes)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.agent.conversation.session import Session
from bot.agent.toolbox.base import ToolContext
from bot.agent.toolbox.permission import Mode
from bot.config.load import Config
from bot.events import Event
from bot.state import StateStore
from tests.fakes import ScriptedLLM, recording_bus

RFD_PATH = "docs/rfd/D1-tracing.md"
RFD = """# RFD D1: Tracing

- **Status**: Draft
- **Category**: Design
- **Authors**: Ada <ada@example.com>
- **Date**: 2026-11-22

## Summary

Old summary.

## Design

Old design.
"""


@dataclass
class Repo:
    root: Path
    config: Config
    store: StateStore

    @property
    def rfd(self) -> Path:
        return self.root / RFD_PATH

    def tool_context(self) -> ToolContext:
        return ToolContext.for_repo(
            self.root,
            self.config,
            store=self.store,
            rfd_id="D1",
            rfd_path=RFD_PATH,
            rfd_title="Tracing",
        )

    def session(
        self, llm: ScriptedLLM, *, mode: Mode = Mode.YES, **kwargs: Any
    ) -> tuple[Session, list[Event]]:
        bus, seen = recording_bus()
        session = Session(
            self.root,
            self.config,
            llm,
            bus,
            self.store,
            mode=mode,
            prompts=kwargs.pop("prompts", None),
            **kwargs,
        ).for_rfd("D1", RFD_PATH, "Tracing")
        return session, seen


def make_repo(root: Path, config: Config | None = None, *, rfd: str | None = RFD) -> Repo:
    cfg = config or Config()
    if rfd is not None:
        (root / RFD_PATH).parent.mkdir(parents=True, exist_ok=True)
        (root / RFD_PATH).write_text(rfd)
    return Repo(root, cfg, StateStore(root, cfg))


def assert_authored(repo: Path, path: Path, out: str) -> None:
    """What explore → converge → draft of the retry-queue scenario leave (either provider):
    the research, both decisions, the drafted Summary, and every other section untouched."""
    assert "Recorded decisions 1 and 2 in decisions.md." in out
    state = repo / "docs/rfd/.state/001"
    assert (state / "explore.md").read_text().startswith("# Research: Retry queue\n")
    decided = (state / "decisions.md").read_text()
    assert "polled by a worker, not broker messages" in decided
    assert "ten attempts at most" in decided
    summary = path.read_text().split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary.startswith("Deliveries become rows of a table that a worker polls")
    assert "Written motivation text." in path.read_text()  # other sections untouched
