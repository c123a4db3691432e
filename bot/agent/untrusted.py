"""Reading what a model may have written: bounded, never through a link, never a special file.

Every read of a path a model's command could have written goes through :func:`read_bounded`:
the last component is opened with ``O_NOFOLLOW`` (and ``O_NONBLOCK``: a FIFO cannot hang the
bot), the path must resolve to itself (no symlinked parent), the opened file must be a
regular file with one link, and no more than ``cap`` bytes are ever read — a 600 MB sparse
file is refused from its size, not read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bot.core.errors import PermissionDenied

LINK = "is a symbolic link (links are never followed, read or committed)"
PARENT_LINK = "lies under a symbolic link"
SPECIAL = "is not a regular file (a device, FIFO or socket)"
HARDLINK = "has another hard link (never read or committed)"
TOO_BIG = "is {size:,} bytes, over the limit of {cap:,} bytes per file"
GREW = "changed while it was read"


class Refused(PermissionDenied):
    """A path a model wrote that the bot will not read; ``reason`` completes "`path` …"."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"`{path}` {reason}")
        self.reason = reason


def read_bounded(path: Path, cap: int, shown: str | None = None) -> bytes:
    """The bytes of the regular file ``path`` (at most ``cap``); :class:`Refused` otherwise."""
    name = shown or str(path)
    if os.path.realpath(path.parent) != str(path.parent):
        raise Refused(name, PARENT_LINK)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if path.is_symlink():
            raise Refused(name, LINK) from exc
        raise
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        refusal = _refusal(info, cap)
        if refusal:
            raise Refused(name, refusal)
        data = fh.read(cap + 1)
    if len(data) != info.st_size:
        raise Refused(name, GREW)
    return data


def _refusal(info: os.stat_result, cap: int) -> str:
    if stat.S_ISLNK(info.st_mode):
        return LINK
    if not stat.S_ISREG(info.st_mode):
        return SPECIAL
    if info.st_nlink > 1:
        return HARDLINK
    if info.st_size > cap:
        return TOO_BIG.format(size=info.st_size, cap=cap)
    return ""


def refusal_of(path: Path, cap: int) -> str:
    """Why ``path`` (not followed) would be refused by :func:`read_bounded`; ``""``: readable."""
    info = os.lstat(path)
    return _refusal(info, cap)
