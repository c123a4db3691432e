"""Phases written as a numbered list in an Implementation Plan section — the other way
teams write plans (the raw material of :mod:`bot.model.plan` when there is no phase heading)::

    1. **Widen the parser** so that it reads both forms.
       More about it, indented.
    2. **Switch the writers** — every caller moves.

Each top-level item whose text starts with a bold title is one phase, labelled by its
number; the rest of the item is its description.  Items inside code blocks and comments
do not count; a list without a bold title on every item is not read as a plan.  Pure.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_ITEM_RE = re.compile(
    r"""^(?P<number>[0-9]{1,3})[.)][ \t]+              # 1.  or 1)
    \*\*(?P<title>[^*]+?)\*\*                           # **Widen the parser**
    [ \t]*(?:[:—–.-][ \t]*)?(?P<rest>.*)$               # : rest of the first line
    """,
    re.VERBOSE,
)
_ANY_ITEM_RE = re.compile(r"^[0-9]{1,3}[.)][ \t]")
_HEADING_RE = re.compile(r"^#{1,6}[ \t]")


class ListPhase(NamedTuple):
    label: str
    title: str
    description: str


def numbered_phases(body: str) -> list[ListPhase]:
    """The phases of the first numbered list in ``body`` (empty when there is none, or
    when one of its items has no bold title)."""
    from bot.model.markdown import LineKind, content, iter_kinds, split_lines  # not for plan.json

    lines = [content(line) for line in split_lines(body)]
    kinds = list(iter_kinds(lines))
    phases: list[ListPhase] = []
    current: list[str] | None = None
    for line, kind in zip(lines, kinds, strict=True):
        if kind is not LineKind.TEXT:
            continue
        if _ANY_ITEM_RE.match(line):
            match = _ITEM_RE.match(line)
            if match is None:
                return []  # a numbered list, but not one of titled phases
            current = [match["rest"]]
            phases.append(ListPhase(match["number"], match["title"].strip(), ""))
            _describe(phases, current)
        elif _HEADING_RE.match(line) and phases:
            break
        elif current is not None:
            current.append(line.strip())
            _describe(phases, current)
    return phases


def _describe(phases: list[ListPhase], text: list[str]) -> None:
    description = "\n".join(text).strip()
    phases[-1] = phases[-1]._replace(description=re.sub(r"\n{3,}", "\n\n", description))
