"""One version of the repository as the hooks see it, read lazily and in batches.

``Tree(root, None)`` is the working tree, ``Tree(root, INDEX)`` what is staged and
``Tree(root, sha)`` a commit.  Nothing is read until asked for: a hook that needs
the status of the two RFDs a document requires reads those two files, never all.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from bot.errors import RfdError
from bot.ids import RfdId
from hooks._common import Layout, decode

if TYPE_CHECKING:
    from bot.document import Document
    from bot.status import Status
    from hooks._git import BlobReader


INDEX = ""
"""The revision of the staged version (``:path``); ``hooks._git.INDEX`` too."""


class Tree:
    def __init__(self, root: Path, rev: str | None, reader: BlobReader | None = None):
        self.root = root
        self.rev = rev
        self._reader = reader
        self._blobs: dict[str, bytes | None] = {}

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes | None]:
        """Contents of ``paths`` (None when absent), cached."""
        paths = list(dict.fromkeys(paths))
        todo = [p for p in paths if p not in self._blobs]
        if self.rev is None:
            self._blobs.update((p, _read_file(self.root / p)) for p in todo)
        else:
            assert self._reader is not None, "a revision is read through a BlobReader"
            self._blobs.update((p, self._reader.read(f"{self.rev}:{p}")) for p in todo)
        return {p: self._blobs[p] for p in paths}

    def read(self, path: str) -> bytes | None:
        return self.read_many([path])[path]

    def text(self, path: str) -> str | None:
        data = self.read(path)
        return None if data is None else decode(data, path)

    def document(self, path: str) -> Document | None:
        """The parsed RFD at ``path`` (None when absent); RfdError when it does not parse."""
        from bot.document import parse

        text = self.text(path)
        return None if text is None else parse(text, path)

    def rfd_files(self, layout: Layout) -> dict[RfdId, str]:
        """Every RFD id → its path, from file names only (no file is opened).

        The working tree and the index are listed with one ``scandir`` of the RFD and
        drafts directories (untracked names read as missing files from the index).
        """
        if self.rev is None or self.rev == INDEX:
            names = [
                f"{d}/{entry.name}"
                for d in (layout.rfd_dir, layout.drafts_dir)
                if (self.root / d).is_dir()
                for entry in os.scandir(self.root / d)
            ]
        else:
            from hooks._git import run  # subprocess: only hooks that read revisions pay it

            out = run(self.root, "ls-tree", "-z", "--name-only", self.rev, "--",
                           layout.rfd_dir + "/", layout.drafts_dir + "/")  # fmt: skip
            names = out.decode("utf-8", "surrogateescape").split("\0")
        found: dict[RfdId, str] = {}
        for path in sorted(names):
            rfd_id = layout.rfd_id(path) if path else None
            if rfd_id is not None:
                found.setdefault(rfd_id, path)
        return found


def _read_file(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


class Statuses(Mapping["RfdId", "Status"]):
    """Every RFD id in a tree; the status of one is read (and parsed) only when asked for.

    An RFD whose file does not parse is reported by ``rfd-lint`` on its own; here it
    behaves as if it had no status (``KeyError``).
    """

    def __init__(self, tree: Tree, files: Mapping[RfdId, str]) -> None:
        self._tree = tree
        self._files = files
        self._cache: dict[RfdId, Status | None] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._files

    def __iter__(self) -> Iterator[RfdId]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __getitem__(self, key: RfdId) -> Status:
        if key not in self._cache:
            self._cache[key] = self._load(key)
        status = self._cache[key]
        if status is None:
            raise KeyError(key)
        return status

    def _load(self, key: RfdId) -> Status | None:
        path = self._files.get(key)
        if path is None:
            return None
        try:
            doc = self._tree.document(path)
        except RfdError:
            return None
        return None if doc is None else doc.status

    def lookup(self, ids: Iterable[RfdId]) -> dict[RfdId, Status | None]:
        """Statuses of ``ids`` (None: no such RFD), reading all of them in one batch."""
        ids = list(ids)
        self._tree.read_many(self._files[i] for i in ids if i in self._files)
        return {i: self.get(i) for i in ids}
