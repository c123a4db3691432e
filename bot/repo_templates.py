"""The repository's own RFD templates: recognising them, finding one, filling it in.

A team that ran RFDs before rfd-bot keeps its templates next to its RFDs
(``docs/rfd/000-design-template.md``) or in a directory (``docs/rfd/templates/*.md``).
``[rfd] templates`` is a glob relative to the RFD directory whose ``*`` is the category.
A file it matches is never an RFD (not listed, numbered or linted), and ``rfd new
<category>`` fills the matching one; rfd-bot's built-in templates are the fallback.
Recognising costs one compiled regex per pattern: the hooks and ``rfd list`` ask it
about every file name.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_CATEGORY = "(?P<category>[^/]+?)"


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``000-*-template.md`` → a regex whose first ``*`` is the category, others any text."""
    head, star, tail = pattern.strip("/").partition("*")
    if not star:
        return re.compile(re.escape(head))
    return re.compile(re.escape(head) + _CATEGORY + "[^/]*".join(map(re.escape, tail.split("*"))))


def is_template(relative: str, pattern: str) -> bool:
    """Is ``relative`` (a path under the RFD directory, e.g. ``000-design-template.md``) one
    of the repository's templates?"""
    return bool(pattern) and _compiled(pattern).fullmatch(relative) is not None


def category_of(relative: str, pattern: str) -> str | None:
    """The category a template path names (``000-design-template.md`` → ``design``)."""
    match = _compiled(pattern).fullmatch(relative) if pattern else None
    if match is None or "category" not in match.groupdict():
        return None
    return match["category"].casefold()


def find(rfd_dir: Path, pattern: str, category: str) -> Path | None:
    """The repository's template for ``category`` under ``rfd_dir``, None when it has none."""
    if not pattern:
        return None
    folder = rfd_dir / Path(pattern.strip("/")).parent
    try:
        names = sorted(p.name for p in folder.iterdir() if p.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return None
    prefix = folder.relative_to(rfd_dir).as_posix()
    for name in names:
        relative = name if prefix == "." else f"{prefix}/{name}"
        if category_of(relative, pattern) == category.casefold():
            return folder / name
    return None
