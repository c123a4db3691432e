"""What a plugin sees: its declaration, its context, and a bus scoped to what it declared.

A plugin declares up front (``rfd_plugin_info``) which events it listens to and which
tool calls it may intercept; ``rfd plugins`` shows these declarations, and the
:class:`ScopedBus` it registers through holds it to them.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.core.errors import Aborted, BudgetExceeded, ConfigError, PluginFailed, RfdError
from bot.events import Event, EventBus, all_event_types

if TYPE_CHECKING:
    from bot.config.load import Config
    from bot.llm.base import LLM

log = logging.getLogger(__name__)

ALL = "*"
"""In ``events``: every event, observed only.  In ``intercepts``: every tool."""

EMPTY_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}


ModelRoute = Callable[[str, "str | None", str], "LLM"]


@dataclass(frozen=True)
class PluginInfo:
    """A plugin's declaration, returned by its ``rfd_plugin_info`` hook."""

    name: str
    """The name users enable it by (its entry point name)."""
    description: str
    events: tuple[str, ...] = ()
    """Event names it subscribes to (``"*"``: observe every event); none means it gets none."""
    intercepts: tuple[str, ...] = ()
    """What it may intercept: tool names, for the ``tool_call.*`` events (``"*"``: every
    tool), and the other interceptable events it listens to by name (``result.ready``,
    ``status.changing``, ``tracking.due``)."""
    options_schema: Mapping[str, Any] = field(default_factory=lambda: EMPTY_SCHEMA)
    """JSON Schema of its ``[plugins.<name>]`` table (an object; unknown keys are errors)."""
    inline: bool = False
    """Run its listeners of informational events in place, in order with the step (for
    cheap work that must be complete when the step is: the event log).  Otherwise they run
    on the bus's background worker, so a slow plugin never holds the step up."""

    @property
    def tools(self) -> frozenset[str] | None:
        """The bus's ``tools=`` filter: ``None`` lets every tool through."""
        if ALL in self.intercepts:
            return None
        return frozenset(self.intercepts) - interceptable_events()


class SharedLines(Protocol):
    def append_line(self, relpath: str, line: str) -> object: ...


class LineStore(Protocol):
    """The part of :class:`bot.state.StateStore` plugins write through."""

    def append_line(self, rfd_id: str, relpath: str, line: str) -> object:
        """Append to a file in the RFD's state directory."""

    def shared(self, area: str) -> SharedLines:
        """A dot-directory of the state root, for files about no RFD in particular."""


@dataclass(frozen=True)
class PluginContext:
    """The edges a plugin may use; the configuration is the frozen, resolved one."""

    root: Path
    config: Config
    store: LineStore | None = None
    llm: LLM | None = None
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    sleep: Callable[[float], None] = time.sleep
    route: ModelRoute | None = None
    """The provider serving a model id for a plugin (``route(model, provider, plugin)``),
    by the rules a step's model follows; None when the caller gave one fixed ``llm``."""

    def llm_for(self, model: str, provider: str | None, plugin: str) -> LLM | None:
        """The provider for ``model``: routed like a step's, else the one fixed ``llm``.
        ConfigError when the model cannot be served (a non-Claude model, no endpoint)."""
        return self.llm if self.route is None else self.route(model, provider, plugin)

    prompt_root: Path | None = None
    """Where prompt overrides come from (None: ``root``); the bot's default branch."""


def event_names() -> frozenset[str]:
    """Every name a plugin may declare in ``events``."""
    return frozenset(t.name for t in all_event_types()) | {ALL}


def interceptable_events() -> frozenset[str]:
    """The interceptable events that are not about a tool call: declared by name."""
    return frozenset(
        t.name for t in all_event_types() if t.interceptable and not t.name.startswith("tool_call.")
    )


def _all_interceptable() -> frozenset[str]:
    return frozenset(t.name for t in all_event_types() if t.interceptable)


class ScopedBus:
    """The event bus as one plugin sees it: only the events and tools it declared."""

    def __init__(self, bus: EventBus, info: PluginInfo) -> None:
        self._bus = bus
        self._info = info

    def subscribe(self, event: type[Event] | str, listener: Callable[[Any], Any]) -> None:
        """Listen to ``event`` (a type, a name, or ``"*"`` to observe every event)."""
        name = event if isinstance(event, str) else event.name
        if name not in self._info.events:
            raise ConfigError(
                f"plugin `{self._info.name}` subscribes to `{name}` without declaring it",
                hint=f"it declares: {', '.join(self._info.events) or 'no events'}; "
                "fix the plugin or remove it from [plugins] enabled",
            )
        if name in interceptable_events() and name not in self._info.intercepts:
            raise ConfigError(
                f"plugin `{self._info.name}` intercepts `{name}` without declaring it",
                hint=f"interceptable events are declared in `intercepts` too (add {name!r}); "
                "fix the plugin or remove it from [plugins] enabled",
            )
        owner = self._info.name
        if name == ALL:  # observing everything must not be able to change or stop anything
            observer = _observer(listener, owner)
            self._bus.subscribe(ALL, observer, owner=owner, inline=self._info.inline)
        else:
            tools, inline = self._info.tools, self._info.inline
            if name in _all_interceptable():
                listener = _guarded(listener, owner, name)
            self._bus.subscribe(name, listener, owner=owner, tools=tools, inline=inline)

    def emit(self, event: Event) -> None:
        """Emit an informational event (e.g. a :class:`~bot.events.Notice` for the user)."""
        self._bus.emit(event)


def _observer(listener: Callable[[Any], Any], owner: str) -> Callable[[Any], None]:
    def observe(event: Event) -> None:
        try:
            listener(event)
        except Exception:  # an observer never breaks the step, even on interceptable events
            log.warning("listener %s failed on %s", owner, event.name, exc_info=True)

    return observe


PLUGIN_FAILED = "plugin `{owner}` failed on {event}: {error}"
PLUGIN_FAILED_HINT = (
    "the step stopped there; fix the plugin or remove it from [plugins] enabled, "
    "then run the step again"
)


def _guarded(listener: Callable[[Any], Any], owner: str, event: str) -> Callable[[Any], Any]:
    """``listener`` as an interceptor that fails cleanly: :class:`Aborted` is its documented
    way to stop a call; anything else it raises becomes :class:`PluginFailed`, naming it."""

    def intercept(ev: Any) -> Any:
        try:
            return listener(ev)
        except (Aborted, BudgetExceeded):
            raise  # a budget stop (the judge's calls count against the step) is no failure
        except Exception as exc:
            error = exc.message if isinstance(exc, RfdError) else f"{type(exc).__name__}: {exc}"
            message = PLUGIN_FAILED.format(owner=owner, event=event, error=error)
            raise PluginFailed(message, hint=PLUGIN_FAILED_HINT) from exc

    return intercept
