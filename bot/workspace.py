"""The workspace: one repository, its configuration, and the edges every step needs.

Entry points build a Workspace once (``Workspace.open``) and pass it to lifecycle
operations.  It owns the writes of RFD files themselves (the state directory is
owned by :class:`bot.state.StateStore`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot import discovery
from bot.bus import EventBus
from bot.config import Config, Resolved, load
from bot.discovery import RfdFile
from bot.document import Document
from bot.forge.base import Forge
from bot.forge.local import LocalForge
from bot.llm.base import LLM
from bot.state import StateStore, atomic_write
from bot.vcs import GitVcs, Vcs

if TYPE_CHECKING:
    from bot.events import TrackingDue
    from bot.plugins import Plugin

FORGE_DIR = ".forge"


@dataclass
class Workspace:
    root: Path
    config: Config
    store: StateStore
    bus: EventBus
    forge: Forge
    llm: LLM
    vcs: Vcs | None = None
    clock: Callable[[], float] = time.time
    interactive: bool = False
    assume_yes: bool = False
    llm_reason: str = ""
    plugins: tuple[Plugin, ...] = ()
    _files: list[RfdFile] | None = field(default=None, repr=False)

    @classmethod
    def open(
        cls,
        root: Path,
        *,
        config: Config | None = None,
        resolved: Resolved | None = None,
        forge: Forge | None = None,
        llm: LLM | None = None,
        bus: EventBus | None = None,
        vcs: Vcs | bool | None = True,
        clock: Callable[[], float] = time.time,
        interactive: bool = False,
        assume_yes: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> Workspace:
        """The workspace at ``root``.

        Without an explicit ``config`` the configuration is resolved from every layer
        (user config included); given a ``resolved`` one (the bot's), it is used as is.
        Either way the enabled plugins are registered on the bus (``environ`` is what they
        see, the process environment by default).
        """
        root = root.resolve()
        if config is None:
            resolved = resolved or load(root, user=True)
            config = resolved.config
        store = StateStore(root, config)
        reason = ""
        if llm is None:
            llm, reason = _default_llm(config)
        ws = cls(
            root=root,
            config=config,
            store=store,
            bus=bus or EventBus(),
            forge=forge or LocalForge(store.shared(FORGE_DIR)),
            llm=llm,
            vcs=GitVcs.discover(root) if vcs is True else (vcs or None),
            clock=clock,
            interactive=interactive,
            assume_yes=assume_yes,
            llm_reason=reason,
        )
        ws.bus.subscribe("tracking.due", _forge_listener(ws), owner="forge")
        if resolved is not None and (config.plugins.enabled or config.plugins.options):
            from bot.plugins import load_plugins

            ws.plugins = load_plugins(
                ws.bus, resolved, root=root, store=store, llm=llm, environ=environ
            )
        return ws

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


def _forge_listener(ws: Workspace) -> Callable[[TrackingDue], TrackingDue]:
    """The forge listens to ``tracking.due`` (interceptable: its errors are the step's)."""

    def answer(event: TrackingDue) -> TrackingDue:
        from bot.phases import answer  # imported when first needed, not on every start

        return answer(ws, event)

    return answer


def _default_llm(config: Config) -> tuple[LLM, str]:
    from bot.llm.select import select

    return select(config, os.environ)
