"""The status moves a repository's git history shows: the one reading the site's feed
(:mod:`bot.site.history`) and ``rfd init``'s ``[transitions]`` (:mod:`bot.lifecycle.adoption`)
share.

``git log -G`` (:func:`log_args`) only finds the candidate commits, those that touched a line
that may hold a status; the documents before and after each are parsed by
:func:`bot.model.document.parse`, and only a status the document model reads differently is a
move: a status line in a code block or a YAML example, or a ``status:`` key nested in the front
matter, is none.  Pure: git's output and a function reading blobs are handed in (the edge is
:mod:`bot.core.git_log`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

from bot.core.errors import RfdError
from bot.core.git_log import FORMAT, Commit, commits
from bot.model import status
from bot.model.document import parse
from bot.model.ids import split_path

STATUS_PICKAXE = r"\*\*Status|^(state|stage|status) *:|^:(state|status):"
"""Lines that may hold a status, for ``git log -G`` (an extended expression, case ignored):
it only finds the candidate commits; the documents before and after decide."""
PARALLEL_FROM = 1000
"""Versions to parse before a pool of processes pays for its start-up (as the corpus does)."""
CHUNK = 250
_DOCUMENTS = (".md", ".adoc")
_FILE = "100"
"""The start of a regular file's mode (``100644``, ``100755``) in ``git log --raw``."""

ReadBlobs = Callable[[list[str]], Mapping[str, str]]
"""Blob ids → their texts (:func:`bot.core.git_log.read_blobs` bound to a repository)."""


def log_args(rfd_dir: str, *excluded: str) -> list[str]:
    """The ``git log`` arguments listing, oldest first, the commits that may move a status
    of an RFD in ``rfd_dir`` (``excluded``: directories under it to leave out)."""
    return [
        "log",
        "--reverse",
        FORMAT,
        "-M",
        "--raw",
        "--no-abbrev",
        "--regexp-ignore-case",
        "-G",
        STATUS_PICKAXE,
        "--",
        rfd_dir,  # a plain path: glob pathspecs make git twice as slow here
        *(f":(exclude){d}" for d in excluded),
    ]


def rfd_of(path: str) -> str | None:
    """The id an RFD's path gives (``docs/rfd/045-x.md`` → ``045``, ``rfd/0001/README.md`` →
    ``0001``), None for other files."""
    named = split_path(path)
    return None if named is None else str(named[0])


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


class Move(NamedTuple):
    """An edit that changed the RFD's status, in the document's own words."""

    edit: Edit
    old: str
    new: str


def read_moves(log: str, read_blobs: ReadBlobs) -> list[Move]:
    """The status moves in the output of ``git log`` run with :func:`log_args`, oldest first;
    every version is read with one call of ``read_blobs``."""
    edits = list(parse_edits(log))
    texts = read_blobs([blob for e in edits for blob in (e.before.blob, e.after.blob)])
    return list(moves(edits, read_words(edits, texts)))


def parse_edits(text: str) -> Iterator[Edit]:
    """The RFD documents each commit of ``git log --raw --no-abbrev`` modified or renamed
    (an added or a deleted file moves no status; symbolic links and submodules are no RFD)."""
    for commit, lines in commits(text):
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


def moves(edits: Iterable[Edit], words: Mapping[Version, str | None]) -> Iterator[Move]:
    """A move for each edit whose document has another status after it than before.
    ``words``: each version's status as :func:`status_word` reads it, None when it does not
    parse: the move is then reported from the last status the RFD had to the next one."""
    last: dict[str, str] = {}
    for edit in edits:
        old = words.get(edit.before) or last.get(edit.rfd)
        new = words.get(edit.after) or old
        if new is None:
            continue
        last[edit.rfd] = new
        if old is not None and old.casefold() != new.casefold():
            yield Move(edit, old, new)


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
