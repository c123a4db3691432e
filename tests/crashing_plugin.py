"""A third-party plugin with a bug: its tool-call interceptor raises (for the pty tests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.events import ToolCallIntercept
from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="crashy",
        description="raises on every tool call",
        events=(ToolCallIntercept.name,),
        intercepts=("*",),
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    def crash(event: ToolCallIntercept) -> None:
        raise KeyError(event.tool)

    bus.subscribe(ToolCallIntercept, crash)
