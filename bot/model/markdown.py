"""The little Markdown structure the RFD parser and editors need, done byte-exactly.

Text is split into lines *with* their endings (``\\n`` or ``\\r\\n``, only ``\\n``
splits), so joining the lines gives back the original text byte for byte.  Headings
inside fenced code blocks and HTML comment blocks are not headings.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol

from bot.core.patterns import lazy

_HEADING_RE = lazy(
    r"""
    ^[ ]{0,3}
    (?P<hashes>\#{1,6})             # ATX heading: 1 to 6 hashes ...
    (?:[ \t]+(?P<title>.*?))?       # ... a space and the title (may be empty)
    (?:[ \t]+\#+)?                  # optional closing hashes
    [ \t]*$
    """,
    re.VERBOSE,
)
_FENCE_RE = lazy(r"^[ ]{0,3}(?P<fence>`{3,}|~{3,})")
_COMMENT_OPEN_RE = lazy(r"^[ ]{0,3}<!--")
_OPENERS = ("`", "~", "<")
_HEADING_STARTS = ("#", "\ufeff")


class Mask(Protocol):
    """Anything telling whether line ``index`` is opaque (code or comment)."""

    def __getitem__(self, index: int) -> bool: ...


class Heading(NamedTuple):
    """An ATX heading: its level, its title and the 0-based index of its line."""

    level: int
    title: str
    index: int  # type: ignore[assignment]  # the line's index; shadows tuple.index


def split_lines(text: str) -> list[str]:
    """Lines with their endings; ``"".join(split_lines(t)) == t`` always."""
    lines = text.split("\n")
    last = lines.pop()
    result = [line + "\n" for line in lines]
    if last:
        result.append(last)
    return result


def content(line: str) -> str:
    """A line without its ending."""
    return line.removesuffix("\n").removesuffix("\r")


def ending(line: str) -> str:
    """The ending of a line: ``"\\r\\n"``, ``"\\n"`` or ``""`` for a last line without one."""
    return line[len(content(line)) :]


def eol_of(text: str) -> str:
    """The line ending a document uses (that of its first line; ``\\n`` by default)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


class LineKind(enum.Enum):
    TEXT = "text"
    CODE = "code"  # inside a fenced code block, fences included
    COMMENT = "comment"  # inside an HTML comment block starting a line


def iter_kinds(lines: Iterable[str]) -> Iterator[LineKind]:
    """What each line is: text, part of a fenced code block, or of an HTML comment (a
    YAML front matter block, ``---`` … ``---`` at the very top, counts as a comment)."""
    rest = iter(lines)
    first = next(rest, None)
    if first is not None and content(first) == "---":
        yield LineKind.COMMENT
        for raw in rest:
            yield LineKind.COMMENT
            if content(raw).rstrip() in ("---", "..."):
                break
    elif first is not None:
        rest = itertools.chain([first], rest)
    yield from _body_kinds(rest)


def _body_kinds(lines: Iterable[str]) -> Iterator[LineKind]:
    fence = ""
    in_comment = False
    for raw in lines:
        first = raw.lstrip(" ")[:1]  # cheap test first: most lines are plain text
        if fence:
            yield LineKind.CODE
            fence = "" if first == fence[0] and _closes_fence(content(raw), fence) else fence
        elif in_comment:
            yield LineKind.COMMENT
            in_comment = "-->" not in raw
        elif first not in _OPENERS:
            yield LineKind.TEXT
        elif match := _FENCE_RE.match(raw):
            yield LineKind.CODE
            fence = match["fence"]
        elif _COMMENT_OPEN_RE.match(raw):
            yield LineKind.COMMENT
            in_comment = "-->" not in raw[raw.index("<!--") + 4 :]
        else:
            yield LineKind.TEXT


def line_kinds(lines: Sequence[str]) -> list[LineKind]:
    return list(iter_kinds(lines))


def opaque_mask(lines: Sequence[str]) -> list[bool]:
    """For each line: True when it is inside a fenced code block or an HTML comment block."""
    return [kind is not LineKind.TEXT for kind in iter_kinds(lines)]


class LazyMask:
    """``opaque_mask`` computed only as far as it is looked at (the header of a long
    document is near its top)."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._kinds = iter_kinds(lines)
        self._mask: list[bool] = []

    def __getitem__(self, index: int) -> bool:
        while len(self._mask) <= index:
            self._mask.append(next(self._kinds) is not LineKind.TEXT)
        return self._mask[index]


def _closes_fence(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (
        len(line) - len(line.lstrip(" ")) <= 3
        and len(stripped) >= len(fence)
        and set(stripped) == {fence[0]}
    )


@lru_cache(maxsize=4096)  # "## Summary", "## Motivation"…: the same lines in every RFD
def parse_heading(line: str) -> tuple[int, str] | None:
    """``"## Summary"`` → ``(2, "Summary")``; None when the line is no heading."""
    match = _HEADING_RE.match(content(line).lstrip("\ufeff"))  # a byte-order mark
    if match is None:
        return None
    return len(match["hashes"]), (match["title"] or "").strip()


def iter_headings(lines: Sequence[str], mask: Mask | None = None) -> Iterator[Heading]:
    """Every heading outside code blocks and comments (``mask``: see opaque_mask), in order."""
    mask = opaque_mask(lines) if mask is None else mask
    for index, line in enumerate(lines):
        if line.lstrip(" ")[:1] in _HEADING_STARTS and not mask[index]:
            parsed = parse_heading(line)
            if parsed is not None:
                yield Heading(parsed[0], parsed[1], index)


def headings(lines: Sequence[str], mask: Mask | None = None) -> list[Heading]:
    return list(iter_headings(lines, mask))


_MAY_START_HEADING = re.compile(r"^[ ]*[#\ufeff]", re.MULTILINE)  # iter_headings' first test
_OPAQUE_OPENERS = ("```", "~~~", "<!--")
"""Every fence and comment opening holds one of these: a text without any is all text."""


def kinds_of(text: str, lines: Sequence[str]) -> tuple[LineKind, ...]:
    """``iter_kinds(lines)`` of ``lines = split_lines(text)``, at once when ``text`` can hold
    no code block, comment or front matter (most RFDs' lines are all text)."""
    if text.startswith("---") or any(opener in text for opener in _OPAQUE_OPENERS):
        return tuple(iter_kinds(lines))
    return (LineKind.TEXT,) * len(lines)


def headings_of(text: str, lines: Sequence[str], kinds: Sequence[LineKind]) -> list[Heading]:
    """``iter_headings`` of ``lines = split_lines(text)`` outside code and comments (their
    ``kinds``), looking only at the lines a heading can start (found by one search)."""
    found: list[Heading] = []
    index = at = 0
    for match in _MAY_START_HEADING.finditer(text):
        index += text.count("\n", at, match.start())
        at = match.start()
        if kinds[index] is LineKind.TEXT and (parsed := parse_heading(lines[index])):
            found.append(Heading(parsed[0], parsed[1], index))
    return found


def section_end(found: list[Heading], position: int, total: int) -> int:
    """0-based index (exclusive) where the section of ``found[position]`` ends."""
    level = found[position].level
    for heading in found[position + 1 :]:
        if heading.level <= level:
            return heading.index
    return total


def section_ends(found: Sequence[Heading], total: int) -> list[int]:
    """:func:`section_end` of every heading of ``found``, in one pass: a heading ends the
    open sections of its level and deeper (the open ones' levels rise, so they are on top)."""
    ends = [total] * len(found)
    open_sections: list[int] = []
    for position, heading in enumerate(found):
        while open_sections and found[open_sections[-1]].level >= heading.level:
            ends[open_sections.pop()] = heading.index
        open_sections.append(position)
    return ends


@lru_cache(maxsize=4096)  # the same keys and titles, in every RFD a command reads
def normalize_title(title: str) -> str:
    """Titles compare case-insensitively, ignoring surrounding and repeated spaces."""
    return " ".join(title.split()).casefold()
