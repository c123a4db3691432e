"""Rewriting references to an RFD id, e.g. when draft D32 becomes RFD 046.

Rewritten: ``RFD D32`` (also inside ``[RFD D32]`` links and link definitions),
file names ``D32-slug.md`` → ``046-slug.md`` (the directory part of a link is
kept) and, for draft ids only, a bare ``D32`` word.  Bare published numbers
(``045``) are too ambiguous to rewrite.  Fenced code blocks are left alone: they
hold examples, not references.
"""

from __future__ import annotations

import re

from bot.model.ids import RfdId
from bot.model.markdown import LineKind, line_kinds, split_lines


def _patterns(old: RfdId, new: RfdId) -> list[tuple[re.Pattern[str], str]]:
    number = rf"0*{old.number}(?!\w)"
    if old.draft:
        # RFD D32, [RFD D32], D32-slug.md and the bare word D32 all start with D32.
        return [(re.compile(rf"(?<![\w-])D{number}"), str(new))]
    return [
        (re.compile(rf"(?<![\w-])(RFD[ \t-]*){number}", re.IGNORECASE), rf"\g<1>{new}"),
        (re.compile(rf"(?<![\w.-]){number}(?=-[\w.-]*\.md\b)"), str(new)),
    ]


def replace_id_references(text: str, old: RfdId, new: RfdId) -> str:
    """Every reference to ``old`` outside fenced code blocks rewritten to ``new``."""
    patterns = _patterns(old, new)
    lines = split_lines(text)
    for index, kind in enumerate(line_kinds(lines)):
        if kind is not LineKind.CODE:
            for pattern, replacement in patterns:
                lines[index] = pattern.sub(replacement, lines[index])
    return "".join(lines)
