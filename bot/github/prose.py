"""The lines of a comment a reader sees as plain prose, found by a CommonMark parser.

A ``/rfd`` command runs only when a person reading the comment on GitHub sees it
as text of its own paragraph.  Whatever GitHub would show differently never
counts: code (fenced with backticks or tildes, nested or not, or indented),
HTML blocks (``<pre>``, ``<details>``… and comments, an unclosed ``<!--`` hiding
the rest of the comment), quotes (with their lazy continuation lines), list items,
and HTML comments inside a paragraph.  Lines end only where markdown ends them
(``\\n``, ``\\r``): U+2028, U+2029 and other separators never split a line in two.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

_BREAKS = ("softbreak", "hardbreak")
_HIDDEN = "\x00"
"""Stands for anything in a line that is not plain text (no command starts with it)."""


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def prose_lines(body: str) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each line of the top-level paragraphs, as a reader sees it."""
    tokens = _parser().parse(body)
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.level != 0 or token.map is None:
            continue
        inline = tokens[index + 1]
        for offset, text in enumerate(_lines(inline.children or [])):
            yield token.map[0] + 1 + offset, text


def _lines(children: Sequence[Token]) -> list[str]:
    """The paragraph's lines: text as shown, anything else (markup, code, HTML) hidden."""
    lines = [""]
    for child in children:
        if child.type in _BREAKS:
            lines.append("")
        elif child.type == "text":
            lines[-1] += child.content
        else:
            lines[-1] += _HIDDEN
            lines.extend(_HIDDEN for _ in range(child.content.count("\n")))
    return lines
