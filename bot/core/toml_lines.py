"""Where a key is written in a TOML file — ``tomllib`` keeps no positions.

A plain scan of the text: table headers (``[a.b]``, ``[[a.b]]``) set the current table,
``key = value`` lines (dotted and quoted keys too) define ``table.key``.  Lines inside
multi-line strings are skipped.  When a key itself is not written (a required key that
is missing, a value inside an inline table) the closest parent that is written is
reported.  Pure functions.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\[?\s*(?P<name>[^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*(?P<key>(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')
    (?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*)\s*=""",
    re.VERBOSE,
)
_PART = re.compile(r"""[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'""")
_INDEX = re.compile(r"\[\d+\]")


def split_key(dotted: str) -> tuple[str, ...]:
    """``a."b.c".d`` → ``("a", "b.c", "d")``."""
    return tuple(part.strip("\"'") for part in _PART.findall(dotted))


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Every table and key the file writes → the (1-based) line it is first written on."""
    found: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if line.count(in_string) % 2:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header:
            table = split_key(header["name"])
            found.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            found.setdefault((*table, *split_key(key["key"])), number)
            rest = line[key.end() :]
            in_string = next((q for q in ('"""', "'''") if rest.count(q) % 2), None)
    return found


def line_of(text: str, dotted: str) -> int | None:
    """The line that writes ``dotted`` (``plugins.notify.events[1]`` → its ``events``),
    or its closest written parent; None when not even the top table is written."""
    lines = key_lines(text)
    parts = split_key(_INDEX.sub("", dotted))
    while parts:
        if parts in lines:
            return lines[parts]
        parts = parts[:-1]
    return None
