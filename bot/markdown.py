"""The little Markdown structure the RFD parser and editors need, done byte-exactly.

Text is split into lines *with* their endings (``\\n`` or ``\\r\\n``, only ``\\n``
splits), so joining the lines gives back the original text byte for byte.  Headings
inside fenced code blocks and HTML comment blocks are not headings.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

_HEADING_RE = re.compile(
    r"""
    ^[ ]{0,3}
    (?P<hashes>\#{1,6})             # ATX heading: 1 to 6 hashes ...
    (?:[ \t]+(?P<title>.*?))?       # ... a space and the title (may be empty)
    (?:[ \t]+\#+)?                  # optional closing hashes
    [ \t]*$
    """,
    re.VERBOSE,
)
_FENCE_RE = re.compile(r"^[ ]{0,3}(?P<fence>`{3,}|~{3,})")
_COMMENT_OPEN_RE = re.compile(r"^[ ]{0,3}<!--")


@dataclass(frozen=True)
class Heading:
    """An ATX heading: its level, its title and the 0-based index of its line."""

    level: int
    title: str
    index: int


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


def line_kinds(lines: list[str]) -> list[LineKind]:
    """What each line is: text, part of a fenced code block, or of an HTML comment."""
    kinds: list[LineKind] = []
    fence = ""
    in_comment = False
    for raw in lines:
        line = content(raw)
        if fence:
            kinds.append(LineKind.CODE)
            fence = "" if _closes_fence(line, fence) else fence
        elif in_comment:
            kinds.append(LineKind.COMMENT)
            in_comment = "-->" not in line
        elif match := _FENCE_RE.match(line):
            kinds.append(LineKind.CODE)
            fence = match["fence"]
        elif _COMMENT_OPEN_RE.match(line):
            kinds.append(LineKind.COMMENT)
            in_comment = "-->" not in line[line.index("<!--") + 4 :]
        else:
            kinds.append(LineKind.TEXT)
    return kinds


def opaque_mask(lines: list[str]) -> list[bool]:
    """For each line: True when it is inside a fenced code block or an HTML comment block."""
    return [kind is not LineKind.TEXT for kind in line_kinds(lines)]


def _closes_fence(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (
        len(line) - len(line.lstrip(" ")) <= 3
        and len(stripped) >= len(fence)
        and set(stripped) == {fence[0]}
    )


def parse_heading(line: str) -> tuple[int, str] | None:
    """``"## Summary"`` → ``(2, "Summary")``; None when the line is no heading."""
    match = _HEADING_RE.match(content(line).lstrip("\ufeff"))  # a byte-order mark
    if match is None:
        return None
    return len(match["hashes"]), (match["title"] or "").strip()


def headings(lines: list[str], mask: list[bool] | None = None) -> list[Heading]:
    """Every heading outside code blocks and comments (``mask``: see opaque_mask), in order."""
    found: list[Heading] = []
    mask = opaque_mask(lines) if mask is None else mask
    for index, (line, opaque) in enumerate(zip(lines, mask, strict=True)):
        parsed = None if opaque else parse_heading(line)
        if parsed is not None:
            found.append(Heading(parsed[0], parsed[1], index))
    return found


def section_end(found: list[Heading], position: int, total: int) -> int:
    """0-based index (exclusive) where the section of ``found[position]`` ends."""
    level = found[position].level
    for heading in found[position + 1 :]:
        if heading.level <= level:
            return heading.index
    return total


def normalize_title(title: str) -> str:
    """Titles compare case-insensitively, ignoring surrounding and repeated spaces."""
    return " ".join(title.split()).casefold()
