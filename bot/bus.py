"""The event bus: delivers events to listeners (the event types live in :mod:`bot.events`).

Kept apart from the event types so that opening a workspace costs nothing more than
this small class: defining two dozen dataclasses is measurable at start-up.

* **informational** (``emit``): listeners observe; a failing listener is logged and
  never fails or blocks the step;
* **interceptable** (``intercept``): listeners run synchronously, in registration
  order, and may return a modified event (``dataclasses.replace``) or raise
  :class:`~bot.errors.Aborted`.  What the last interceptor returns is what happens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from bot.events import Event

log = logging.getLogger("bot.events")

E = TypeVar("E", bound="Event")
Listener = Callable[[Any], Any]


@dataclass
class _Registration:
    event: str  # event name or "*"
    listener: Listener
    owner: str
    tools: frozenset[str] | None  # for tool_call.* interceptors: the tools they may touch


class EventBus:
    """Delivers events to listeners registered for their name (or ``"*"``)."""

    def __init__(self) -> None:
        self._registrations: list[_Registration] = []

    def subscribe(
        self,
        event: type[Event] | str,
        listener: Listener,
        *,
        owner: str = "core",
        tools: frozenset[str] | None = None,
    ) -> None:
        name = event if isinstance(event, str) else event.name
        self._registrations.append(_Registration(name, listener, owner, tools))

    def listeners(self) -> list[tuple[str, str]]:
        """``(event name, owner)`` pairs, in delivery order."""
        return [(r.event, r.owner) for r in self._registrations]

    def emit(self, event: Event) -> None:
        """Deliver an informational event; listener failures are logged, never raised."""
        if event.interceptable:
            raise TypeError(f"{event.name} is interceptable: use intercept()")
        for reg in self._matching(event):
            try:
                reg.listener(event)
            except Exception:  # an observer must never break the step
                log.warning("listener %s failed on %s", reg.owner, event.name, exc_info=True)

    def intercept(self, event: E) -> E:
        """Run interceptors in order; each may return a replacement event or raise Aborted."""
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
                current = result
        return current

    def _matching(self, event: Event) -> list[_Registration]:
        return [r for r in self._registrations if r.event in (event.name, "*")]
