"""The command line's configuration layer: ``--set KEY=VALUE`` as nested tables, merged."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from bot.core.errors import ValidationError


def parse_assignments(assignments: tuple[str, ...]) -> dict[str, Any]:
    """``("rfd.dir=rfcs", "steps.review.max_tokens=100")`` → nested tables (values as TOML)."""
    out: dict[str, Any] = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValidationError(f"`{item}` is not KEY=VALUE", hint="e.g. --set rfd.dir=rfcs")
        *parents, last = key.strip().split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = _toml_value(raw.strip())
    return out


def merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra``'s keys over ``base``'s, table by table (``base`` is changed and returned)."""
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = dict(value) if isinstance(value, Mapping) else value
    return base


def _toml_value(raw: str) -> Any:
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw  # a bare word: a string
