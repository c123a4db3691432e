"""An RFD document: parsed from text (no I/O), edited text → text byte-exactly.

``parse(text, path)`` reads the ``# RFD 045: Title`` heading, the header fields
(:mod:`bot.model.header`) and the sections; the edits (re-exported from :mod:`bot.model.edits`)
change only the bytes they mean to.  Line numbers in errors are 1-based.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import TYPE_CHECKING, Final, NamedTuple

from bot.core.errors import InvalidStructure, ParseError
from bot.core.patterns import lazy
from bot.model.header import Field, find_title, normalize_key, scan_fields, split_title
from bot.model.ids import RfdId, split_path
from bot.model.markdown import (
    Heading,
    LazyMask,
    LineKind,
    headings_of,
    iter_headings,
    kinds_of,
    normalize_title,
    section_ends,
    split_lines,
)
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.model.edits import (
        remove_field,
        replace_id_references,
        replace_section,
        set_field,
        set_heading,
        set_status,
    )
    from bot.model.plan import PhaseHeading, phase_headings

__all__ = [
    "Document",
    "Field",
    "PhaseHeading",
    "Section",
    "parse",
    "phase_headings",
    "remove_field",
    "replace_id_references",
    "replace_section",
    "set_field",
    "set_heading",
    "set_status",
]

_LAZY = {
    **dict.fromkeys(
        (
            "remove_field",
            "replace_id_references",
            "replace_section",
            "set_field",
            "set_heading",
            "set_status",
        ),
        "bot.model.edits",
    ),
    **dict.fromkeys(("PhaseHeading", "phase_headings"), "bot.model.plan"),
}


def __getattr__(name: str) -> object:
    """The edits and the phase parser, imported on first use: what only parses RFDs (the
    hooks, ``rfd list``) does not load them."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


LIST, YAML, ADOC = "list", "yaml", "adoc"
"""The forms of a header (:attr:`Document.form`)."""

LINK_KEYS = ("Requires", "Extends", "Supersedes", "Superseded by")
"""Header fields whose values list other RFDs."""
BACK_LINK_KEYS = ("Required by", "Extended by")
"""Header fields that answer another RFD's ``Requires``/``Extends`` (where a repository keeps
them): a published RFD's name no draft (RFD009), and ``rfd promote`` leaves none there."""

EMPTY = "the file is empty"
NO_HEADING = "no '# RFD' heading"
NO_STATUS = "no status line"
EMPTY_HINT = 'start from a template: rfd new design "Title"'
HEADING_HINT = "the first heading must look like '# RFD 045: Title' (or '# RFD D32: Title')"
STATUS_HINT = "add a header line under the heading: - **Status**: Draft"

_LINK_RE = lazy(r"RFD[ \t-]*([Dd]?[0-9]{1,6})(?![0-9])", re.IGNORECASE)
_BARE_ID_RE = lazy(r"(?<![\w./#-])([Dd]?[0-9]{1,6})(?![\w.-])")
_ISSUE_RE = lazy(r"(?:#|/issues/)([0-9]+)|^\s*([0-9]+)\s*$")
_WORD_RE = lazy(r"[A-Za-z]+")


class Section(NamedTuple):
    """A ``##`` (or deeper) section: ``line`` is the 1-based line of its heading,
    ``start``/``end`` the 0-based line indexes of its body (end exclusive: the next
    heading of the same or a higher level, or the end of the file)."""

    title: str
    level: int
    line: int
    start: int
    end: int


class Document:
    """A parsed RFD.  ``rfd_id`` is the id its file name gives (the file name is the
    identity); only a path that is not an RFD file name (``notes.md``) falls back to the
    heading's.  ``heading_id`` is what the ``# RFD NNN`` heading says (None without one):
    lint compares the two, nothing else reads it.

    Immutable, and equal to another when path and text are (everything else is parsed
    from them).  A plain class, not a dataclass, so that the hooks, which parse RFDs,
    do not import ``dataclasses`` (see :class:`bot.model.ids.RfdId`).
    """

    def __init__(
        self,
        *,
        path: str,
        text: str,
        rfd_id: RfdId | None,
        title: str,
        heading_line: int,
        fields: tuple[Field, ...],
        status: Status,
        heading_id: RfdId | None = None,
        status_word: str | None = None,
        form: str = LIST,
        status_key: str = "Status",
    ) -> None:
        self.path: Final = path
        self.text: Final = text
        self.rfd_id: Final = rfd_id
        self.heading_id: Final = heading_id
        self.title: Final = title
        self.heading_line: Final = heading_line
        self.fields: Final = fields
        self.status: Final = status
        """The stage (what rfd reasons about); ``status_word`` is what the file says."""
        self.status_word: Final = status.value if status_word is None else status_word
        self.form: Final = form
        """How the header is written: ``list`` (``- **Status**:`` lines), ``yaml`` (front
        matter) or ``adoc`` (AsciiDoc attributes)."""
        self.status_key: Final = status_key
        """The key the status is written under (``Status``, ``state``, ``stage``…)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Document) and (self.path, self.text) == (other.path, other.text)

    def __hash__(self) -> int:
        return hash((self.path, self.text))

    def __repr__(self) -> str:
        return f"Document(path={self.path!r}, rfd_id={self.rfd_id!r}, status={self.status!r})"

    @cached_property
    def lines(self) -> tuple[str, ...]:
        """The lines of the text, with their endings."""
        return tuple(split_lines(self.text))

    @cached_property
    def kinds(self) -> tuple[LineKind, ...]:
        """What each line is (text, fenced code, comment), worked out once for every check;
        in AsciiDoc, delimited blocks are code (:mod:`bot.model.asciidoc`)."""
        if self.form == ADOC:
            from bot.model import asciidoc

            return tuple(asciidoc.iter_kinds(self.lines))
        return kinds_of(self.text, self.lines)

    @cached_property
    def headings(self) -> tuple[Heading, ...]:
        """Every heading outside code blocks and comments, the title's included (AsciiDoc's
        ``==`` titles at level 2, as ``##``)."""
        if self.form == ADOC:
            from bot.model import asciidoc

            return tuple(asciidoc.headings(self.lines, self.kinds))
        return tuple(headings_of(self.text, self.lines, self.kinds))

    @cached_property
    def sections(self) -> tuple[Section, ...]:
        """Every ``##`` (and deeper) section after the title, in order (AsciiDoc: ``==`` and
        deeper); computed on first use, so listing many RFDs reads only their headers."""
        found = self.headings
        if self.form == ADOC:
            from bot.model import asciidoc

            ends = asciidoc.section_ends(found, self.lines)
        else:
            ends = section_ends(found, len(self.lines))
        return tuple(
            Section(h.title, h.level, h.index + 1, h.index + 1, end)
            for h, end in zip(found, ends, strict=True)
            if h.level >= 2 and h.index >= self.heading_line
        )

    def field(self, key: str) -> str | None:
        """The value of a header field (key compared case-insensitively), None if absent."""
        found = self.field_entry(key)
        return None if found is None else found.value

    def field_entry(self, key: str) -> Field | None:
        """The first header field with this key (compared case-insensitively; ``Status`` is
        the key the status is written under, ``Tracking Issue`` also ``tracking-issue``)."""
        wanted = normalize_key(key)
        if wanted == "status":
            wanted = normalize_key(self.status_key)
        by_key = self._by_key
        found = by_key.get(wanted)
        if found is None and " " in wanted:
            found = by_key.get(wanted.replace(" ", "-")) or by_key.get(wanted.replace(" ", "_"))
        return found

    @cached_property
    def _by_key(self) -> dict[str, Field]:
        found: dict[str, Field] = {}
        for entry in self.fields:
            found.setdefault(normalize_key(entry.key), entry)
        return found

    def section(self, title: str) -> Section | None:
        """The section with this title: a ``##`` one first, else the first of any level."""
        wanted = normalize_title(title)
        matches = [s for s in self.sections if normalize_title(s.title) == wanted]
        return next((s for s in matches if s.level == 2), matches[0] if matches else None)

    def section_body(self, title: str) -> str | None:
        """The raw text of a section's body (subsections included), None if absent."""
        found = self.section(title)
        return None if found is None else "".join(self.lines[found.start : found.end])

    def links(self, key: str) -> tuple[RfdId, ...]:
        """The RFDs a field lists: ``[RFD 001], [RFD D32]``, ``RFD 001``, ``001, 002``."""
        return parse_links(self.field(key) or "")

    @property
    def tracking_issue(self) -> int | None:
        match = _ISSUE_RE.search(self.field("Tracking Issue") or "")
        return None if match is None else int(match[1] or match[2])

    @property
    def category(self) -> str | None:
        return (self.field("Category") or "").strip() or None

    @property
    def authors(self) -> tuple[str, ...]:
        parts = re.split(r"[,;]", self.field("Authors") or self.field("Author") or "")
        return tuple(p.strip() for p in parts if p.strip())


def parse_links(value: str) -> tuple[RfdId, ...]:
    """RFD ids in a field value, in order, without repeats.  When the value says
    ``RFD`` anywhere only ``RFD <id>`` counts (so ``[RFD 072] Phase 1`` is one link)."""
    pattern = _LINK_RE if "rfd" in value.casefold() else _BARE_ID_RE
    found = (RfdId.parse(m[1]) for m in pattern.finditer(value))
    return tuple(dict.fromkeys(found))


def parse(text: str, path: str) -> Document:
    """Parse an RFD; InvalidStructure/ParseError (with path and line) on bad input.  The
    header may be a field list, YAML front matter or AsciiDoc attributes (the document's
    own form: :attr:`Document.form`)."""
    if not text.strip():
        raise InvalidStructure(EMPTY, path=path, line=1, hint=EMPTY_HINT)
    lines = split_lines(text)
    if path.endswith((".adoc", ".asciidoc")):
        from bot.model.document_forms import parse_adoc

        return Document(path=path, text=text, **parse_adoc(text, path, lines)._asdict())
    if text.startswith(("---", "\ufeff---")):
        from bot.model.front_matter import end_of, holds_status

        end = end_of(lines)
        if end is not None and holds_status(lines, end):
            from bot.model.document_forms import parse_front_matter

            parts = parse_front_matter(text, path, lines, end)
            return Document(path=path, text=text, **parts._asdict())
    mask = LazyMask(lines)
    title = find_title(iter_headings(lines, mask))
    if title is None:
        raise InvalidStructure(NO_HEADING, path=path, line=1, hint=HEADING_HINT)
    fields = tuple(scan_fields(lines, title.index + 1, mask))
    heading_id, name = split_title(title.title)
    named = split_path(path)
    return Document(
        path=path,
        text=text,
        rfd_id=heading_id if named is None else named[0],
        heading_id=heading_id,
        title=name,
        heading_line=title.index + 1,
        fields=fields,
        status=_status(fields, path, title.index + 1, text),
    )


def _status(fields: tuple[Field, ...], path: str, heading_line: int, text: str) -> Status:
    field = next((f for f in fields if normalize_key(f.key) == "status"), None)
    if field is None and text.startswith(("---", "\ufeff---")):  # front matter, no state
        from bot.model.document_forms import NO_STATE_HINT, NO_STATE_KEY

        raise InvalidStructure(NO_STATE_KEY, path=path, line=1, hint=NO_STATE_HINT)
    if field is None:
        raise InvalidStructure(NO_STATUS, path=path, line=heading_line, hint=STATUS_HINT)
    word = _WORD_RE.search(field.value)
    try:
        return Status.parse(word[0] if word else "", path=path, line=field.line)
    except ParseError:
        pass
    try:
        return Status.parse(field.value, path=path, line=field.line)
    except ParseError:
        from bot.model.status import stage_of  # the repository's own words ([statuses])

        return stage_of(field.value, dialects=False, path=path, line=field.line)
