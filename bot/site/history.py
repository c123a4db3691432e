"""What changed, from the git history: new RFDs, status changes, accepted plans, finished
phases, and when each RFD last changed.

:func:`read_history` runs two ``git log`` commands over the RFD directory (the edge); the
parsers below turn their output into :class:`Change` records (pure, tested on text).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.model.ids import DOCUMENT_NAMES, split_path

RECORD, UNIT = "\x1e", "\x1f"
FORMAT = f"--format={RECORD}%H{UNIT}%aI{UNIT}%an{UNIT}%s"
_STATUS_LINE = re.compile(
    r"^[-+](?:\s{0,3}(?:[-*+]\s+)?\*\*Status(?::\*\*|\*\*\s*:)"  # - **Status**: Draft
    r"|(?:state|stage|status)\s*:|:(?:state|status):)"  # front matter, AsciiDoc attribute
    r"\s*[\"']?([A-Za-z][A-Za-z-]*)"
)
_STATUS_PICKAXE = r"\*\*Status|^(state|stage|status) *:|^:(state|status):"
"""The lines :data:`_STATUS_LINE` reads, for ``git log -G`` (an extended expression)."""
_PHASE_FILE = re.compile(r"^phases/([^/]+)\.md$")


@dataclass(frozen=True)
class Commit:
    sha: str
    date: str
    author: str
    subject: str


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
    """The history of ``rfd_dir`` in the repository at ``root`` (empty outside git)."""
    names = _git(root, "log", "--reverse", FORMAT, "-M", "--name-status", "--", rfd_dir)
    patches = _git(
        root,
        "log",
        "--reverse",
        FORMAT,
        "-M",
        "-p",
        "-U0",
        "-G",
        _STATUS_PICKAXE,
        "--",
        f":(glob){rfd_dir}/**/*.md",
        f":(glob){rfd_dir}/**/*.adoc",
        f":(exclude){state_dir}",
    )
    added, updated = parse_names(names, rfd_dir, state_dir)
    status = list(parse_status(patches))
    changes = sorted([*added, *status], key=lambda c: c.commit.date)  # stable: git order kept
    return History(tuple(changes), updated)


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "core.quotepath=off", *args],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )
    return done.stdout if done.returncode == 0 else ""


def _commits(text: str) -> Iterator[tuple[Commit, list[str]]]:
    for record in text.split(RECORD)[1:]:
        head, _, body = record.partition("\n")
        sha, date, author, subject = [*head.split(UNIT), "", "", ""][:4]
        yield Commit(sha, date, author, subject), body.splitlines()


def rfd_of(path: str) -> str | None:
    """The id an RFD's path gives (``docs/rfd/045-x.md`` → ``045``, ``rfd/0001/README.md`` →
    ``0001``), None for other files."""
    named = split_path(path)
    return None if named is None else str(named[0])


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
    for commit, lines in _commits(text):
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


def parse_status(text: str) -> Iterator[Change]:
    """Status changes from ``git log -p -U0``: the ``Status`` line removed and added in a file."""
    for commit, lines in _commits(text):
        path, old = "", ""
        for line in lines:
            if line.startswith("+++ "):
                path, old = line[6:] if line.startswith("+++ b/") else "", ""
                continue
            match = _STATUS_LINE.match(line)
            if match is None or not path:
                continue
            rid = rfd_of(path)
            if line.startswith("-"):
                old = match[1]
            elif rid is not None and old and old != match[1]:
                yield Change(commit, rid, "status", f"{old} → {match[1]}")
                old = ""
