"""The repository's RFDs, whatever their dialect: the one way to read the whole corpus.

:func:`iter_rfds` yields one :class:`Rfd` per document — flat ``NNN-slug.md`` files, a
directory per RFD (``rfd/0001/README.md`` or ``README.adoc``, the other files in the
directory part of it) or RFC-style ``text/NNNN-slug.md`` — with its id, title, status (the
repository's word and rfd's stage), authors, paths and links, read in the header's own form
(field list, YAML front matter, AsciiDoc attributes).  What lists, shows or publishes RFDs
(``rfd list``, a static site) reads them here; documents that do not parse are handed to
``errors`` and never hide the others.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config.discovery import RfdFile, duplicates, read, scan
from bot.core.errors import RfdError
from bot.model.document import LINK_KEYS, Document
from bot.model.ids import DOCUMENT_NAMES, RfdId
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.config.load import Config


@dataclass(frozen=True)
class Rfd:
    rfd_id: RfdId
    title: str
    status: str
    """The status as the document writes it (``published``, ``Accepted``)."""
    stage: Status
    """What rfd reasons about (``Status.ACCEPTED``)."""
    authors: tuple[str, ...]
    path: str
    """The document, relative to the repository root (posix)."""
    paths: tuple[str, ...]
    """The document and the files that belong to it (the rest of its directory)."""
    links: tuple[tuple[str, tuple[RfdId, ...]], ...]
    """``(field, ids)`` for each link field it has (Requires, Extends, Supersedes, …)."""
    document: Document
    """Everything else: the header's fields, the sections, the text."""


def iter_rfds(root: Path, cfg: Config, errors: list[RfdError] | None = None) -> Iterator[Rfd]:
    """Every RFD of the repository in id order; an error for each one that cannot be read
    (and for each id several files share) goes to ``errors``."""
    files = scan(root, cfg)
    if errors is not None:
        errors.extend(duplicates(files))
    for file in files:
        try:
            doc = read(root, file)
        except RfdError as err:
            if errors is not None:
                errors.append(err)
            continue
        yield of(root, file, doc)


def of(root: Path, file: RfdFile, doc: Document) -> Rfd:
    links = tuple((key, doc.links(key)) for key in LINK_KEYS if doc.links(key))
    return Rfd(
        file.rfd_id,
        doc.title,
        doc.status_word,
        doc.status,
        doc.authors,
        file.path,
        _belonging(root, file),
        links,
        doc,
    )


def _belonging(root: Path, file: RfdFile) -> tuple[str, ...]:
    """The document, then (in a directory per RFD) every other file of its directory."""
    if file.name not in DOCUMENT_NAMES:
        return (file.path,)
    folder = file.path.rpartition("/")[0]
    found = [
        f"{os.path.relpath(current, root)}/{name}".replace(os.sep, "/")
        for current, _, names in os.walk(root / folder)
        for name in names
    ]
    return (file.path, *sorted(p for p in found if p != file.path))
