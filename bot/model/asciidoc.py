"""The header of an RFD written in AsciiDoc: document attributes and the ``=`` title.

    :showtitle:
    :state: discussion
    :discussion: https://github.com/org/rfd/pull/12
    :authors: Ada <ada@example.com>

    = RFD 12 Title

The attributes (``:key: value`` lines before the title, or right after it up to the first
blank line) are the header fields; an edit replaces one attribute's value on its line.
Sections (``==``) are AsciiDoc's own: rfd lists, shows and changes the state of these RFDs;
what reads Markdown sections (plan extraction) does not apply to them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.model.header import Field, normalize_key
from bot.model.markdown import content, ending, split_lines

ATTRIBUTE_RE = re.compile(
    r"^:(?P<key>[A-Za-z0-9_][A-Za-z0-9_ -]*):(?P<space>[ \t]*)(?P<value>.*?)[ \t]*$"
)
TITLE_RE = re.compile(r"^=[ \t]+(?P<title>\S.*?)[ \t]*$")


def is_asciidoc(path: str) -> bool:
    return path.endswith((".adoc", ".asciidoc"))


def scan(lines: Sequence[str]) -> tuple[tuple[Field, ...], int | None, str | None]:
    """``(attributes, 0-based index of the title line, title)``."""
    fields: list[Field] = []
    title_index: int | None = None
    title: str | None = None
    for index, raw in enumerate(lines):
        line = content(raw)
        attribute = ATTRIBUTE_RE.match(line)
        if attribute is not None:
            fields.append(Field(attribute["key"].strip(), attribute["value"], index + 1))
            continue
        if not line.strip() or line.startswith("//"):
            if title_index is not None and not line.strip():
                break  # the header ends at the first blank line after the title
            continue
        heading = TITLE_RE.match(line)
        if heading is None or title_index is not None:
            break
        title_index, title = index, heading["title"]
    return tuple(fields), title_index, title


def set_value(text: str, key: str, value: str, status_key: str | None) -> str:
    """``text`` with attribute ``key`` (``Status``: the status attribute) set to ``value``;
    a missing attribute is added after the last one."""
    lines = split_lines(text)
    fields, title_index, _ = scan(lines)
    wanted = normalize_key(status_key if normalize_key(key) == "status" and status_key else key)
    names = {wanted, wanted.replace(" ", "-")}
    existing = next((f for f in fields if normalize_key(f.key) in names), None)
    if existing is not None:
        line = lines[existing.index]
        match = ATTRIBUTE_RE.match(content(line))
        assert match is not None
        lines[existing.index] = f":{match['key']}:{match['space'] or ' '}{value}" + ending(line)
        return "".join(lines)
    after = fields[-1].index if fields else (title_index if title_index is not None else -1)
    eol = ending(lines[0]) if lines else "\n"
    lines.insert(after + 1, f":{'-'.join(key.lower().split())}: {value}{eol or chr(10)}")
    return "".join(lines)
