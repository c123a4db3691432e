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

from bot.config import discovery
from bot.config.discovery import RfdFile
from bot.config.load import Config, Resolved, load
from bot.core.bus import EventBus
from bot.core.vcs import GitVcs, Vcs
from bot.forge.base import Forge
from bot.forge.local import LocalForge
from bot.llm.base import LLM
from bot.model.document import Document
from bot.state import StateStore, atomic_write

if TYPE_CHECKING:
    from bot.events import TrackingDue
    from bot.llm.prompts import Prompts
    from bot.llm.select import Choice, Providers
    from bot.plugins import Plugin
    from bot.plugins.api import ModelRoute

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
    providers: Providers | None = None
    """Each step's provider, built on first use (None: ``llm`` serves every step)."""
    prompt_root: Path | None = None
    """The checkout whose ``.rfd/prompts/`` overrides the templates (None: ``root``).  The
    bot sets its default branch's: a PR branch never supplies prompts."""
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
        prompt_root: Path | None = None,
    ) -> Workspace:
        """The workspace at ``root``.

        Without an explicit ``config`` the configuration is resolved from every layer
        (user config included); given a ``resolved`` one (the bot's), it is used as is.
        Either way the enabled plugins are registered on the bus (``environ`` is what they
        see, the process environment by default).  Without an explicit ``llm`` each step
        gets the provider ``environ`` allows it (:meth:`provider`).
        """
        root = root.resolve()
        if config is None:
            resolved = resolved or load(root, user=True)
            config = resolved.config
        store = StateStore(root, config)
        reason, providers = "", None
        if llm is None:
            providers = make_providers(config, os.environ if environ is None else environ)
            llm, reason = providers.default()
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
            providers=providers,
            prompt_root=prompt_root,
        )
        ws.bus.subscribe("tracking.due", _forge_listener(ws), owner="forge")
        if resolved is not None and (config.plugins.enabled or config.plugins.options):
            from bot.plugins import load_plugins

            ws.plugins = load_plugins(
                ws.bus, resolved, root=root, store=store, llm=llm, environ=environ,
                route=_plugin_route(providers),
                prompt_root=prompt_root,
            )  # fmt: skip
        return ws

    def provider(self, step: str, model: str | None = None) -> Choice:
        """The provider of ``step`` (``model``: its ``--model``) and why it was chosen."""
        from bot.llm.select import Choice

        if self.providers is None:
            return Choice(self.llm, self.llm_reason)
        return self.providers.for_step(step, model)

    def prompts(self) -> Prompts:
        """The step templates, with the overrides of :attr:`prompt_root` (else ``root``)."""
        from bot.llm.prompts import Prompts

        return Prompts(self.prompt_root or self.root)

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


def _forge_listener(ws: Workspace) -> Callable[[TrackingDue], TrackingDue]:
    """The forge listens to ``tracking.due`` (interceptable: its errors are the step's)."""

    def answer(event: TrackingDue) -> TrackingDue:
        from bot.lifecycle.tracking_issue import (
            answer,  # imported when first needed, not on every start
        )

        return answer(ws, event)

    return answer


def _plugin_route(providers: Providers | None) -> ModelRoute | None:
    """How a plugin's model reaches its provider: as a step's would (None: one fixed llm)."""
    if providers is None:
        return None
    from bot.llm.select import Asker

    def route(model: str, provider: str | None, plugin: str) -> LLM:
        asker = Asker(f"plugin {plugin}", f"[plugins.{plugin}]", flag="")
        return providers.for_model(model, provider, asker).llm

    return route


def make_providers(config: Config, environ: Mapping[str, str]) -> Providers:
    """The providers a workspace (or a bot run checking for a model) routes its steps to."""
    from bot.llm.select import Providers

    return Providers(config, environ)
