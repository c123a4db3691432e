"""Opening a workspace: where each of its parts comes from, built only when first used.

The configuration is resolved, the state directory and the forge chosen, the providers read
from the environment, the forge registered as the listener of ``tracking.due`` and the enabled
plugins loaded.  :class:`bot.lifecycle.workspace.Workspace` only carries the result (its
``open`` hands its arguments here), so a step that takes a workspace depends on what it is
handed, not on how it was built.

The forge and the model are :func:`deferred`: built the first time an attribute of theirs is
read.  A read-only command such as ``rfd status`` opens a workspace but never calls them, so
their modules are never imported.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, TypeVar, cast

from bot.config.load import Config, Resolved, load
from bot.core.bus import EventBus
from bot.core.vcs import GitVcs, Vcs
from bot.state import StateStore

if TYPE_CHECKING:
    from bot.events import TrackingDue
    from bot.forge.base import Forge
    from bot.lifecycle.tracking_issue import Site
    from bot.llm.base import LLM
    from bot.llm.select import Choice, Providers
    from bot.plugins import Plugin
    from bot.plugins.api import ModelRoute

    class Opened(Site, Protocol):
        """What the opening needs of the workspace it builds (and the plugins it fills in)."""

        plugins: tuple[Plugin, ...]


FORGE_DIR = ".forge"
W = TypeVar("W", bound="Opened")


class Options(TypedDict, total=False):
    """The keywords of :func:`open_workspace` a caller of ``Workspace.open`` may give."""

    config: Config | None
    resolved: Resolved | None
    forge: Forge | None
    llm: LLM | None
    bus: EventBus | None
    vcs: Vcs | bool | None
    clock: Callable[[], float]
    interactive: bool
    assume_yes: bool
    environ: Mapping[str, str] | None
    prompt_root: Path | None


def open_workspace(
    build: Callable[..., W],
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
    providers_from: Callable[[Config, Mapping[str, str]], Providers] | None = None,
) -> W:
    """The workspace at ``root``, built by ``build`` (the workspace class) from its parts.

    Without an explicit ``config`` the configuration is resolved from every layer
    (user config included); given a ``resolved`` one (the bot's), it is used as is.
    Either way the enabled plugins are registered on the bus (``environ`` is what they
    see, the process environment by default).  Without an explicit ``llm`` each step
    gets the provider ``environ`` allows it (``providers_from``: :func:`make_providers`).
    """
    root = root.resolve()
    if config is None:
        resolved = resolved or load(root, user=True)
        config = resolved.config
    store = StateStore(root, config)
    providers: Providers | None = None
    if llm is None:  # built when a step first asks: read-only commands call no model
        make = providers_from or make_providers
        seen = os.environ if environ is None else environ
        providers = routes = deferred(lambda: make(config, seen))
        llm = deferred(lambda: routes.default().llm)
    ws = build(
        root=root,
        config=config,
        store=store,
        bus=bus or EventBus(),
        forge=forge or deferred(lambda: _local_forge(store)),
        llm=llm,
        vcs=GitVcs.discover(root) if vcs is True else (vcs or None),
        clock=clock,
        interactive=interactive,
        assume_yes=assume_yes,
        providers=providers or Fixed(llm),
        prompt_root=prompt_root,
    )
    ws.bus.subscribe("tracking.due", _forge_listener(ws), owner="forge")
    if resolved is not None and (config.plugins.enabled or config.plugins.options):
        from bot.plugins import load_plugins

        ws.plugins = load_plugins(
            ws.bus,
            resolved,
            root=root,
            store=store,
            llm=llm,
            environ=environ,
            route=_plugin_route(providers),
            prompt_root=prompt_root,
        )
    return ws


def _local_forge(store: StateStore) -> Forge:
    """The forge of a repository without GitHub (a directory of the shared state)."""
    from bot.forge.local import LocalForge

    return LocalForge(store.shared(FORGE_DIR))


class Fixed:
    """One provider for every step: the ``llm`` a caller handed the workspace."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm

    def for_step(self, step: str, model: str | None = None) -> Choice:
        from bot.llm.select import Choice

        return Choice(self.llm, "")


def _forge_listener(ws: Site) -> Callable[[TrackingDue], TrackingDue]:
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


T = TypeVar("T")


class Deferred:
    """Stands for what ``build`` returns, built (once) when an attribute is first read."""

    def __init__(self, build: Callable[[], object]) -> None:
        self._build: Callable[[], object] | None = build
        self._target: object = None

    def __getattr__(self, name: str) -> Any:
        if name in ("_build", "_target"):  # read before __init__ ran (a copy): not ours
            raise AttributeError(name)
        return getattr(self._built(), name)

    def _built(self) -> object:
        if self._build is not None:
            self._target, self._build = self._build(), None
        return self._target

    def __repr__(self) -> str:
        return "<deferred, not built yet>" if self._build is not None else repr(self._target)


def deferred(build: Callable[[], T]) -> T:
    """What ``build`` returns, as an object of its type that builds it on first use."""
    return cast(T, Deferred(build))
