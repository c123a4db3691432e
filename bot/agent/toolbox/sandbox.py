"""Confinement of every path a tool touches to the repository, and bounded reads of what a
model may have written.

A path is resolved (``..`` and symlinks too) and must land inside the repository root
(:class:`Sandbox`).  Reads never enter a ``.git`` directory (its ``config`` may hold
credentials).  Writes must also match ``implement.allowed_paths`` and none of
``implement.protected_paths`` (``.git/**`` and ``.github/workflows/**`` by default).

Every read of a path a model's command could have written goes through
:func:`read_bounded`: never through a link, never a special file.  The last component is
opened with ``O_NOFOLLOW`` (and ``O_NONBLOCK``: a FIFO cannot hang the bot), the path
must resolve to itself (no symlinked parent), the opened file must be a regular file
with one link, and no more than ``cap`` bytes are ever read — a 600 MB sparse file is
refused from its size, not read.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bot.core.errors import PermissionDenied, ValidationError

OUTSIDE = "is outside the repository"
PROTECTED = "is protected (implement.protected_paths)"
NOT_ALLOWED = "is not in implement.allowed_paths"
PRIVATE = "is inside `.git/`, which tools never read"
UNREADABLE = ("**/.git/**",)
"""Never read, whatever the configuration: git's own files, remotes and credentials."""


@dataclass(frozen=True)
class Sandbox:
    """The repository root and the globs that bound what tools may write."""

    root: Path
    allowed_paths: tuple[str, ...] = ("**",)
    protected_paths: tuple[str, ...] = (".git/**", ".github/workflows/**")

    def resolve(self, path: str) -> Path:
        """The absolute, symlink-free path of ``path``; PermissionDenied when outside."""
        if not path or "\x00" in path:
            raise ValidationError("a non-empty path is required")
        root = self.root.resolve()
        target = (root / path).resolve()
        if target != root and not target.is_relative_to(root):
            raise PermissionDenied(f"`{path}` {OUTSIDE}", hint="use a path inside the repository")
        return target

    def relative(self, target: Path) -> str:
        """The posix path of a resolved ``target`` relative to the root ("." for the root)."""
        return target.relative_to(self.root.resolve()).as_posix()

    def readable(self, path: str) -> Path:
        """Like :meth:`resolve`, and the path must not be inside a ``.git`` directory."""
        target = self.resolve(path)
        if matches_any(self.relative(target), UNREADABLE):
            raise PermissionDenied(f"`{path}` {PRIVATE}")
        return target

    def writable(self, path: str) -> Path:
        """Like :meth:`resolve`, and the path must be allowed and not protected."""
        target = self.resolve(path)
        rel = self.relative(target)
        if matches_any(rel, self.protected_paths):
            raise PermissionDenied(f"`{rel}` {PROTECTED}")
        if not matches_any(rel, self.allowed_paths):
            raise PermissionDenied(f"`{rel}` {NOT_ALLOWED}")
        return target


def matches_any(rel: str, globs: Sequence[str]) -> bool:
    """Does ``rel`` (or a directory holding it, for ``dir/**``) match one of ``globs``?"""
    return any(_glob_regex(g).fullmatch(rel) for g in globs)


@lru_cache(maxsize=128)
def _glob_regex(glob: str) -> re.Pattern[str]:
    """``**`` crosses directories, ``*`` and ``?`` stay inside one; ``a/**`` matches ``a``."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("/**", i) and i + 3 == len(glob):
            out.append("(?:/.*)?")
            i += 3
        elif glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            out.append({"*": "[^/]*", "?": "[^/]"}.get(glob[i], re.escape(glob[i])))
            i += 1
    return re.compile("".join(out), re.DOTALL)


def write_text(target: Path, text: str) -> None:
    """Write atomically (temp file in the same directory, then rename)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
