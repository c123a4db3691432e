"""A plugin's options: its ``[plugins.<name>]`` table validated against the plugin's own
JSON Schema (defaults filled in), and where in the configuration files a wrong key was set;
plugin names compare in their canonical spelling.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.config.load import CONFIG_PATH, Resolved
from bot.core.errors import ConfigError
from bot.core.toml_lines import line_of
from bot.plugins.api import PluginInfo
from bot.plugins.schema import validate


def canonical(name: str) -> str:
    """Plugin names compare case-insensitively, ``_`` and ``-`` alike."""
    return name.strip().lower().replace("_", "-")


def plugin_options(
    resolved: Resolved, name: str, info: PluginInfo, root: Path
) -> Mapping[str, Any]:
    written = {canonical(k): k for k in resolved.config.plugins.options}
    table = resolved.config.plugins.options.get(written.get(name, name), {})
    key = f"plugins.{written.get(name, name)}"  # as the user spelt it, to find its line
    options, problems = validate(table, info.options_schema, key)
    if problems:
        first = problems[0]
        raise ConfigError(
            f"plugin `{name}`: {first.message}",
            **where_set(resolved, first.key, root),
            hint=first.hint or None,
        )
    return options  # type: ignore[no-any-return]


def where_set(resolved: Resolved, key: str, root: Path) -> dict[str, Any]:
    """``path`` and ``line`` of the file that set ``key`` (line None when unknown)."""
    path = file_of(resolved, key)
    file = root / path  # the repository file is shown relative to the root
    try:
        text = file.read_text(encoding="utf-8") if file.is_file() else ""
    except (OSError, UnicodeDecodeError):
        text = ""
    return {"path": path, "line": line_of(text, key) if text else None}


def file_of(resolved: Resolved, key: str) -> str:
    """The file that set ``key`` (or something under it, or its closest parent)."""
    key = key.split("[", 1)[0]
    while key:
        for source_key, layer in resolved.sources.items():
            if source_key == key or source_key.startswith(key + "."):
                return resolved.files.get(layer, CONFIG_PATH)
        key = key.rpartition(".")[0]
    return CONFIG_PATH
