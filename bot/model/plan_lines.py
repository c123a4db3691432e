"""Where in ``plan.json``'s text a phase, or one of its keys, starts: the line a schema
error points at.

Only asked once the plan has failed validation, so one scan over the text is cheap.
The text is valid JSON by then (a syntax error carries its own line).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

_TOKEN = re.compile(
    r""""(?:[^"\\]|\\.)*"     # a string, escapes included
      | [\[\]{},:]            # structure; numbers and literals are not needed""",
    re.VERBOSE | re.DOTALL,
)


def line_of(text: str, index: int | None = None, key: str | None = None) -> int:
    """The 1-based line of phase ``index`` (its ``key`` when given, and found); the line of
    the document's first value when ``index`` is None or not found."""
    pos = _skip(text, 0)
    if index is not None:
        start = _element(text, index)
        if start is not None:
            pos = start
            found = _key(text, start, key) if key is not None else None
            pos = found if found is not None else pos
    return text.count("\n", 0, pos) + 1


def _skip(text: str, pos: int) -> int:
    """``pos`` moved past whitespace."""
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _tokens(text: str, start: int = 0) -> Iterator[tuple[int, re.Match[str]]]:
    """Each token from ``start`` with the depth it is at (an opening bracket counts
    inside, a closing one outside)."""
    depth = 0
    for token in _TOKEN.finditer(text, start):
        char = token.group()
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        yield depth, token


def _element(text: str, index: int) -> int | None:
    """Where item ``index`` of the top-level array starts."""
    seen = -1
    for depth, token in _tokens(text):
        if depth == 1 and token.group() in "[,":
            seen += 1
            if seen == index:
                return _skip(text, token.end())
        elif depth <= 0:
            return None
    return None


def _key(text: str, start: int, key: str) -> int | None:
    """Where ``key`` of the object starting at ``start`` is written."""
    tokens = _tokens(text, start)
    previous: tuple[int, re.Match[str]] | None = None
    for depth, token in tokens:
        if depth <= 0:
            return None
        if token.group() == ":" and previous is not None and previous[0] == 1:
            name = previous[1].group()
            if name.startswith('"') and json.loads(name) == key:
                return previous[1].start()
        previous = depth, token
    return None
