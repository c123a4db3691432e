"""A third-party plugin on the query and response events (for tests/test_plugin_events.py).

It steers every query (a line added to the prompt, which the user is told about), keeps
a copy of what streams and of each whole response, and answers ``read_file`` from its
own cache instead of letting the tool run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from bot.events import QueryBefore, ResponseChunk, ResponseComplete, ToolCallIntercept
from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl

STEERING = "Answer in British English."
CACHED = "cached: the file says 42"
seen: list[tuple[str, str]] = []
"""(event name, text) of every chunk and complete response the plugin heard."""


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="cache",
        description="answers read_file from a cache; steers and records queries",
        events=(
            QueryBefore.name,
            ResponseChunk.name,
            ResponseComplete.name,
            ToolCallIntercept.name,
        ),
        intercepts=(QueryBefore.name, "read_file"),
        inline=True,
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    def steer(event: QueryBefore) -> QueryBefore:
        return dataclasses.replace(event, prompt=f"{event.prompt.rstrip()}\n\n{STEERING}\n")

    def answer(event: ToolCallIntercept) -> ToolCallIntercept:
        return dataclasses.replace(event, result=CACHED)

    bus.subscribe(QueryBefore, steer)
    bus.subscribe(ToolCallIntercept, answer)
    bus.subscribe(ResponseChunk, lambda e: seen.append((e.name, e.text)))
    bus.subscribe(ResponseComplete, lambda e: seen.append((e.name, e.text)))
