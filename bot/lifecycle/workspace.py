"""The workspace: one repository, its configuration, and the edges every step needs.

Entry points build a Workspace once (``Workspace.open``, which hands its arguments to
:mod:`bot.lifecycle.opening`, where each part comes from) and pass it to lifecycle
operations.  It carries those parts and owns the writes of RFD files themselves (the state
directory is owned by :class:`bot.state.StateStore`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bot.config import discovery
from bot.config.discovery import RfdFile
from bot.config.load import Config
from bot.core.bus import EventBus
from bot.core.vcs import Vcs
from bot.lifecycle.opening import make_providers, open_workspace
from bot.model.document import Document
from bot.state import StateStore, atomic_write

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bot.forge.base import Forge
    from bot.lifecycle.opening import Options
    from bot.llm.base import LLM
    from bot.llm.prompts import Prompts
    from bot.llm.select import Choice
    from bot.plugins import Plugin

__all__ = ["Route", "Workspace", "make_providers"]  # make_providers: the opening's, patched here


class Route(Protocol):
    """Which provider serves a step (:class:`bot.llm.select.Providers`, or one fixed llm)."""

    def for_step(self, step: str, model: str | None = None) -> Choice: ...


@dataclass
class Workspace:
    root: Path
    config: Config
    store: StateStore
    bus: EventBus
    forge: Forge
    llm: LLM
    providers: Route
    """Each step's provider (built on first use, or the one ``llm`` for every step)."""
    vcs: Vcs | None = None
    clock: Callable[[], float] = time.time
    interactive: bool = False
    assume_yes: bool = False
    """A terminal is there to ask / ``--yes``: how an agent session may act (no lifecycle
    operation reads these two)."""
    plugins: tuple[Plugin, ...] = ()
    """The plugins the opening registered on :attr:`bus` (for the entry point: steps only
    reach plugins through the bus)."""
    prompt_root: Path | None = None
    """The checkout whose ``.rfd/prompts/`` overrides the templates (None: ``root``).  The
    bot sets its default branch's: a PR branch never supplies prompts."""
    _files: list[RfdFile] | None = field(default=None, repr=False)

    @classmethod
    def open(cls, root: Path, **options: Unpack[Options]) -> Workspace:
        """The workspace at ``root``, its parts built where they come from
        (:func:`bot.lifecycle.opening.open_workspace`, whose keywords ``options`` are)."""
        return open_workspace(cls, root, providers_from=make_providers, **options)

    def provider(self, step: str, model: str | None = None) -> Choice:
        """The provider of ``step`` (``model``: its ``--model``) and why it was chosen."""
        return self.providers.for_step(step, model)

    def prompts(self) -> Prompts:
        """The step templates, with the overrides of :attr:`prompt_root` (else ``root``); a
        broken override is a warning on the bus (the built-in prompt is used)."""
        from bot.events import Notice
        from bot.llm.prompts import Prompts

        def warn(message: str) -> None:
            self.bus.emit(Notice(rfd_id="", message=message, level="warning"))

        return Prompts(self.prompt_root or self.root, warn=warn)

    def llm_for(self, step: str, model: str | None = None) -> LLM:
        return self.provider(step, model).llm

    # -- RFD files ----------------------------------------------------------------
    def files(self) -> list[RfdFile]:
        if self._files is None:
            self._files = discovery.scan(self.root, self.config)
        return self._files

    def refresh(self) -> None:
        self._files = None

    def find(self, query: str) -> RfdFile:
        return discovery.resolve(query, self.files())

    def document(self, query: str | RfdFile) -> Document:
        file = self.find(query) if isinstance(query, str) else query
        return discovery.read(self.root, file)

    def path(self, file: RfdFile) -> Path:
        return self.root / file.path

    def write_rfd(self, path: Path, text: str) -> None:
        """Write an RFD file atomically (the one place RFD files are written)."""
        atomic_write(path, text)

    def now(self) -> int:
        return int(self.clock())

    def rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
