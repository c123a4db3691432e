"""The event bus: delivers events to listeners (the event types live in :mod:`bot.events`).

Kept apart from the event types so that opening a workspace costs nothing more than
this small class: defining two dozen dataclasses is measurable at start-up.

* **informational** (``emit``): listeners observe; a failing listener is logged and
  never fails the step.  Inline listeners (the core's: terminal output, the forge, and
  plugins that declare ``inline``) run in place, in order; every other listener is
  fire-and-forget: it runs on one background worker per bus, in emission order, so a
  slow observer never holds the step up (:meth:`EventBus.drain` waits for it, bounded;
  at exit :func:`bot.core.outbox.flush_all` gives it a last, bounded chance);
* **interceptable** (``intercept``): listeners run synchronously, in registration
  order, and may return a modified event (``dataclasses.replace``) or raise
  :class:`~bot.core.errors.Aborted`.  What the last interceptor returns is what happens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

if TYPE_CHECKING:
    from bot.core.outbox import Outbox

log = logging.getLogger("bot.events")


class Event(Protocol):
    """What the bus needs of an event: its name, and whether listeners may change it
    (:class:`bot.events.Event` and its subclasses)."""

    name: ClassVar[str]
    interceptable: ClassVar[bool]


E = TypeVar("E", bound=Event)
Listener = Callable[[Any], Any]


@dataclass
class _Registration:
    event: str  # event name or "*"
    listener: Listener
    owner: str
    tools: frozenset[str] | None  # for tool_call.* interceptors: the tools they may touch
    inline: bool = True  # informational events: run in place (False: on the background worker)


class EventBus:
    """Delivers events to listeners registered for their name (or ``"*"``)."""

    def __init__(self) -> None:
        self._registrations: list[_Registration] = []
        self._background: Outbox[tuple[_Registration, Event]] | None = None

    def subscribe(
        self,
        event: type[Event] | str,
        listener: Listener,
        *,
        owner: str = "core",
        tools: frozenset[str] | None = None,
        inline: bool = True,
    ) -> None:
        name = event if isinstance(event, str) else event.name
        self._registrations.append(_Registration(name, listener, owner, tools, inline))

    def listeners(self) -> list[tuple[str, str]]:
        """``(event name, owner)`` pairs, in delivery order."""
        return [(r.event, r.owner) for r in self._registrations]

    def emit(self, event: Event) -> None:
        """Deliver an informational event; listener failures are logged, never raised."""
        if event.interceptable:
            raise TypeError(f"{event.name} is interceptable: use intercept()")
        for reg in self._matching(event):
            if reg.inline:
                _deliver((reg, event))
            else:
                self._worker().put((reg, event))

    def drain(self, timeout: float = 5.0) -> int:
        """Wait at most ``timeout`` seconds for the background listeners; how many events
        are still undelivered (0: every listener has seen every event so far)."""
        return 0 if self._background is None else len(self._background.flush(timeout))

    def _worker(self) -> Outbox[tuple[_Registration, Event]]:
        if self._background is None:
            from bot.core.outbox import Outbox

            self._background = Outbox("rfd-bot event listeners", _deliver, label=_event_name)
        return self._background

    def intercept(self, event: E, on_change: Callable[[str, E, E], None] | None = None) -> E:
        """Run interceptors in order; each may return a replacement event or raise Aborted.
        ``on_change(owner, before, after)`` hears of every interceptor that changed it."""
        if not event.interceptable:
            raise TypeError(f"{event.name} is informational: use emit()")
        current = event
        for reg in self._matching(current):
            tool = getattr(current, "tool", None)
            if reg.tools is not None and tool is not None and tool not in reg.tools:
                continue
            result = reg.listener(current)
            if result is not None:
                if type(result) is not type(current):
                    raise TypeError(f"interceptor {reg.owner} returned {type(result).__name__}")
                if result != current:
                    log.info("%s modified by %s", current.name, reg.owner)
                    if on_change is not None:
                        on_change(reg.owner, current, result)
                current = result
        return current

    def _matching(self, event: Event) -> list[_Registration]:
        return [r for r in self._registrations if r.event in (event.name, "*")]


def _event_name(item: tuple[_Registration, Event]) -> str:
    return item[1].name


def _deliver(item: tuple[_Registration, Event]) -> None:
    reg, event = item
    try:
        reg.listener(event)
    except Exception:  # an observer must never break the step
        log.warning("listener %s failed on %s", reg.owner, event.name, exc_info=True)
