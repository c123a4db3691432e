"""RFD templates, shipped as package data: ``bot/templates/<category>.md``.

A template is an RFD with ``{id}``, ``{title}``, ``{authors}`` and ``{date}`` in its
header and guidance for the author in ``<!-- TODO: … -->`` comments.  Every ``##``
section of a category's template is required in RFDs of that category; a section
still holding only guidance is a *placeholder*.
"""

from __future__ import annotations

import os
import re
from functools import cache

from bot.core.errors import ValidationError
from bot.core.patterns import lazy
from bot.model.ids import RfdId
from bot.model.markdown import content, headings, split_lines

CATEGORIES = ("design", "decision", "guide", "process")
"""The categories ``rfd new`` offers, one template each."""

_VARIABLE_RE = lazy(r"\{(id|title|authors|date)\}")
_TODO_COMMENT_RE = lazy(r"<!--\s*TODO\b.*?-->", re.DOTALL | re.IGNORECASE)
_PLACEHOLDER_LINE_RE = lazy(
    r"""
    ^[ \t]*
    (?:\#{1,6}[ \t]+[^\n]*?[ \t:—–-])?   # a heading left as-is, e.g. "### Phase 1: TODO"
    (?:TODO|TBD|\.\.\.|…)                 # a placeholder word on its own
    [ \t]*$
    """,
    re.VERBOSE | re.IGNORECASE,
)


def normalize_category(category: str) -> str:
    """``"Design "`` → ``"design"``; ValidationError listing the categories otherwise."""
    name = category.strip().casefold()
    if name not in CATEGORIES:
        raise ValidationError(
            f"unknown category {category.strip()!r}", hint=f"use one of: {', '.join(CATEGORIES)}"
        )
    return name


@cache
def load(category: str) -> str:
    """The raw template of a category."""
    name = normalize_category(category)
    # Next to this module, in a wheel as in a checkout: ``importlib.resources`` would
    # cost rfd-lint ~10 ms of imports (zipfile, tempfile, ...) for the same file (and
    # pathlib ~5 ms more).
    path = os.path.join(os.path.dirname(__file__), f"{name}.md")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def render(category: str, rfd_id: RfdId | str, title: str, authors: str, date: str) -> str:
    """A new RFD: the template with its ``{variables}`` filled in (in one pass, so a
    title containing ``{date}`` stays as typed)."""
    values = {"id": str(rfd_id), "title": title.strip(), "authors": authors, "date": date}
    return _VARIABLE_RE.sub(lambda m: values[m[1]], load(category))


@cache
def required_sections(category: str) -> tuple[str, ...]:
    """The ``##`` section titles of a category's template, in order."""
    return tuple(h.title for h in headings(split_lines(load(category))) if h.level == 2)


def is_placeholder(text: str) -> bool:
    """True when ``text`` holds nothing but template guidance (or nothing at all)."""
    remaining = _TODO_COMMENT_RE.sub("", text)
    return all(
        not line.strip() or _PLACEHOLDER_LINE_RE.match(line)
        for line in map(content, split_lines(remaining))
    )


def placeholder_lines(text: str) -> list[int]:
    """1-based lines where template guidance (``<!-- TODO``) was left in."""
    return [text.count("\n", 0, m.start()) + 1 for m in _TODO_COMMENT_RE.finditer(text)]
