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
    path: str = RFD_PATH
    """The RFD's path in the repository (its id and title: ``rfd_id``, ``title``)."""
    rfd_id: str = "D1"
    title: str = "Tracing"

    @property
    def rfd(self) -> Path:
        return self.root / self.path

    def tool_context(self) -> ToolContext:
        return ToolContext.for_repo(
            self.root,
            self.config,
            store=self.store,
            rfd_id=self.rfd_id,
            rfd_path=self.path,
            rfd_title=self.title,
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
        ).for_rfd(self.rfd_id, self.path, self.title)
        return session, seen


def make_repo(
    root: Path,
    config: Config | None = None,
    *,
    rfd: str | None = RFD,
    path: str = RFD_PATH,
    rfd_id: str = "D1",
    title: str = "Tracing",
) -> Repo:
    """A repository holding ``rfd`` (written as it is, no newline translated) at ``path``."""
    cfg = config or Config()
    if rfd is not None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(rfd.encode())
    return Repo(root, cfg, StateStore(root, cfg), path, rfd_id, title)


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
