"""The hooks an rfd-bot plugin implements (pluggy project ``rfd_bot``).

A plugin is a module (or object) registered under the entry point group
``rfd_bot``; it implements both hooks with :data:`bot.plugins.hookimpl`::

    from bot.plugins import PluginInfo, hookimpl

    @hookimpl
    def rfd_plugin_info() -> PluginInfo:
        return PluginInfo(name="hello", description="Says hello", events=("status.changed",))

    @hookimpl
    def rfd_register(bus, options, context) -> None:
        bus.subscribe("status.changed", lambda ev: print("hello", ev.new))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from bot.plugins.api import PluginContext, PluginInfo, ScopedBus

PROJECT = "rfd_bot"
"""pluggy project name, and the entry point group plugins are installed under."""

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def rfd_plugin_info() -> PluginInfo:  # type: ignore[empty-body]
    """Declare the plugin: name, description, events, intercepted tools, options schema.

    Called for every installed plugin, enabled or not (``rfd plugins``), so it must be
    cheap and free of side effects.
    """


@hookspec
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    """Subscribe listeners on ``bus``; called once per run for each enabled plugin.

    ``options`` is the plugin's ``[plugins.<name>]`` table, validated against its schema,
    defaults filled in, frozen.  ``context`` carries the resolved configuration and the
    edges (state store, LLM) the plugin may use.
    """
