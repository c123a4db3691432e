"""What changed, from the git history: new RFDs, status changes, accepted plans, finished
phases, and when each RFD last changed.

:func:`read_history` runs two ``git log`` commands over the RFD directory and one
``git cat-file --batch`` (the edge): the first log lists the files of every commit, the
second the commits that touched a line that may hold a status; the documents before and
after each of those are read from git and parsed, and only a status the document model reads
differently makes a change.  The parsers below turn this output into :class:`Change` records
(pure, tested on text).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.core.git_log import FORMAT, Commit, commits, git_output, read_blobs
from bot.model.ids import DOCUMENT_NAMES
from bot.model.status_moves import log_args, read_moves, rfd_of

_PHASE_FILE = re.compile(r"^phases/([^/]+)\.md$")


@dataclass(frozen=True)
class Change:
    """One event of an RFD's life, as the feed lists it."""

    commit: Commit
    rfd: str
    kind: str
    """``new``, ``status``, ``plan`` or ``phase``."""
    detail: str
    """``Discussion → Accepted``, the phase label, or the new RFD's path."""


@dataclass(frozen=True)
class History:
    changes: tuple[Change, ...]
    """Oldest first."""
    updated: dict[str, str]
    """RFD id → the date of the last commit that changed its file or its state files."""


def read_history(root: Path, rfd_dir: str, state_dir: str) -> History:
    """The history of ``rfd_dir`` in the repository at ``root`` (empty outside git).  The
    two logs run side by side: git lists the files while the statuses are parsed."""
    with _running(root, "log", "--reverse", FORMAT, "-M", "--name-status", "--", rfd_dir) as names:
        log = git_output(root, *log_args(rfd_dir, state_dir))
        moves = [
            Change(m.edit.commit, m.edit.rfd, "status", f"{m.old} → {m.new}")
            for m in read_moves(log, lambda blobs: read_blobs(root, blobs))
        ]
        added, updated = parse_names(names(), rfd_dir, state_dir)
    changes = sorted([*added, *moves], key=lambda c: c.commit.date)  # stable: git order kept
    return History(tuple(changes), updated)


@contextmanager
def _running(root: Path, *args: str) -> Iterator[Callable[[], str]]:
    """Git started now, in the background: the function given waits for it and returns its
    output ("" when it failed).  The output goes to a temporary file, so git runs on while
    nobody reads it."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(
            ["git", "-c", "core.quotepath=off", *args],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )

        def output() -> str:
            if proc.wait() != 0:
                return ""
            out.seek(0)
            return out.read().decode("utf-8", "replace")

        try:
            yield output
        finally:
            if proc.poll() is None:  # the build failed before it asked
                proc.kill()
            proc.wait()


def _owner(path: str, rfd_dir: str) -> str | None:
    """The RFD a file of its own directory belongs to (``rfd/0003/diagram.svg`` → ``0003``)."""
    folder, _, _ = path.rpartition("/")
    if folder.rpartition("/")[0] != rfd_dir.rstrip("/"):
        return None
    return rfd_of(f"{folder}/{DOCUMENT_NAMES[0]}")


def parse_names(text: str, rfd_dir: str, state_dir: str) -> tuple[list[Change], dict[str, str]]:
    """New RFDs, accepted plans and finished phases from ``git log --name-status``, and the
    date each RFD (by file or state directory) last changed."""
    changes: list[Change] = []
    updated: dict[str, str] = {}
    renamed: dict[str, str] = {}
    state = state_dir.rstrip("/") + "/"
    for commit, lines in commits(text):
        for line in lines:
            parts = line.split("\t")
            if len(parts) < 2:
                continue
            flag, path = parts[0], parts[-1]
            if path.startswith(state):
                key, _, rest = path[len(state) :].partition("/")
                updated[key] = commit.date
                if flag == "A":
                    changes += _state_change(commit, key, rest)
                continue
            rid = rfd_of(path)
            if rid is None or not path.startswith(rfd_dir.rstrip("/") + "/"):
                owner = _owner(path, rfd_dir)
                if owner is not None:
                    updated[owner] = commit.date
                continue
            updated[rid] = commit.date
            if flag == "A":
                changes.append(Change(commit, rid, "new", path))
            elif flag.startswith("R"):
                old = rfd_of(parts[1])
                if old is not None and old != rid:
                    renamed[old] = rid
    return [_current(c, renamed) for c in changes], updated


def _current(change: Change, renamed: dict[str, str]) -> Change:
    """The change under the id its RFD has now (a draft promoted: ``D60`` → ``032``)."""
    rid, seen = change.rfd, set()
    while rid in renamed and rid not in seen:
        seen.add(rid)
        rid = renamed[rid]
    return change if rid == change.rfd else Change(change.commit, rid, change.kind, change.detail)


def _state_change(commit: Commit, rid: str, rest: str) -> list[Change]:
    if rest == "plan.json":
        return [Change(commit, rid, "plan", "")]
    phase = _PHASE_FILE.match(rest)
    return [Change(commit, rid, "phase", phase[1])] if phase else []
