"""The little git the hooks need, through subprocess (~10 ms a call; GitPython costs ~100 ms
just to import).

Every function takes the repository root and returns text; blobs are read in one
``git cat-file --batch`` process however many there are.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

INDEX = ""
"""The revision prefix of the staged version (``:path``)."""

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
"""git's empty tree: the "parent" of a root commit."""

ZERO = "0" * 40


class GitFailed(RuntimeError):
    """git exited non-zero (the message is git's own stderr)."""


@dataclass(frozen=True)
class Change:
    """One changed path: ``kind`` is git's letter (A, M, D, R, C, T), ``old`` the path before."""

    kind: str
    path: str
    old: str


def run(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    proc = subprocess.run(["git", *args], cwd=root, input=stdin, capture_output=True, check=False)
    if proc.returncode != 0:
        raise GitFailed(proc.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed")
    return proc.stdout


def staged_changes(root: Path) -> list[Change]:
    """What ``git commit`` would record: the index against HEAD (renames detected)."""
    base = "HEAD" if has_head(root) else EMPTY_TREE
    return _name_status(run(root, "diff", "--cached", "--name-status", "-M", "-z", base))


def diff_changes(root: Path, old: str, new: str) -> list[Change]:
    """The changes between two commits (renames detected)."""
    return _name_status(run(root, "diff", "--name-status", "-M", "-z", old, new))


def _name_status(out: bytes) -> list[Change]:
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    changes: list[Change] = []
    i = 0
    while i + 1 < len(fields):
        kind = fields[i][:1]
        if kind in ("R", "C"):
            changes.append(Change(kind, fields[i + 2], fields[i + 1]))
            i += 3
        else:
            changes.append(Change(kind, fields[i + 1], fields[i + 1]))
            i += 2
    return changes


def has_head(root: Path) -> bool:
    try:
        run(root, "rev-parse", "-q", "--verify", "HEAD^{commit}")
    except GitFailed:
        return False
    return True


def commits(root: Path, old: str, new: str, limit: int = 0) -> list[tuple[str, str]]:
    """``(first parent, commit)`` of each commit in ``old..new`` (all of ``new`` when ``old``
    is empty or zeros: a new branch), oldest first; ``limit`` keeps the newest few."""
    spec = [new] if old in ("", ZERO) else [f"{old}..{new}"]
    count = [f"--max-count={limit}"] if limit else []
    out = run(root, "rev-list", *count, "--parents", *spec).decode()
    pairs = []
    for line in reversed(out.splitlines()):
        shas = line.split()
        pairs.append((shas[1] if len(shas) > 1 else EMPTY_TREE, shas[0]))
    return pairs


def push_range(environ: os._Environ[str] | dict[str, str]) -> tuple[str, str] | None:
    """The pushed range pre-commit gives a ``pre-push`` hook, if this is one."""
    old = environ.get("PRE_COMMIT_FROM_REF", "")
    new = environ.get("PRE_COMMIT_TO_REF", "")
    return (old, new) if new else None


def read_blobs(root: Path, specs: Sequence[str]) -> dict[str, bytes | None]:
    """``{"rev:path": content or None when missing}``; ``":path"`` is the staged version."""
    if not specs:
        return {}
    out = run(root, "cat-file", "--batch", stdin="".join(f"{s}\n" for s in specs).encode())
    result: dict[str, bytes | None] = {}
    pos = 0
    for spec in specs:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():  # "<spec> missing" / "ambiguous"
            result[spec] = None
            continue
        size = int(header[2])
        result[spec] = out[pos : pos + size] if header[1] == b"blob" else None
        pos += size + 1
    return result


def list_tree(root: Path, rev: str, paths: Iterable[str]) -> list[str]:
    """Files at or under ``paths`` in ``rev`` (``""``: the index), as repo-relative paths."""
    if rev == INDEX:
        out = run(root, "ls-files", "-z", "--", *paths)
    else:
        out = run(root, "ls-tree", "-r", "-z", "--name-only", rev, "--", *paths)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]
