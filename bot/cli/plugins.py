"""``rfd plugins``: what is installed, what is enabled, and what each may see and touch."""

from __future__ import annotations

from typing import Any

from bot.cli.common import cli_layer, repo_root, rfd_command
from bot.cli.output import Output
from bot.config.load import load
from bot.plugins import Plugin, check_plugins, installed
from bot.plugins.api import ALL

NONE_ENABLED = "none enabled — add names to `enabled` under [plugins] in .github/rfd.toml"


@rfd_command("plugins")
def plugins(out: Output) -> int:
    """List installed plugins, enabled or not, with their events and intercepted tools."""
    root = repo_root(required=False)
    resolved = load(root, user=True, cli=cli_layer())
    check_plugins(resolved, root=root)  # a bad [plugins.<name>] table is an error here too
    found = installed(resolved.config)
    out.data({"plugins": [as_dict(p) for p in found]})
    for plugin in found:
        for line in describe(plugin):
            out.line(line)
    if not any(p.enabled for p in found):
        out.line(NONE_ENABLED)
    return 0


def as_dict(plugin: Plugin) -> dict[str, Any]:
    info = plugin.info
    return {
        "name": plugin.name,
        "enabled": plugin.enabled,
        "source": plugin.source,
        "description": info.description,
        "events": list(info.events),
        "intercepts": list(info.intercepts),
        "options_schema": info.options_schema,
    }


def describe(plugin: Plugin) -> list[str]:
    """Three lines: name and state, what it does, what it listens to and may intercept."""
    state = "enabled" if plugin.enabled else "disabled"
    return [
        f"{plugin.name:<12} {state:<9} ({plugin.source})",
        f"    {plugin.info.description}",
        f"    events: {_events(plugin.info.events)}; intercepts: {_tools(plugin.info.intercepts)}",
    ]


def _events(events: tuple[str, ...]) -> str:
    if ALL in events:
        return "all (observe only)"
    return ", ".join(events) or "none"


def _tools(intercepts: tuple[str, ...]) -> str:
    """What it may intercept: ``every tool``, tool names, interceptable event names."""
    names = ["every tool" if name == ALL else name for name in intercepts]
    return ", ".join(names) or "nothing"
