"""The top of an RFD: the ``# RFD 045: Title`` heading and the header field list.

    <!-- comments may come first -->
    # RFD 045: Layered Interrupt Handler Stack

    - **Status**: Discussion
    - **Authors:** Ada <ada@example.com>,
      Grace <grace@example.com>          (indented lines continue a field)

The header is the block of ``- **Key**: value`` / ``- **Key:** value`` lines right
after the heading (blank lines and comments may sit between them); it ends at the
first other line.  Everything here works on lines from :mod:`bot.model.markdown`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from bot.core.patterns import lazy
from bot.model.ids import RfdId
from bot.model.markdown import Heading, LazyMask, Mask, content

_TITLE_RE = lazy(
    r"""
    ^RFD[ \t-]*(?P<id>[Dd]?[0-9]{1,6})     # RFD 045 / RFD D32
    (?:[ \t]*[:—–-][ \t]*|[ \t]+|$)        # colon, em/en dash or hyphen (or just space)
    (?P<title>.*)$
    """,
    re.VERBOSE | re.IGNORECASE,
)

FIELD_RE = lazy(
    r"""
    ^(?P<lead>[ ]{0,3}(?:[-*+][ \t]+)?)    # list bullet (optional)
    \*\*(?P<key>[^*:\n]+?)                 # **Key
    (?P<colon>:\*\*|\*\*[ \t]*:)           # :**  or  **:
    (?P<space>[ \t]*)
    (?P<value>.*?)[ \t]*$
    """,
    re.VERBOSE,
)


class Field(NamedTuple):
    """One header field; ``line`` is 1-based, ``span`` the number of lines it takes."""

    key: str
    value: str
    line: int
    span: int = 1

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows tuple.index
        """0-based index of the field's first line."""
        return self.line - 1


def split_title(heading: str) -> tuple[RfdId | None, str]:
    """``"RFD 045: Title"`` → ``(045, "Title")``; ``"Title"`` → ``(None, "Title")``."""
    match = _TITLE_RE.match(heading)
    if match is None:
        return None, heading
    return RfdId.parse(match["id"]), match["title"].strip()


def find_title(found: Iterable[Heading]) -> Heading | None:
    """The document's ``#`` heading: the first level-1 heading."""
    return next((h for h in found if h.level == 1), None)


def scan_fields(lines: Sequence[str], start: int, mask: Mask | None = None) -> list[Field]:
    """The header fields in the block starting at 0-based line ``start``."""
    fields: list[Field] = []
    mask = LazyMask(lines) if mask is None else mask
    index = start
    while index < len(lines):
        line = content(lines[index])
        opaque = mask[index]
        match = None if opaque else FIELD_RE.match(line)
        if match is not None:
            span = _continuation(lines, mask, index + 1)
            fields.append(_field(match, lines, index, span))
            index += 1 + span
        elif opaque or not line.strip():
            index += 1
        else:
            break
    return fields


def _continuation(lines: Sequence[str], mask: Mask, index: int) -> int:
    """How many indented, non-field lines after a field line continue its value."""
    count = 0
    while index + count < len(lines):
        line = content(lines[index + count])
        # the cheap tests first: the line after a field is mostly the next field or blank
        if not line.strip() or not line[0].isspace():
            break
        if mask[index + count] or FIELD_RE.match(line):
            break
        count += 1
    return count


def _field(match: re.Match[str], lines: Sequence[str], index: int, extra: int) -> Field:
    if not extra:  # the usual one-line field
        return Field(match["key"].strip(), match["value"], index + 1, 1)
    parts = [match["value"], *(content(x).strip() for x in lines[index + 1 : index + 1 + extra])]
    value = " ".join(p for p in parts if p)
    return Field(match["key"].strip(), value, index + 1, 1 + extra)


@lru_cache(maxsize=4096)  # the same keys and titles, in every RFD a command reads
def normalize_key(key: str) -> str:
    return " ".join(key.split()).casefold()


def format_field(template: str | None, key: str, value: str) -> str:
    """A field line (without ending) in the style of ``template`` (another field line)."""
    match = FIELD_RE.match(template) if template else None
    if match is None:
        return f"- **{key}**: {value}".rstrip()
    colon = match["colon"]
    return f"{match['lead']}**{key}{colon}{match['space'] or ' '}{value}".rstrip()


def replace_value(line: str, value: str) -> str:
    """A field line (without ending) with its value replaced, everything else kept."""
    match = FIELD_RE.match(line)
    assert match is not None, line
    space = match["space"] or " "
    return f"{line[: match.start('space')]}{space}{value}".rstrip()


_HEADING_LINE_RE = lazy(
    r"""
    ^(?P<pre>[ ]{0,3}\#[ \t]+RFD[ \t-]*)    # "# RFD "
    (?P<id>[Dd]?[0-9]{1,6})
    (?P<sep>[ \t]*[:—–-][ \t]*|[ \t]+|$)    # the separator, kept as written
    (?P<title>.*?)[ \t]*$
    """,
    re.VERBOSE | re.IGNORECASE,
)


def rebuild_title(line: str, rfd_id: RfdId, title: str | None) -> str:
    """A heading line (without ending) with a new id and, unless None, a new title."""
    match = _HEADING_LINE_RE.match(line)
    if match is None:
        old = line.lstrip(" ").lstrip("#").strip()
        return f"# RFD {rfd_id}: {title if title is not None else old}".rstrip()
    new_title = match["title"] if title is None else title.strip()
    separator = match["sep"] if match["sep"].strip() else ": "
    head = f"{match['pre']}{rfd_id}"
    return f"{head}{separator}{new_title}" if new_title else head
