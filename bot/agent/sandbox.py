"""Confinement of every path a tool touches to the repository.

A path is resolved (``..`` and symlinks too) and must land inside the repository
root.  Reads never enter a ``.git`` directory (its ``config`` may hold credentials).
Writes must also match ``implement.allowed_paths`` and none of
``implement.protected_paths`` (``.git/**`` and ``.github/workflows/**`` by default).
"""

from __future__ import annotations

import os
import re
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
