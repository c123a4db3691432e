"""PR branch content is data: a symbolic link in it is refused, never followed.

A link committed on a same-repository PR (a state file pointing at the job's
environment, a ``reviews`` directory pointing outside the checkout) would make the bot
send what it points at to the model, or write outside its worktree.  Before anything
is read, the RFD directory of the PR's checkout (RFDs, drafts, state) is walked
without following links; any link there stops the operation with an error naming it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from bot.core.errors import InvalidStructure

LINKED = (
    "is a symbolic link on the pull request's branch: the bot reads PR files as data and "
    "never follows a link"
)
LINKED_HINT = "replace the link by the file (or directory) itself, push, then retry"
MORE = " (and {n} more: {others})"


def links_in(root: Path, folders: Iterable[str]) -> list[str]:
    """Repository-relative paths of the symbolic links under ``folders`` of ``root``."""
    found: list[str] = []
    for folder in folders:
        top = root / folder
        if top.is_symlink():
            found.append(folder)
            continue
        for where, dirs, files in os.walk(top, followlinks=False):
            for name in (*dirs, *files):
                if os.path.islink(os.path.join(where, name)):
                    found.append(Path(where, name).relative_to(root).as_posix())
    return sorted(found)


def refuse_links(root: Path, folders: Iterable[str]) -> None:
    """InvalidStructure naming the first link under ``folders`` (the others counted)."""
    found = [repr(p)[1:-1] for p in links_in(root, folders)]  # control characters shown
    if found:
        more = MORE.format(n=len(found) - 1, others=", ".join(found[1:4])) if found[1:] else ""
        raise InvalidStructure(LINKED + more, path=found[0], hint=LINKED_HINT)
