"""Event log: every event, one JSON line each — the record of how a document got here.

Events about an RFD go to ``events.jsonl`` in that RFD's state directory; events
about no RFD in particular go to ``<state root>/.repo/events.jsonl``.  Both through
the state store, the only writer under the state root.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from bot.events import Event
from bot.plugins.api import ALL, LineStore, PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl

NAME = "event-log"
LOG_FILE = "events.jsonl"
REPO_AREA = ".repo"
"""The shared state area of events that concern no RFD in particular."""
log = logging.getLogger(__name__)

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "exclude": {
            "type": "array",
            "items": {"type": "string"},
            "default": [],
            "description": "Event names not to log (e.g. `notice`).",
        },
        "max_field_chars": {
            "type": "integer",
            "minimum": 0,
            "default": 4000,
            "description": "Cut longer text fields (whole RFDs, replies) to this (0: never).",
        },
    },
}
CUT = "… ({n} more characters)"


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name=NAME,
        description=f"Append every event as a JSON line to the RFD's {LOG_FILE}",
        events=(ALL,),
        options_schema=OPTIONS_SCHEMA,
        inline=True,  # the record of the step: a local append, in order
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    if context.store is None:
        log.warning("event-log: no state store to write to; events are not logged")
        return
    writer = EventLog(context.store, frozenset(options["exclude"]), options["max_field_chars"])
    bus.subscribe(ALL, writer.write)


class EventLog:
    def __init__(self, store: LineStore, exclude: frozenset[str], max_chars: int) -> None:
        self.store = store
        self.exclude = exclude
        self.max_chars = max_chars

    def write(self, event: Event) -> None:
        if event.name in self.exclude:
            return
        payload = {k: self._cut(v) for k, v in event.payload().items()}
        line = json.dumps(payload, ensure_ascii=False)
        if event.rfd_id:
            self.store.append_line(event.rfd_id, LOG_FILE, line)
        else:
            self.store.shared(REPO_AREA).append_line(LOG_FILE, line)

    def _cut(self, value: Any) -> Any:
        if not self.max_chars or not isinstance(value, str) or len(value) <= self.max_chars:
            return value
        return value[: self.max_chars] + CUT.format(n=len(value) - self.max_chars)
