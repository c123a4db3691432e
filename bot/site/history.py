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

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from bot.core.errors import RfdError
from bot.model import status
from bot.model.document import parse
from bot.model.ids import DOCUMENT_NAMES, split_path

RECORD, UNIT = "\x1e", "\x1f"
FORMAT = f"--format={RECORD}%H{UNIT}%aI{UNIT}%an{UNIT}%s"
_STATUS_PICKAXE = r"\*\*Status|^(state|stage|status) *:|^:(state|status):"
"""Lines that may hold a status, for ``git log -G`` (an extended expression, case ignored):
it only finds the candidate commits; the documents before and after decide."""
PARALLEL_FROM = 1000
"""Versions to parse before a pool of processes pays for its start-up (as the corpus does)."""
CHUNK = 250
_DOCUMENTS = (".md", ".adoc")
_FILE = "100"
"""The start of a regular file's mode (``100644``, ``100755``) in ``git log --raw``."""
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
    """The history of ``rfd_dir`` in the repository at ``root`` (empty outside git).  The
    two logs run side by side: git lists the files while the statuses are parsed."""
    with _running(root, "log", "--reverse", FORMAT, "-M", "--name-status", "--", rfd_dir) as names:
        candidates = _git(
            root,
            "log",
            "--reverse",
            FORMAT,
            "-M",
            "--raw",
            "--no-abbrev",
            "--regexp-ignore-case",
            "-G",
            _STATUS_PICKAXE,
            "--",
            rfd_dir,  # a plain path: glob pathspecs make git twice as slow here
            f":(exclude){state_dir}",
        )
        edits = list(parse_edits(candidates))
        texts = read_blobs(root, [blob for e in edits for blob in (e.before.blob, e.after.blob)])
        moves = list(status_changes(edits, read_words(edits, texts)))
        added, updated = parse_names(names(), rfd_dir, state_dir)
    changes = sorted([*added, *moves], key=lambda c: c.commit.date)  # stable: git order kept
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


class Version(NamedTuple):
    """A file as one commit had it: its blob and its path."""

    blob: str
    path: str


@dataclass(frozen=True)
class Edit:
    """A commit that modified (or renamed) an RFD's document on a line that may hold its
    status: a candidate status change, until the two versions are read."""

    commit: Commit
    rfd: str
    before: Version
    after: Version


def parse_edits(text: str) -> Iterator[Edit]:
    """The RFD documents each commit of ``git log --raw --no-abbrev`` modified or renamed
    (an added or a deleted file moves no status; symbolic links and submodules are no RFD)."""
    for commit, lines in _commits(text):
        for line in lines:
            meta, _, names = line.partition("\t")  # ":<mode> <mode> <blob> <blob> <flag>"
            fields, paths = meta[1:].split(), names.split("\t")
            if not meta.startswith(":") or len(fields) != 5 or not names:
                continue
            old_mode, new_mode, old_blob, new_blob, flag = fields
            if flag[0] not in "MR" or {old_mode[:3], new_mode[:3]} != {_FILE}:
                continue
            rid = rfd_of(paths[-1]) if paths[-1].endswith(_DOCUMENTS) else None
            if rid is not None:
                yield Edit(commit, rid, Version(old_blob, paths[0]), Version(new_blob, paths[-1]))


def status_changes(edits: Iterable[Edit], words: Mapping[Version, str | None]) -> Iterator[Change]:
    """A status change for each edit whose document has another status after it than before.
    ``words``: each version's status as :func:`status_word` reads it, None when it does not
    parse: the change is then reported from the last status the RFD had to the next one."""
    last: dict[str, str] = {}
    for edit in edits:
        old = words.get(edit.before) or last.get(edit.rfd)
        new = words.get(edit.after) or old
        if new is None:
            continue
        last[edit.rfd] = new
        if old is not None and old.casefold() != new.casefold():
            yield Change(edit.commit, edit.rfd, "status", f"{old} → {new}")


def status_word(text: str | None, path: str) -> str | None:
    """The status an RFD's text has, in its own word, as :func:`bot.model.document.parse`
    reads the header (field list, front matter, AsciiDoc attributes): a status line in a code
    block or an example, or a ``status:`` key nested in the front matter, is not it.  None
    when the text does not parse."""
    if text is None:
        return None
    try:
        return parse(text, path).status_word
    except RfdError:
        return None


def read_words(edits: Sequence[Edit], texts: Mapping[str, str]) -> dict[Version, str | None]:
    """The status of every version the edits name (a commit's "after" is often the next
    one's "before": each is parsed once), by a pool of processes when there are many."""
    versions = list(dict.fromkeys(v for e in edits for v in (e.before, e.after)))
    docs = [(texts.get(v.blob), v.path) for v in versions]
    workers = min(4, os.cpu_count() or 1)
    if len(docs) < PARALLEL_FROM or workers < 2:
        return dict(zip(versions, _words(docs), strict=True))
    chunks = [docs[n : n + CHUNK] for n in range(0, len(docs), CHUNK)]
    words = {w: s.value for w, s in status.configured().items()}  # the repository's words
    with ProcessPoolExecutor(workers, initializer=status.use, initargs=(words,)) as pool:
        found = [w for part in pool.map(_words, chunks) for w in part]
    return dict(zip(versions, found, strict=True))


def _words(docs: list[tuple[str | None, str]]) -> list[str | None]:
    return [status_word(text, path) for text, path in docs]


def read_blobs(root: Path, blobs: Iterable[str]) -> dict[str, str]:
    """Blob → text, read by one ``git cat-file --batch`` however many there are."""
    wanted = list(dict.fromkeys(blobs))
    if not wanted:
        return {}
    done = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=root,
        input="\n".join(wanted).encode("ascii") + b"\n",
        capture_output=True,
        check=False,
    )
    return dict(parse_batch(done.stdout))


def parse_batch(data: bytes) -> Iterator[tuple[str, str]]:
    """``(blob, text)`` from ``git cat-file --batch`` output (a missing blob is left out)."""
    pos = 0
    while (end := data.find(b"\n", pos)) != -1:
        header = data[pos:end].split()
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():  # "<blob> missing"
            continue
        size = int(header[2])
        yield header[0].decode("ascii"), data[pos : pos + size].decode("utf-8", "replace")
        pos += size + 1
