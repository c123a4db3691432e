"""One version of the repository as the hooks see it, read lazily.

``Tree(root, None)`` is the working tree, ``Tree(root, INDEX)`` what is staged and
``Tree(root, sha)`` a commit.  Nothing is read until asked for, and :class:`Statuses`
reads and parses each RFD's status only when asked for it: a hook that checks the two
RFDs a document requires reads and parses those two files, never all.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from bot.core.errors import RfdError
from bot.model.ids import RfdId
from hooks._common import Layout, decode
from hooks._files import read_inside

if TYPE_CHECKING:
    from bot.model.document import Document
    from hooks._files import Root
    from hooks._git import BlobReader, Change


INDEX = ""
"""The revision of the staged version (``:path``); ``hooks._git.INDEX`` too."""
ZERO = "0" * 40
"""git's object id of "no content" (a deleted path), as in ``hooks._git.ZERO``."""


class Tree:
    def __init__(self, root: Root, rev: str | None, reader: BlobReader | None = None):
        self.root = root
        self.rev = rev
        self._reader = reader
        self._blobs: dict[str, bytes | None] = {}
        self._staged: dict[str, str] = {}
        self._base = rev

    @classmethod
    def index(cls, root: Root, base: str, changes: Iterable[Change], reader: BlobReader) -> Tree:
        """What is staged, without reading the index again: the blobs ``git diff --cached``
        named for the changed paths, and ``base`` (HEAD) for every other path."""
        tree = cls(root, INDEX, reader)
        tree._base = base
        return tree.knowing(changes)

    def knowing(self, changes: Iterable[Change], *, before: bool = False) -> Tree:
        """This tree, told the blobs of the paths ``changes`` lead to (``before``: come from),
        which it then reads by id: no lookup through large folders."""
        for change in changes:
            if before:
                if change.kind != "C":
                    self._staged[change.old] = change.old_blob
                continue
            if change.kind == "R":
                self._staged.setdefault(change.old, ZERO)
            self._staged[change.path] = change.blob
        return self

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes | None]:
        """Contents of ``paths`` (None when absent), cached."""
        paths = list(dict.fromkeys(paths))
        todo = [p for p in paths if p not in self._blobs]
        if self.rev is None:
            self._blobs.update((p, read_inside(self.root, p)) for p in todo)
        else:
            self._blobs.update((p, self._read_blob(p)) for p in todo)
        return {p: self._blobs[p] for p in paths}

    def read(self, path: str) -> bytes | None:
        return self.read_many([path])[path]

    def _read_blob(self, path: str) -> bytes | None:
        assert self._reader is not None, "a revision is read through a BlobReader"
        blob = self._staged.get(path)
        if blob is not None:
            return None if blob == ZERO else self._reader.read(blob, path)
        return self._reader.read(f"{self._base}:{path}", path)

    @property
    def commit(self) -> str:
        """The commit this version is (the index and the working tree: the one they are on)."""
        return self._base or "HEAD"

    def has_commit(self, ref: str) -> bool | None:
        """Does ``ref`` name a commit of this repository (None: no git to ask here)?"""
        return None if self._reader is None else self._reader.has_commit(ref)

    def exists(self, path: str) -> bool:
        """Whether ``path`` is a file in this version (the working tree: on disk)."""
        if self.rev is None:
            return os.path.isfile(os.path.join(self.root, path))
        return self.read(path) is not None

    def text(self, path: str) -> str | None:
        data = self.read(path)
        return None if data is None else decode(data, path)

    def document(self, path: str) -> Document | None:
        """The parsed RFD at ``path`` (None when absent); RfdError when it does not parse."""
        from bot.model.document import parse

        text = self.text(path)
        return None if text is None else parse(text, path)

    def _ls_tree(self, *folders: str) -> list[str]:
        """The names directly in ``folders`` at this commit (one ``git ls-tree``)."""
        from hooks._git import run  # git: only hooks that read revisions pay for it

        args = ("ls-tree", "-z", "--name-only", "--end-of-options", str(self.rev), "--")
        out = run(self.root, *args, *folders)
        return [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]

    def list_dir(self, folder: str) -> list[str]:
        """Paths of the files directly in ``folder`` (one ``scandir``, or one ``ls-tree`` for a
        commit).  For the index the working tree is listed: a name that is not staged reads
        as a missing file."""
        if self.rev is None or self.rev == INDEX:
            try:
                return sorted(
                    f"{folder}/{e.name}" for e in os.scandir(os.path.join(self.root, folder))
                )
            except (FileNotFoundError, NotADirectoryError):
                return []
        return sorted(self._ls_tree(folder + "/"))

    def has_files(self, folder: str) -> bool:
        """Whether any file lies under ``folder`` here (one ``git ls-files``/``ls-tree``).

        For the index, nothing on disk means nothing staged (pre-commit stashes unstaged
        changes, so a staged file is on disk) and git is not asked.
        """
        if self.rev in (None, INDEX):
            on_disk = any(files for _, _, files in os.walk(os.path.join(self.root, folder)))
            if self.rev is None or not on_disk:
                return on_disk
        from hooks._git import run

        if self.rev == INDEX:
            args: tuple[str, ...] = ("ls-files", "-z", "--")
        else:
            args = ("ls-tree", "-r", "-z", "--name-only", "--end-of-options", self.rev, "--")
        return bool(run(self.root, *args, folder + "/").strip(b"\0"))

    def grep(self, patterns: list[str], layout: Layout, *, perl: bool = False) -> list[str]:
        """The RFD files of this version with a line matching one of ``patterns`` (extended
        regexes, case-insensitive; Perl ones with ``perl``): one ``git grep``, whatever the
        number of RFDs."""
        from hooks._git import run

        if not patterns:
            return []
        where = ("--cached",) if self.rev in (None, INDEX) else ()
        specs = [
            f":(glob){d}/{name}"
            for d in (layout.rfd_dir, layout.drafts_dir)
            for name in ("*.md", "*.adoc")
        ]
        specs += [f":(glob){layout.rfd_dir}/*/{name}" for name in ("README.md", "README.adoc")]
        args = ["grep", "-l", "-I", "-i", "-P" if perl else "-E", *where]
        args += [a for p in patterns for a in ("-e", p)]
        if not where:
            args.append(str(self.rev))  # a commit id: git grep has no --end-of-options
        out = run(self.root, *args, "--", *specs, ok=(0, 1)).decode("utf-8", "surrogateescape")
        prefix = "" if where else f"{self.rev}:"
        return [line.removeprefix(prefix) for line in out.splitlines() if line]

    def phase_files(self, layout: Layout, key: str) -> dict[str, str]:
        """The phase summaries of state dir ``key`` that exist here, by phase key
        (``bot.model.phase_ids.file_key``: ``01.md`` is ``1``; ``1.md`` wins over ``01.md``)."""
        from bot.model.phase_ids import file_key

        found: dict[str, str] = {}
        for path in self.list_dir(layout.state_path(key, "phases")):
            name = path.rpartition("/")[2]
            phase = file_key(name)
            if phase is not None and (phase not in found or name == f"{phase}.md"):
                found[phase] = path
        present = self.read_many(found.values())
        return {phase: path for phase, path in found.items() if present[path] is not None}

    def _listdir(self, folder: str) -> list[str]:
        try:
            return os.listdir(os.path.join(self.root, folder))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def rfd_names(self, layout: Layout) -> RfdNames:
        """The RFD files of this version, known by name (no file is opened).

        The working tree and the index are listed with one ``scandir`` of the RFD and
        drafts directories (an untracked name reads as a missing file from the index).
        """
        if self.rev is None or self.rev == INDEX:
            names = []
            for folder in (layout.rfd_dir, layout.drafts_dir):
                listed = self._listdir(folder)  # names only: cheaper than scandir's entries
                names += [f"{folder}/{name}" for name in listed]
                names += [  # a directory per RFD: rfd/0001/README.md
                    f"{folder}/{name}/{doc}"
                    for name in listed
                    if name.isdigit()
                    for doc in ("README.md", "README.adoc")
                    if os.path.isfile(os.path.join(self.root, folder, name, doc))
                ]
        else:
            names = self._ls_tree(layout.rfd_dir + "/", layout.drafts_dir + "/")
            folders = [n + "/" for n in names if n.rpartition("/")[2].isdigit()]
            if folders:  # a directory per RFD: its README
                names += self._ls_tree(*folders)
        return RfdNames(layout, sorted(n for n in names if n))


class RfdNames:
    """RFD file paths, parsed only for the ids asked about: with 2,000 RFDs, parsing every
    name would cost more than the rest of a hook."""

    def __init__(self, layout: Layout, paths: list[str]) -> None:
        self._layout = layout
        self._paths = paths
        self._all: dict[RfdId, str] | None = None

    def path(self, rfd_id: RfdId) -> str | None:
        """The file of ``rfd_id`` (the first by name when there are several)."""
        digits = str(rfd_id.number)
        for path in self._paths:
            near = path.rpartition("/")[2][:8] + path.rpartition("/")[0][-7:]
            if digits in near and self._layout.rfd_id(path) == rfd_id:
                return path
        return None

    def all(self) -> dict[RfdId, str]:
        if self._all is None:
            self._all = {}
            for path in self._paths:
                rfd_id = self._layout.rfd_id(path)
                if rfd_id is not None:
                    self._all.setdefault(rfd_id, path)
        return self._all


if TYPE_CHECKING:
    from bot.model.status import Status


class Statuses(Mapping["RfdId", "Status"]):
    """Every RFD id in a tree; the status of one is read (and parsed) only when asked for.

    An RFD whose file does not parse is reported by ``rfd-lint`` on its own; here it
    behaves as if it had no status (``KeyError``).
    """

    def __init__(self, tree: Tree, names: RfdNames) -> None:
        self._tree = tree
        self._names = names
        self._cache: dict[RfdId, Status | None] = {}

    def __contains__(self, key: object) -> bool:
        return isinstance(key, RfdId) and self._names.path(key) is not None

    def __iter__(self) -> Iterator[RfdId]:
        return iter(self._names.all())

    def __len__(self) -> int:
        return len(self._names.all())

    def __getitem__(self, key: RfdId) -> Status:
        if key not in self._cache:
            self._cache[key] = self._load(key)
        status = self._cache[key]
        if status is None:
            raise KeyError(key)
        return status

    def _load(self, key: RfdId) -> Status | None:
        path = self._names.path(key)
        if path is None:
            return None
        try:
            doc = self._tree.document(path)
        except RfdError:
            return None
        return None if doc is None else doc.status

    def lookup(self, ids: Iterable[RfdId]) -> dict[RfdId, Status | None]:
        """Statuses of ``ids`` (None: no such RFD); only those files are read."""
        return {i: self.get(i) for i in ids}
