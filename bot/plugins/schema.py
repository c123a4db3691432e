"""A small JSON Schema validator for plugin options.

Plugins describe their ``[plugins.<name>]`` table with a JSON Schema.  We validate
the subset plugins need — ``type``, ``properties``, ``additionalProperties``
(``false`` or a schema), ``required``, ``items``, ``enum``, ``minimum``,
``maximum``, ``minLength``, ``default`` — rather than import ``jsonschema`` on
every run; any other keyword is rejected, so a schema never silently means less
than it says.  Objects are closed unless they say otherwise: an unknown key is an
error naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.config.load import freeze

KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "additionalProperties",
        "required",
        "items",
        "enum",
        "minimum",
        "maximum",
        "minLength",
        "default",
        "description",
        "title",
    }
)

_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, (list, tuple)),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}

_ARTICLES = {
    "object": "a table",
    "array": "a list",
    "integer": "an integer",
    "boolean": "true or false",
}


@dataclass(frozen=True)
class Problem:
    """One violation: the dotted key it is about, what is wrong, and what to do."""

    key: str
    message: str
    hint: str = ""


def check_schema(schema: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` if ``schema`` uses a keyword this validator does not know."""
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise ValueError(f"unsupported JSON Schema keywords: {', '.join(sorted(unknown))}")
    for sub in _subschemas(schema):
        check_schema(sub)


def _subschemas(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    subs = list(schema.get("properties", {}).values())
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            subs.append(schema[key])
    return subs


def validate(value: Any, schema: Mapping[str, Any], key: str) -> tuple[Any, list[Problem]]:
    """``value`` with defaults filled in and frozen, and every problem found (empty: valid)."""
    problems: list[Problem] = []
    result = _check(value, schema, key, problems)
    return freeze(result), problems


def _check(value: Any, schema: Mapping[str, Any], key: str, problems: list[Problem]) -> Any:
    expected = schema.get("type")
    if expected is not None and not _TYPES[expected](value):
        word = _ARTICLES.get(expected, f"a {expected}")
        problems.append(Problem(key, f"`{key}` must be {word}, not {_word(value)}"))
        return value
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(repr(c) for c in schema["enum"])
        problems.append(Problem(key, f"`{key}` must be one of {choices}, not {value!r}"))
    _check_bounds(value, schema, key, problems)
    if isinstance(value, Mapping):
        return _check_object(value, schema, key, problems)
    if isinstance(value, (list, tuple)) and "items" in schema:
        return [_check(v, schema["items"], f"{key}[{i}]", problems) for i, v in enumerate(value)]
    return value


def _check_bounds(value: Any, schema: Mapping[str, Any], key: str, problems: list[Problem]) -> None:
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        problems.append(Problem(key, f"`{key}` must not be empty"))
    if not _TYPES["number"](value):
        return
    if "minimum" in schema and value < schema["minimum"]:
        problems.append(Problem(key, f"`{key}` must be at least {schema['minimum']}"))
    if "maximum" in schema and value > schema["maximum"]:
        problems.append(Problem(key, f"`{key}` must be at most {schema['maximum']}"))


def _check_object(
    value: Mapping[str, Any], schema: Mapping[str, Any], key: str, problems: list[Problem]
) -> dict[str, Any]:
    props: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", False)
    out: dict[str, Any] = {}
    for name, item in value.items():
        sub = props.get(name, extra)
        if sub is False:
            known = ", ".join(sorted(props)) or "none"
            problems.append(
                Problem(f"{key}.{name}", f"unknown key `{key}.{name}`", f"known keys here: {known}")
            )
            continue
        out[name] = _check(item, sub if isinstance(sub, Mapping) else {}, f"{key}.{name}", problems)
    for name in schema.get("required", ()):
        if name not in value:
            problems.append(Problem(f"{key}.{name}", f"`{key}.{name}` is required"))
    for name, sub in props.items():
        if name not in out and name not in schema.get("required", ()) and "default" in sub:
            out[name] = sub["default"]
    return out


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, Mapping):
        return "a table"
    words = {str: "a string", int: "an integer", float: "a number", list: "a list", tuple: "a list"}
    return words.get(type(value), type(value).__name__)
