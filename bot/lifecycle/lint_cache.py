"""What ``rfd lint`` keeps from one run to the next, as ruff and mypy keep theirs: the
checks of each state directory and the rules of each RFD that look at it alone.

Kept in ``.git/rfd-bot/lint-cache.json`` (never committed; a repository without a
``.git`` gets no cache).  The whole cache counts only for the same rfd-bot (its version
and every one of its source files, by size and time), the same configuration, the same
Python and the same repository root; anything else starts it afresh.  Within it:

- an RFD's own findings (:func:`bot.lifecycle.lint.own_findings`) are kept by a digest
  of its path and text: the text is read on every run anyway (the rules across RFDs need
  every header), so an edit is always seen.  The rules that look at other RFDs or files
  (unknown ids, cycles, back-links, link targets: :func:`~bot.lifecycle.lint.linked_findings`)
  and the ids several files share run on every run.
- a state directory's problems are kept by the name, type, size, modification and change
  time (``st_ctime``, which no program sets back) and inode of every entry in it: ten
  ``stat`` calls instead of ten reads.  Like git's index, a directory whose newest file
  changed less than :data:`SETTLED_NS` before the run is not kept: a second change in the
  same clock tick would leave every time as it was.  A directory holding a symbolic link
  is never kept (its target can change unseen).

A cache that cannot be read or does not parse is ignored, and one that cannot be written
is skipped; it is written to a temporary file renamed over the old one.  ``rfd lint
--no-cache`` neither reads nor writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bot.config.schema import Config
from bot.core.errors import FileNotFound, InvalidStructure, ParseError, RfdError, ValidationError
from bot.lifecycle.lint import Finding, Severity
from bot.model.document import Document
from bot.state.store import Survey

FILE = "lint-cache.json"
FORMAT = 1
"""Bumped when what the cache holds changes shape."""
SETTLED_NS = 2_000_000_000
"""A state directory changed this recently (ns) before the run is checked but not kept."""
_ERRORS: dict[str, type[RfdError]] = {
    cls.kind: cls for cls in (FileNotFound, InvalidStructure, ParseError, ValidationError)
}
"""The errors a state check gives, by kind; a directory with any other is not kept."""
_KINDS = frozenset(_ERRORS.values())

Entry = list[object]


class LintCache:
    """The kept results (empty when there are none or they are for another setting)."""

    def __init__(self, path: Path | None, key: str = "", now_ns: int | None = None) -> None:
        self.path, self.key = path, key
        self.now_ns = time.time_ns() if now_ns is None else now_ns
        self.docs: dict[str, Entry] = {}
        self.state: dict[str, Entry] = {}
        self.changed = False
        self.hits = 0
        if path is not None:
            self._load(path)

    @classmethod
    def open(cls, root: Path, cfg: Config) -> LintCache:
        """The cache of the repository at ``root`` (off when it has no git directory)."""
        folder = git_dir(root)
        if folder is None:
            return cls(None)
        return cls(folder / "rfd-bot" / FILE, setting_key(root, cfg))

    def own_findings(self, doc: Document, compute: Callable[[], list[Finding]]) -> list[Finding]:
        """``compute()``, or what it gave for the same path and text."""
        if self.path is None:
            return compute()
        digest = _digest(doc.path, doc.text)
        kept = self.docs.get(doc.path)
        if isinstance(kept, list) and len(kept) == 2 and kept[0] == digest:
            found = _findings(kept[1])
            if found is not None:
                self.hits += 1
                return found
        found = compute()
        self.docs[doc.path] = [digest, [_finding_row(f) for f in found]]
        self.changed = True
        return found

    def state_errors(
        self, name: str, folder: Path, check: Callable[[], tuple[list[RfdError], Survey | None]]
    ) -> list[RfdError]:
        """What ``check()`` finds, or found when every entry of ``folder`` was as it is now."""
        if self.path is None:
            return check()[0]
        kept = self.state.get(name)
        if isinstance(kept, list) and len(kept) == 3 and _unchanged(str(folder), kept):
            errors = _errors(kept[2])
            if errors is not None:
                self.hits += 1
                return errors
        errors, survey = check()
        stamp = None if survey is None else _settled(survey[1], self.now_ns - SETTLED_NS)
        if survey is not None and stamp is not None and all(type(e) in _KINDS for e in errors):
            self.state[name] = [stamp, survey[0], [_error_row(e) for e in errors]]
            self.changed = True
        elif self.state.pop(name, None) is not None:
            self.changed = True
        return errors

    def save(self) -> None:
        """Write the cache when this run changed it (nothing when it cannot be written)."""
        if self.path is None or not self.changed:
            return
        data = {"key": self.key, "docs": self.docs, "state": self.state}
        text = json.dumps(data, separators=(",", ":"))
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)  # a reader sees the old cache or the new one
        except OSError:
            tmp.unlink(missing_ok=True)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError, RecursionError):
            return  # none yet, or unreadable: start afresh
        if not isinstance(data, dict) or data.get("key") != self.key:
            return
        docs, state = data.get("docs"), data.get("state")
        if isinstance(docs, dict) and isinstance(state, dict):
            self.docs, self.state = docs, state


def git_dir(root: Path) -> Path | None:
    """``root/.git``, or the directory a ``.git`` file names (a worktree, a submodule)."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    try:
        text = dot_git.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir:"):
        return None
    folder = root / text.removeprefix("gitdir:").strip()
    return folder if folder.is_dir() else None


def setting_key(root: Path, cfg: Config) -> str:
    """What every kept result depends on besides its own file: rfd-bot's version and source
    files, the configuration, the Python and the repository's place."""
    import bot

    package = Path(bot.__file__).parent
    sources = sorted(_sources(str(package)))
    parts = (FORMAT, bot.__version__, sys.version, str(root), repr(cfg), sources)
    return _digest(*map(repr, parts))


def _sources(top: str, rel: str = "") -> Iterator[tuple[str, int, int]]:
    with os.scandir(os.path.join(top, rel)) as entries:
        for entry in entries:
            name = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_dir() and entry.name != "__pycache__":
                yield from _sources(top, name)
            elif entry.name.endswith((".py", ".md", ".toml", ".j2", ".txt", ".json")):
                stat = entry.stat()
                yield name, stat.st_size, stat.st_mtime_ns


def _unchanged(folder: str, kept: Entry) -> bool:
    """Whether the entries a kept result covers are as they were (a directory's times
    change with its list of names, so a name added or removed is seen too)."""
    stamp, listing = kept[0], kept[1]
    try:
        return isinstance(listing, list) and stamp == _stamp(folder, listing)
    except (OSError, TypeError, ValueError):  # gone, or not what was written
        return False


def _stamp(folder: str, listing: list[str]) -> int:
    """:func:`_settled`'s hash of the entries of ``listing`` as they are now."""
    values: list[int] = []
    for rel in listing:
        st = os.stat(os.path.join(folder, rel) if rel else folder, follow_symlinks=False)
        values += (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    return hash(tuple(values))


def _settled(values: list[int], settled_ns: int) -> int | None:
    """A hash of a survey's ints (ints only: Python hashes them the same in every process),
    None when an entry was modified or changed at or after ``settled_ns``."""
    times = values[2::5] + values[3::5]
    return hash(tuple(values)) if not times or max(times) < settled_ns else None


def _digest(*parts: str) -> str:
    return hashlib.blake2b(
        "\0".join(parts).encode("utf-8", "surrogatepass"), digest_size=16
    ).hexdigest()


def _finding_row(f: Finding) -> list[object]:
    return [f.path, f.line, f.code, f.message, f.hint, f.severity.value, f.section]


def _findings(rows: Any) -> list[Finding] | None:
    """The kept findings, None when they are not what :func:`_finding_row` writes."""
    try:
        return [
            Finding(
                str(p), None if n is None else int(n), str(c), str(m), str(h), Severity(s), str(x)
            )
            for p, n, c, m, h, s, x in rows
        ]
    except (TypeError, ValueError):
        return None


def _error_row(e: RfdError) -> list[object]:
    return [e.kind, e.message, e.path, e.line, e.hint, list(e.alternatives)]


def _errors(rows: Any) -> list[RfdError] | None:
    """The kept errors, None when they are not what :func:`_error_row` writes."""
    try:
        return [
            _ERRORS[str(kind)](
                str(message),
                path=None if path is None else str(path),
                line=None if line is None else int(line),
                hint=None if hint is None else str(hint),
                alternatives=tuple(str(a) for a in alternatives),
            )
            for kind, message, path, line, hint, alternatives in rows
        ]
    except (TypeError, ValueError, KeyError):
        return None
