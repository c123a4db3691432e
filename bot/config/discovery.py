"""Finding RFD files: scanning names, resolving what a user typed, reading them.

Published RFDs are ``<dir>/NNN-slug.md`` (or, a directory per RFD, ``<dir>/NNNN/README.md``
or ``README.adoc``); drafts ``DNN-slug.md`` sit beside them or in ``<dir>/<drafts_dir>/``.
The repository's own templates (``[rfd] templates``)
are never RFDs.  :func:`scan` looks at names only (``os.scandir``), so listing is
cheap; :func:`read` is the one place RFD files are opened.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from bot.config.repo_templates import is_template
from bot.core.errors import AmbiguousId, FileNotFound, ParseError, RfdError, ValidationError
from bot.model.document import Document, parse
from bot.model.ids import DOCUMENT_NAMES, RfdId, is_proposal, split_file_name, split_path

if TYPE_CHECKING:
    from pathlib import Path  # the hooks, which read RfdFile, never import pathlib

    from bot.config.load import Config

LIST_HINT = "`rfd list` shows every RFD"
SLUG_LIKENESS = 0.75
"""How alike a mistyped name and an RFD's slug must be to be offered ("did you mean")."""
NEARBY = 5


class RfdFile(NamedTuple):
    """An RFD file found by name; ``path`` is relative to the repository root (posix)."""

    rfd_id: RfdId
    slug: str
    path: str

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def proposal(self) -> bool:
        """An RFC proposal without a number yet (``text/0000-slug.md``): named by its slug."""
        return is_proposal(self.rfd_id, self.path)


def scan(root: Path, cfg: Config) -> list[RfdFile]:
    """Every RFD file under the RFD directory and its drafts directory, sorted by id."""
    found = list(_scan_dir(root, cfg.rfd_dir))
    drafts = cfg.rfd.drafts_dir.strip("/")
    if drafts not in ("", "."):
        found += _scan_dir(root, f"{cfg.rfd_dir}/{drafts}")
    prefix = len(cfg.rfd_dir) + 1
    pattern = cfg.rfd.templates
    found = [f for f in found if not is_template(f.path[prefix:], pattern)]
    return sorted(found, key=_by_id)


def _by_id(file: RfdFile) -> tuple[bool, int, str, str]:
    """The order of ``RfdFile`` itself, as plain values: sorting 2,000 files compares
    them ~20,000 times, and ``RfdId``'s comparisons are Python calls."""
    return file.rfd_id.draft, file.rfd_id.number, file.slug, file.path


def _scan_dir(root: Path, relative: str) -> Iterable[RfdFile]:
    try:
        with os.scandir(root / relative) as entries:
            listed = [(entry.name, entry.is_file()) for entry in entries]
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = ((name, split_file_name(name)) for name, is_file in listed if is_file)
    files = [RfdFile(parts[0], parts[1], f"{relative}/{name}") for name, parts in found if parts]
    folders = [name for name, is_file in listed if not is_file and name.isdigit()]
    return files + [f for name in folders if (f := folder_rfd(root, f"{relative}/{name}"))]


def folder_rfd(root: Path, folder: str) -> RfdFile | None:
    """The RFD of a numbered directory (``rfd/0001/README.md``): its document, the
    directory's name its id (the other files in it belong to it)."""
    for name in DOCUMENT_NAMES:
        if os.path.isfile(os.path.join(root, folder, name)):
            parts = split_path(f"{folder}/{name}")
            return None if parts is None else RfdFile(parts[0], parts[1], f"{folder}/{name}")
    return None


def resolve(query: str, files: Iterable[RfdFile]) -> RfdFile:
    """The one file for ``045``, ``45``, ``D32``, ``RFD 045`` or a file name/path."""
    files = list(files)
    wanted = query.strip()
    by_name = [f for f in files if wanted in (f.path, f.name)]
    by_name += [f for f in files if f.proposal and wanted in (f.slug, f.name.removesuffix(".md"))]
    if by_name:
        return by_name[0]
    try:
        rfd_id = RfdId.parse(query)
    except ValidationError as err:
        raise _by_slug(query, files, err) from err
    matches = [f for f in files if f.rfd_id == rfd_id]
    if len(matches) > 1:
        proposals = all(f.proposal for f in matches)
        raise AmbiguousId(
            f"{len(matches)} proposals have no number yet"
            if proposals
            else f"RFD {rfd_id} matches {len(matches)} files",
            hint="name the proposal by its slug"
            if proposals
            else "rename or renumber all but one of them",
            alternatives=tuple(f.slug if proposals else f.path for f in matches),
        )
    if not matches:
        raise FileNotFound(
            f"no RFD {rfd_id}",
            hint=f"{LIST_HINT}; did you mean one of these?" if files else LIST_HINT,
            alternatives=tuple(f"{f.rfd_id}  {f.path}" for f in _nearby(rfd_id, files)),
        )
    return matches[0]


def _by_slug(query: str, files: list[RfdFile], err: ValidationError) -> ValidationError:
    """``err``, naming the RFDs whose slug is close to ``query`` (a mistyped name)."""
    import difflib

    wanted = query.strip().lower()

    def likeness(f: RfdFile) -> float:  # the whole slug, or its start as long as the query
        whole = difflib.SequenceMatcher(None, wanted, f.slug).ratio()
        start = difflib.SequenceMatcher(None, wanted, f.slug[: len(wanted)]).ratio()
        return max(whole, start)

    found = sorted((f for f in files if likeness(f) >= SLUG_LIKENESS), key=likeness)[::-1][:3]
    if not found:
        return err
    shown = tuple(f"{f.rfd_id}  {f.path}" for f in found)
    return ValidationError(err.message, hint=f"did you mean {found[0].rfd_id}?", alternatives=shown)


def _nearby(rfd_id: RfdId, files: list[RfdFile]) -> list[RfdFile]:
    """The few files whose ids are closest to ``rfd_id`` (same kind first)."""

    def distance(f: RfdFile) -> tuple[bool, int]:
        return f.rfd_id.draft != rfd_id.draft, abs(f.rfd_id.number - rfd_id.number)

    return sorted(sorted(files, key=distance)[:NEARBY])


def next_number(files: Iterable[RfdFile]) -> int:
    """The next permanent number: one more than the highest published one (numbers of
    abandoned or deleted RFDs are never reused)."""
    return max((f.rfd_id.number for f in files if not f.rfd_id.draft), default=0) + 1


def read(root: Path, file: RfdFile) -> Document:
    """Read and parse one RFD; ParseError naming the file when it cannot be read."""
    try:
        with open(os.path.join(root, file.path), "rb") as handle:  # no Path per file
            data = handle.read()
    except OSError as err:
        raise ParseError(f"cannot read: {err.strerror or err}", path=file.path) from err
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        message = f"not valid UTF-8 (byte {err.start} is {data[err.start]:#04x})"
        raise ParseError(message, path=file.path, line=line, hint="save it as UTF-8") from err
    return parse(text, file.path)


def load_all(
    root: Path, cfg: Config, files: list[RfdFile] | None = None
) -> tuple[list[Document], list[RfdError]]:
    """Every RFD that parses, and an error for each one that does not (and for each
    id used by several files: those files are still listed); ``files``: what
    :func:`scan` gives, when the caller has it already."""
    files = scan(root, cfg) if files is None else files
    documents: list[Document] = []
    errors: list[RfdError] = list(duplicates(files))
    for file in files:
        try:
            documents.append(read(root, file))
        except RfdError as err:
            errors.append(err)
    return documents, errors


def duplicates(files: Iterable[RfdFile]) -> Iterable[AmbiguousId]:
    """An error for each id that several files share."""
    groups: dict[RfdId, list[RfdFile]] = {}
    for file in files:
        if not file.proposal:  # proposals are named by their slugs: several are normal
            groups.setdefault(file.rfd_id, []).append(file)
    for rfd_id, group in groups.items():
        if len(group) > 1:
            paths = tuple(f.path for f in group)
            yield AmbiguousId(
                f"RFD {rfd_id} is used by {len(group)} files: {', '.join(paths)}",
                path=paths[0],
                hint="renumber all but one of them",
                alternatives=paths,
            )
