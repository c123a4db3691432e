"""Plugins: listeners on the event bus, discovered through entry points (pluggy).

See :mod:`bot.plugins.hookspecs` for how to write one.
"""

from __future__ import annotations

from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl
from bot.plugins.manager import Plugin, available, check_plugins, installed, load_plugins

__all__ = [
    "Plugin",
    "PluginContext",
    "PluginInfo",
    "ScopedBus",
    "available",
    "check_plugins",
    "hookimpl",
    "installed",
    "load_plugins",
]
