"""Validation of configuration data against the schema (:mod:`bot.config.schema`).

Strict: an unknown key, or a value of the wrong type or out of range, is a ConfigError
naming the dotted key and the file it came from.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from pathlib import PurePosixPath, PureWindowsPath
from types import MappingProxyType
from typing import Any, Literal

from bot.config.schema import ConsensusSection, LintSection, PluginsSection, RfdSection
from bot.config.shapes import SHAPES, is_plain_text
from bot.core.errors import ConfigError


def build(cls: type[Any], data: Any, prefix: str, path: str) -> Any:
    where = prefix.rstrip(".") or "the top level"
    if not isinstance(data, Mapping):
        raise ConfigError(f"`{where}` must be a table", path=path)
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    if cls is PluginsSection:
        return _build_plugins(data, prefix, path)
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        key_name = key.replace("-", "_")
        if key_name not in known:
            choices = ", ".join(sorted(known))
            raise ConfigError(
                f"unknown key `{prefix}{key}`",
                path=path,
                key=f"{prefix}{key}",
                hint=f"known keys here: {choices}",
            )
        coerced = _coerce(hints[key_name], value, f"{prefix}{key}", path)
        _check_value(f"{prefix}{key_name}", coerced, path)
        default = known[key_name].default_factory
        if isinstance(coerced, Mapping) and default is not dataclasses.MISSING:
            coerced = MappingProxyType({**default(), **coerced})  # a table extends its defaults
        kwargs[key_name] = coerced
    if cls is RfdSection:
        _check_inside(kwargs, prefix, path)
    if cls is LintSection:
        _check_lint_keys(kwargs, prefix, path)
    if cls is ConsensusSection:
        _check_consensus(kwargs, prefix, path)
    return cls(**kwargs)


CATEGORIES = ("design", "decision", "guide", "process")
"""``bot.templates.CATEGORIES`` (a test keeps the two equal)."""


def _check_lint_keys(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """``[lint.severity]`` names rule codes, ``[lint.required_sections]`` categories."""
    from bot.model.lint_codes import RULES

    for table, known in (("severity", tuple(RULES)), ("required_sections", CATEGORIES)):
        for key in values.get(table, {}):
            if key not in known:
                raise ConfigError(
                    f"unknown key `{prefix}{table}.{key}`",
                    path=path,
                    hint=f"known keys here: {', '.join(known)}",
                )


_REVIEWER = re.compile(
    r"""@[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9][A-Za-z0-9._-]{0,99}  # @org/team-slug
      | [A-Za-z0-9][A-Za-z0-9-]{0,38}                                # a login""",
    re.VERBOSE,
)
REVIEWER_SHAPE = "a GitHub login (`alice`) or a team (`@octo-org/architects`)"


def _check_consensus(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """Reviewers are logins or teams, at least one; ``approvals`` is 1 or more (or ``all``)."""
    reviewers: tuple[str, ...] = values.get("reviewers", ())
    for index, who in enumerate(reviewers):
        if not _REVIEWER.fullmatch(who):
            raise ConfigError(
                f"`{prefix}reviewers[{index}]` must be {REVIEWER_SHAPE}, not {who!r}",
                path=path,
                key=f"{prefix}reviewers",
            )
    if not reviewers:
        raise ConfigError(
            f"`{prefix}reviewers` must name at least one reviewer",
            path=path,
            key=prefix.rstrip("."),
            hint="list logins or teams, or delete the [consensus] table to accept without sign-off",
        )
    if values.get("approvals") == 0:
        raise ConfigError(
            f'`{prefix}approvals` must be 1 or more, or "all"',
            path=path,
            key=f"{prefix}approvals",
            hint="delete the [consensus] table to accept without sign-off",
        )


_PATH_KEYS = {"dir": "the repository", "drafts_dir": "`rfd.dir`", "state_dir": "`rfd.dir`"}


def _check_inside(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """RFD directories are relative paths that stay inside the repository."""
    for key, inside in _PATH_KEYS.items():
        value = values.get(key)
        if not isinstance(value, str):
            continue
        parts = PurePosixPath(value.replace("\\", "/")).parts
        if not is_plain_text(value):
            raise ConfigError(
                f"`{prefix}{key}` = {value!r} holds a control character or starts with `-`",
                path=path,
                key=f"{prefix}{key}",
                hint=f"set `{prefix}{key}` to a plain relative path, "
                f"e.g. {getattr(RfdSection, key)!r}",
            )
        outside = PurePosixPath(value).is_absolute() or PureWindowsPath(value).drive
        if outside or ".." in parts:
            raise ConfigError(
                f"`{prefix}{key}` = {value!r} points outside {inside}",
                path=path,
                key=f"{prefix}{key}",
                hint=f"set `{prefix}{key}` to a relative path inside {inside}, "
                f"e.g. {getattr(RfdSection, key)!r}",
            )


def _build_plugins(data: Mapping[str, Any], prefix: str, path: str) -> PluginsSection:
    enabled: tuple[str, ...] = ()
    options: dict[str, Mapping[str, Any]] = {}
    for key, value in data.items():
        if key == "enabled":
            enabled = _coerce(tuple[str, ...], value, f"{prefix}enabled", path)
        elif isinstance(value, Mapping):
            options[key] = freeze(value)
        else:
            raise ConfigError(
                f"`{prefix}{key}` must be a table of plugin options",
                path=path,
                hint=f"write it as [plugins.{key}]",
            )
    return PluginsSection(enabled=enabled, options=MappingProxyType(options))


def _coerce(tp: Any, value: Any, key: str, path: str) -> Any:
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return build(tp, value, key + ".", path)  # type: ignore[arg-type]
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            message = f"`{key}` must be one of {choices}, not {value!r}"
            raise ConfigError(message, path=path, key=key)
        return value
    if origin is tuple:
        (item_tp, _) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ConfigError(f"`{key}` must be a list, not {_tname(value)}", path=path, key=key)
        return tuple(_coerce(item_tp, v, f"{key}[{i}]", path) for i, v in enumerate(value))
    if origin in (Mapping, dict) or tp is Mapping:
        if not isinstance(value, Mapping):
            raise ConfigError(f"`{key}` must be a table, not {_tname(value)}", path=path, key=key)
        _, val_tp = typing.get_args(tp)
        return MappingProxyType(
            {str(k): _coerce(val_tp, v, f"{key}.{k}", path) for k, v in value.items()}
        )
    if origin in (types.UnionType, typing.Union):
        for option in typing.get_args(tp):
            try:
                return _coerce(option, value, key, path)
            except ConfigError:
                continue
        raise ConfigError(f"`{key}` has an unsupported value {value!r}", path=path, key=key)
    if tp is Any:
        return value
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if tp is type(None) and value is None:
        return None
    if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
        raise ConfigError(
            f"`{key}` must be {_TYPE_WORDS.get(tp, tp.__name__)}, not {_tname(value)}",
            path=path,
            key=key,
        )
    if tp in (int, float) and value < 0:
        raise ConfigError(f"`{key}` must not be negative", path=path, key=key)
    return value


def _check_value(key: str, value: Any, path: str) -> None:
    shape = SHAPES.get(key)
    if shape is not None and not shape[0](str(value)):
        raise ConfigError(f"`{key}` must be {shape[1]}, not {value!r}", path=path, key=key)


_TYPE_WORDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def _tname(value: Any) -> str:
    return {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "a boolean",
        list: "a list",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def freeze(value: Any) -> Any:
    """A read-only copy: tables become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value
