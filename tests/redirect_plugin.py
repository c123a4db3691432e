"""A third-party plugin that rewrites tool calls: list_files looks at docs/ (for the pty tests)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from bot.events import ToolCallIntercept
from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="redirect",
        description="points list_files at docs/",
        events=(ToolCallIntercept.name,),
        intercepts=("list_files",),
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    def redirect(event: ToolCallIntercept) -> ToolCallIntercept:
        return dataclasses.replace(event, arguments={**event.arguments, "path": "docs"})

    bus.subscribe(ToolCallIntercept, redirect)
