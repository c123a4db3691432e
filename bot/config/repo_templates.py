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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path  # (the hooks ask is_template and never import pathlib)

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


def found(rfd_dir: Path, pattern: str) -> dict[str, Path]:
    """The repository's templates under ``rfd_dir``, by category (the first file of each)."""
    folder = rfd_dir / type(rfd_dir)(pattern.strip("/")).parent
    if not pattern or not folder.is_dir():
        return {}
    prefix = folder.relative_to(rfd_dir).as_posix()
    out: dict[str, Path] = {}
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        category = category_of(path.name if prefix == "." else f"{prefix}/{path.name}", pattern)
        if category:
            out.setdefault(category, path)
    return out


def find(rfd_dir: Path, pattern: str, category: str) -> Path | None:
    """The repository's template for ``category`` under ``rfd_dir``, None when it has none."""
    return found(rfd_dir, pattern).get(category.casefold())
