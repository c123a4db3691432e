"""What the person is told about a tool call they did not write: a plugin's change to its
arguments, or a call the model got wrong.

Pure text.  Tool names, argument names and values come from the model or a plugin, so
they are shown as JSON (control characters escaped), without invisible characters, and
cut: one line each, never markup or terminal sequences.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.core.sanitize import sanitize

MAX_SHOWN = 80
CUT = "…"
CHANGED = "{plugin} changed `{tool}`'s {changes}"
ANSWERED = "{plugin} answered `{tool}` itself: the tool did not run"
INVALID = "the model's call of {tool} was refused (it was told why): {error}"


def shown(value: Any) -> str:
    """``value`` as one short, inert line."""
    text = sanitize(json.dumps(value, ensure_ascii=False, default=str))
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + CUT


def argument_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    """``key: old → new`` for each argument the change touched (``—`` for none)."""
    keys = [*before, *(k for k in after if k not in before)]
    return tuple(
        f"{_name(k)}: {_value(before, k)} → {_value(after, k)}"
        for k in keys
        if before.get(k) != after.get(k) or (k in before) != (k in after)
    )


def changed(plugin: str, tool: str, changes: tuple[str, ...]) -> str:
    return CHANGED.format(plugin=plugin, tool=tool, changes="; ".join(changes))


def invalid(tool: str, error: str) -> str:
    return INVALID.format(tool=shown(tool), error=_inert(error))


def _name(key: str) -> str:
    return key if key.isidentifier() else shown(key)


def _value(arguments: Mapping[str, Any], key: str) -> str:
    return shown(arguments[key]) if key in arguments else "—"


def _inert(text: str) -> str:
    """An error message that may quote the model: one line, control characters escaped."""
    line = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    line = sanitize(line)
    return line if len(line) <= 4 * MAX_SHOWN else line[: 4 * MAX_SHOWN - 1] + CUT
