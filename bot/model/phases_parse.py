"""Phase headings of an Implementation Plan section (the raw material of bot.model.plan).

Accepted, at heading level 2 to 4 (the shallowest level that has one wins)::

    ### Phase 1: Title            ### Phase 0: Groundwork
    ### Phase 3a: Title           ### Phase B — Title   (em or en dash, hyphen, dot)
    ### Phase 4 (optional): Title ### Phase 5: Title (deferred)
    ### Phase 2                   (no title)

Headings inside fenced code blocks and HTML comments do not count.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_PHASE_RE = re.compile(
    r"""
    ^Phase[ \t]+
    (?P<label>[0-9]+[a-z]?|[A-Z])\b                 # 1, 0, 3a, B
    [ \t]*(?:\((?P<before>[^)]*)\))?                # (optional) before the separator
    [ \t]*(?:[:—–.-][ \t]*)?                        # colon, em/en dash, hyphen, dot
    (?P<title>.*?)
    (?:[ \t]*\((?P<after>optional|deferred)\))?$    # or (optional) after the title
    """,
    re.VERBOSE | re.IGNORECASE,
)


class PhaseHeading(NamedTuple):
    """One phase: its label (``"1"``, ``"3a"``, ``"B"``), title, qualifier
    (``"optional"``, ``"deferred"`` or ``""``), 1-based line and description (the text
    up to the next phase or a heading of the same or a higher level, stripped)."""

    label: str
    title: str
    qualifier: str
    line: int
    description: str


def phase_headings(body: str, *, line_offset: int = 0) -> list[PhaseHeading]:
    """The phases in a section body.  ``line_offset``: how many lines of the file come
    before ``body`` (``Section.start``), so ``line`` is a line of the file."""
    from bot.model.markdown import headings, section_end, split_lines  # not for plan.json

    lines = split_lines(body)
    found = headings(lines)
    phases = [(pos, m) for pos, h in enumerate(found) if (m := _match(h.level, h.title))]
    if not phases:
        return []
    level = min(found[pos].level for pos, _ in phases)
    return [
        _heading_phase(
            match, lines, found[pos].index, section_end(found, pos, len(lines)), line_offset
        )
        for pos, match in phases
        if found[pos].level == level
    ]


def _match(level: int, title: str) -> re.Match[str] | None:
    return _PHASE_RE.match(title) if 2 <= level <= 4 else None


def _heading_phase(
    match: re.Match[str], lines: list[str], index: int, end: int, offset: int
) -> PhaseHeading:
    from bot.model.markdown import content

    qualifier = (match["before"] or match["after"] or "").strip().lower()
    description = "\n".join(content(line) for line in lines[index + 1 : end]).strip()
    label = match["label"]
    label = label.upper() if label.isalpha() else label.lower()
    return PhaseHeading(label, match["title"].strip(), qualifier, offset + index + 1, description)
