"""Relative Markdown links, re-aimed when an RFD file moves (``drafts/D2-x.md`` → ``002-x.md``).

Only link targets change: inline links and images (``[t](target "title")``) and
link reference definitions (``[t]: target``).  Absolute URLs, ``/rooted`` paths and
``#anchors`` are left alone, and so are fenced code blocks, which hold examples.
Paths are repository-relative posix strings, so this stays pure (no file system).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from bot.model.markdown import LineKind, line_kinds, split_lines

_INLINE = re.compile(r"(?P<lead>\]\(\s*<?)(?P<target>[^()<>\s]+)")
_DEFINITION = re.compile(r"^(?P<lead>[ ]{0,3}\[(?!\^)[^\]]+\]:[ \t]*<?)(?P<target>[^<>\s]+)")
# (``[^1]: text`` is a footnote, not a link definition)
_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#)")

Retarget = Callable[[str], str | None]
"""Maps a link's path part to its new path part, or None to leave the link as it is."""


def rewrite_targets(text: str, retarget: Retarget) -> str:
    """``text`` with every relative link target passed through ``retarget``."""
    lines = split_lines(text)
    for index, kind in enumerate(line_kinds(lines)):
        if kind is not LineKind.CODE:
            line = _DEFINITION.sub(lambda m: _sub(m, retarget), lines[index])
            lines[index] = _INLINE.sub(lambda m: _sub(m, retarget), line)
    return "".join(lines)


def _sub(match: re.Match[str], retarget: Retarget) -> str:
    target = match["target"]
    if _EXTERNAL.match(target):
        return match[0]
    path, sep, rest = _split_suffix(target)
    new = retarget(path) if path else None
    if new is not None and path.startswith("./") and not new.startswith("../"):
        new = f"./{new}"  # the repository writes "./x.md": so does the re-aimed link
    return match["lead"] + (new + sep + rest if new is not None else target)


def _split_suffix(target: str) -> tuple[str, str, str]:
    """``"a.md#x"`` → ``("a.md", "#", "x")``; the anchor or query is kept as it is."""
    cut = min((i for i in (target.find("#"), target.find("?")) if i >= 0), default=-1)
    return (target, "", "") if cut < 0 else (target[:cut], target[cut], target[cut + 1 :])


def mover(old_dir: str, new_dir: str, moved: tuple[str, str] | None = None) -> Retarget:
    """A ``Retarget`` for a file read from ``old_dir`` and now living in ``new_dir``.

    ``moved`` is ``(old path, new path)`` of the file that moved: links to it follow it.
    A link that keeps pointing at the same place is returned unchanged (None).
    """

    def retarget(path: str) -> str | None:
        resolved = posixpath.normpath(posixpath.join(old_dir, path))
        if resolved == ".." or resolved.startswith("../"):
            return None  # outside the repository: not ours to re-aim
        if moved is not None and resolved == moved[0]:
            resolved = moved[1]
        elif old_dir == new_dir:
            return None
        return posixpath.relpath(resolved, new_dir or ".")

    return retarget
