"""``rfd config show``: the resolved configuration and where each value came from."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import click

from bot.cli.assignments import parse_assignments
from bot.cli.common import cli_layer, repo_root, rfd_command
from bot.cli.output import Output
from bot.config.load import PluginsSection, Resolved, load
from bot.plugins import check_plugins
from bot.plugins.manager import canonical

_SECRET = re.compile(r"^plugins\..+(?:url|token|secret|password)$")
"""Plugin options that are secrets (a webhook URL is one): shown as ``<hidden>``."""
HIDDEN = "<hidden>"


@dataclass(frozen=True)
class Setting:
    key: str
    value: Any
    source: str
    """``default``, ``user``, ``repo``, ``env`` or ``cli``."""
    file: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": _plain(self.value),
            "source": self.source,
            "file": self.file,
        }


def _plain(value: Any) -> Any:
    """JSON-ready: read-only tables become dicts, tuples lists."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@click.group("config")
def config() -> None:
    """Inspect the configuration (resolved once: defaults, user, repo, env, flags)."""


SET_HELP = "Override a key for this run (the command-line layer), e.g. rfd.dir=rfcs."


@rfd_command("show")
@click.option("-c", "--set", "assignments", multiple=True, metavar="KEY=VALUE", help=SET_HELP)
def show(out: Output, assignments: tuple[str, ...]) -> int:
    """Print every key with its value and where it came from."""
    root = repo_root(required=False)
    resolved = load(root, user=True, cli=cli_layer(parse_assignments(assignments)))
    rows = settings(resolved, check_plugins(resolved, root=root))
    out.data({"settings": [row.to_dict() for row in rows]})
    width = max(len(r.key) for r in rows)
    for row in rows:
        where = f"{row.source} ({row.file})" if row.file else row.source
        out.line(f"{row.key:<{width}} = {render(row.value)}  # {where}")
    return 0


config.add_command(show)


def settings(
    resolved: Resolved, plugin_options: Mapping[str, Mapping[str, Any]] | None = None
) -> list[Setting]:
    """Every key of the resolved configuration, in schema order, with its source.

    ``plugin_options`` (validated, defaults filled in) replace the plugin tables as written,
    so a plugin's defaults show with the source ``default``.
    """
    config = resolved.config
    if plugin_options:
        as_written = config.plugins.options.items()
        written = {k: v for k, v in as_written if canonical(k) not in plugin_options}
        written |= plugin_options
        config = dataclasses.replace(
            config, plugins=dataclasses.replace(config.plugins, options=written)
        )
    rows = []
    for key, value in _leaves(config, ""):
        source = resolved.sources.get(key, "default")
        shown = HIDDEN if _SECRET.match(key) and value else value
        rows.append(Setting(key, shown, source, resolved.files.get(source)))
    return rows


def _leaves(node: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(node, PluginsSection):
        yield f"{prefix}enabled", node.enabled
        yield from _leaves(node.options, prefix)  # [plugins.<name>] tables sit under plugins.
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from _leaves(getattr(node, f.name), f"{prefix}{f.name}.")
    elif isinstance(node, Mapping) and node:
        for key, value in node.items():
            yield from _leaves(value, f"{prefix}{key}.")
    else:
        yield prefix.rstrip("."), node


def render(value: Any) -> str:
    """A value as it would be written in TOML (near enough: JSON for strings and lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(_plain(value), ensure_ascii=False)
