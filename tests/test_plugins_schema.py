"""The small JSON Schema validator plugin options go through."""

from __future__ import annotations

from typing import Any

import pytest

from bot.plugins.manager import check_schema, validate

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "minLength": 1},
        "retries": {"type": "integer", "minimum": 0, "maximum": 5, "default": 2},
        "ratio": {"type": "number"},
        "on": {"type": "boolean"},
        "events": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
        "rules": {"type": "object", "additionalProperties": {"type": "array"}},
    },
    "required": ["url"],
}


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({"url": "x", "colour": 1}, "unknown key `p.colour`"),
        ({}, "`p.url` is required"),
        ({"url": ""}, "`p.url` must not be empty"),
        ({"url": 3}, "`p.url` must be a string, not an integer"),
        ({"url": "x", "retries": True}, "`p.retries` must be an integer, not true or false"),
        ({"url": "x", "retries": 9}, "`p.retries` must be at most 5"),
        ({"url": "x", "retries": -1}, "`p.retries` must be at least 0"),
        ({"url": "x", "ratio": "1"}, "`p.ratio` must be a number, not a string"),
        ({"url": "x", "on": "yes"}, "`p.on` must be true or false, not a string"),
        ({"url": "x", "events": "a"}, "`p.events` must be a list, not a string"),
        ({"url": "x", "events": ["a", "c"]}, "`p.events[1]` must be one of 'a', 'b', not 'c'"),
        ({"url": "x", "rules": {"k": 1}}, "`p.rules.k` must be a list, not an integer"),
        ([], "`p` must be a table, not a list"),
    ],
)
def test_problems_name_the_key(value: Any, problem: str) -> None:
    _, problems = validate(value, SCHEMA, "p")
    assert problem in [p.message for p in problems]


def test_valid_options_get_their_defaults_and_are_frozen() -> None:
    options, problems = validate({"url": "x", "events": ["a"], "ratio": 1}, SCHEMA, "p")
    assert problems == []
    assert options == {"url": "x", "events": ("a",), "ratio": 1, "retries": 2}
    with pytest.raises(TypeError):
        options["url"] = "y"


def test_a_keyword_the_validator_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="pattern"):
        check_schema({"type": "object", "properties": {"url": {"pattern": "^https://"}}})
