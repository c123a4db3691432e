"""The anchors GitHub gives a markdown file's headings, so a link can open a section.

GitHub shows ``## Design`` at ``…/blob/<sha>/<path>#design``: the heading's text as
rendered (inline markup gone), lower-cased, every character that is not a letter, a
mark, a digit, ``_``, ``-`` or a space dropped, each space a ``-``; a repeated heading
gets ``-1``, ``-2``… (the rules of ``github-slugger``, which GitHub's renderer follows).
Pure: markdown text in, ``{heading text: anchor}`` out.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise

_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
"""``3. Design`` or ``2.1 Goals``: a numbered heading, found by its name too."""


def slug(text: str) -> str:
    """GitHub's anchor of a heading whose rendered text is ``text`` (without a suffix)."""
    kept = (c for c in text.strip().lower() if c in " -_" or _word_char(c))
    return "".join(kept).replace(" ", "-")


def _word_char(char: str) -> bool:
    return unicodedata.category(char)[0] in "LMN" or unicodedata.category(char) == "Pc"


def headings(text: str) -> list[str]:
    """The rendered text of every heading of ``text``, in order (ATX and setext)."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    found = []
    for opened, inline in pairwise(tokens):
        if opened.type == "heading_open" and inline.children is not None:
            found.append("".join(t.content for t in inline.children
                                 if t.type in ("text", "code_inline")))  # fmt: skip
    return found


def listed(text: str) -> list[tuple[str, str]]:
    """Each heading of ``text`` and its anchor, in order (a repeat numbered as GitHub does)."""
    occurrences: dict[str, int] = {}
    out = []
    for heading in headings(text):
        anchor = base = slug(heading)
        while anchor in occurrences:  # github-slugger: "a", "a-1", "a-2"…, never one twice
            occurrences[base] += 1
            anchor = f"{base}-{occurrences[base]}"
        occurrences[anchor] = 0
        out.append((heading, anchor))
    return out


def anchors(text: str) -> dict[str, str]:
    """Each heading of ``text`` (lower-cased; a numbered one also by its bare name) and the
    anchor GitHub gives it; a repeated heading keeps its first anchor."""
    out: dict[str, str] = {}
    for heading, anchor in listed(text):
        for name in (heading.strip().lower(), _NUMBERED.sub("", heading.strip()).lower()):
            out.setdefault(name, anchor)
    return out
