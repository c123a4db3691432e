"""The copy the model works in: its tools and its commands never touch the checkout.

:func:`opened` copies the repository's files (tracked and untracked-but-not-ignored, as
``git ls-files`` lists them; every file outside ``.git`` when there is no git) into a
temporary directory outside the checkout, remembering each one's digest.  The model's file
tools and every command (isolated, :mod:`bot.agent.isolation`) act on that copy; the bot's
own state — items, results, summaries, locks — stays in the checkout, where nothing the
model drives can write.  Afterwards :mod:`bot.agent.copy_changes` takes what changed in the
copy, as data, back into the checkout.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.core.errors import ValidationError

Entry = tuple[str, str]
"""``("file", sha256)``, ``("exec", sha256)`` or ``("link", target)``."""
SKIP_DIRS = frozenset({".git", ".venv", "node_modules", "__pycache__", ".mypy_cache"})
"""Not copied from a directory without git (git's own ignore rules decide otherwise)."""
LIST_FAILED = "listing the files of {root}: `git ls-files` failed: {error}"
CHUNK = 1 << 20


@dataclass(frozen=True)
class WorkCopy:
    path: Path
    """The copy's root (a fresh temporary directory)."""
    entries: Mapping[str, Entry]
    """What the copy held when it was made, by posix path."""


@contextmanager
def opened(root: Path) -> Iterator[WorkCopy]:
    """A fresh copy of the files of ``root``, removed afterwards."""
    place = Path(tempfile.mkdtemp(prefix="rfd-work-")).resolve()
    try:
        copy = place / "repo"
        copy.mkdir()
        yield WorkCopy(copy, _fill(root.resolve(), copy))
    finally:
        shutil.rmtree(place, ignore_errors=True)


def _fill(root: Path, copy: Path) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for rel in _listed(root):
        source, target = root / rel, copy / rel
        info = os.lstat(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        if stat.S_ISLNK(info.st_mode):
            link = os.readlink(source)
            target.symlink_to(link)
            entries[rel] = ("link", link)
        elif stat.S_ISREG(info.st_mode):
            shutil.copyfile(source, target, follow_symlinks=False)
            executable = bool(info.st_mode & 0o111)
            if executable:
                target.chmod(0o755)
            entries[rel] = ("exec" if executable else "file", digest(target))
    return entries


def _listed(root: Path) -> list[str]:
    """The files to copy: git's tracked and untracked-not-ignored ones, else every file."""
    if not (root / ".git").exists():
        return _walked(root)
    argv = [
        "git",
        "-c",
        "core.hooksPath=/dev/null",
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
    ]
    done = subprocess.run(argv, cwd=root, capture_output=True, check=False)
    if done.returncode:
        error = done.stderr.decode(errors="replace").strip()
        raise ValidationError(LIST_FAILED.format(root=root, error=error))
    names = {os.fsdecode(n) for n in done.stdout.split(b"\0") if n}
    return sorted(n for n in names if os.path.lexists(root / n) and not _under_link(root, n))


def _under_link(root: Path, rel: str) -> bool:
    parent = (root / rel).parent
    return os.path.realpath(parent) != str(parent)


def _walked(root: Path) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        here = Path(dirpath)
        found += [(here / n).relative_to(root).as_posix() for n in filenames]
        found += [
            (here / d).relative_to(root).as_posix() for d in dirnames if (here / d).is_symlink()
        ]
    return sorted(found)


def digest(path: Path) -> str:
    """The sha256 of a regular file, read in chunks without following a link."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    sha = hashlib.sha256()
    with os.fdopen(fd, "rb") as fh:
        while chunk := fh.read(CHUNK):
            sha.update(chunk)
    return sha.hexdigest()
