"""RFD identifiers: published ``045`` and draft ``D32``.

An :class:`RfdId` is what a user types (``045``, ``45``, ``D32``, ``d32``, ``RFD 045``)
and what file names start with (``045-slug.md``, ``D32-slug.md``).  An id keeps the
padding it was written with (``D05`` stays ``D05``; the file name is the identity), but
compares by kind and number alone (``D5`` finds ``D05``).  A published id a user types is
shown with at least three digits (``45`` → ``045``), one a file or directory name gives with
that name's digits (Oxide's ``rfd/57/`` is RFD ``57``); drafts with at least one.
"""

from __future__ import annotations

import re
from functools import total_ordering
from typing import Final

from bot.core.errors import ValidationError
from bot.core.patterns import lazy

_ID_RE = lazy(
    r"""
    ^\s*
    (?:RFD[\s-]*)?          # optional "RFD " prefix, as in headings and links
    (?P<draft>[Dd])?        # a draft id starts with D
    (?P<number>[0-9]{1,6})
    \s*$
    """,
    re.VERBOSE | re.IGNORECASE,
)

_FILE_RE = lazy(
    r"""
    ^(?P<id>[Dd]?[0-9]{1,6})   # the id: 045 or D32
    (?:-(?P<slug>.*))?      # -slug (optional: "045.md" is tolerated)
    \.md$
    """,
    re.VERBOSE,
)

_WORD_RE = lazy(r"[a-z0-9]+", re.ASCII)

_NO_DECOMPOSITION = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "ø": "o",
        "Ø": "O",
        "œ": "oe",
        "Œ": "OE",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
    }
)
"""Latin letters that NFKD does not split into a base letter and a mark."""

BAD_ID_HINT = "use a number like 045 (published) or D32 (draft)"


@total_ordering
class RfdId:
    """The id of one RFD.  Drafts sort after every published RFD.

    A value (compared, hashed and sorted as ``(draft, number)``) written by hand rather
    than as a dataclass: the hooks parse ids, and importing ``dataclasses`` (which
    imports ``inspect``) plus building each class costs them ~20 ms at start-up.
    Not a NamedTuple either: an id must serialize as ``"045"``, not as a JSON array.
    """

    __slots__ = ("digits", "draft", "number")

    def __init__(self, draft: bool, number: int, digits: int = 0) -> None:
        self.draft: Final = draft
        self.number: Final = number
        self.digits: Final = digits
        """How many digits it is written with (zero-padded); 0: the least for its kind."""

    def _key(self) -> tuple[bool, int]:
        return self.draft, self.number

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RfdId) and self._key() == other._key()

    def __lt__(self, other: RfdId) -> bool:
        if not isinstance(other, RfdId):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"RfdId(draft={self.draft!r}, number={self.number!r})"

    @classmethod
    def parse(cls, text: str) -> RfdId:
        """Parse ``045``, ``45``, ``D32``, ``d32`` or ``RFD 045``; ValidationError on junk."""
        match = _ID_RE.match(text)
        if match is None:
            raise ValidationError(f"not an RFD id: {text!r}", hint=BAD_ID_HINT)
        digits, draft = match["number"], match["draft"] is not None
        width = len(digits) if draft else max(len(digits), 3)  # typed 45: RFD 045
        return cls(draft=draft, number=int(digits), digits=width)

    @classmethod
    def published(cls, number: int, digits: int = 0) -> RfdId:
        return cls(draft=False, number=number, digits=digits)

    def __str__(self) -> str:
        if self.draft:
            return f"D{self.number:0{max(self.digits, 1)}d}"
        return f"{self.number:0{self.digits or 3}d}"

    @property
    def state_key(self) -> str:
        """The name of this RFD's state directory."""
        return str(self)

    @property
    def label(self) -> str:
        """``RFD 045`` / ``RFD D32``, as written in headings and links."""
        return f"RFD {self}"

    def file_name(self, slug: str) -> str:
        """``045-slug.md`` / ``D32-slug.md``."""
        return f"{self}-{slug}.md"


def split_file_name(name: str) -> tuple[RfdId, str] | None:
    """``"045-my-title.md"`` → ``(RfdId 045, "my-title")``; None for any other name."""
    if name.endswith(".adoc"):  # a flat AsciiDoc corpus: 045-my-title.adoc
        name = name[: -len(".adoc")] + ".md"
    match = _FILE_RE.match(name)
    if match is None:
        return None
    digits = match["id"].lstrip("Dd")  # [Dd]?[0-9]{1,6}: no need to parse it again
    rfd_id = RfdId(draft=digits != match["id"], number=int(digits), digits=len(digits))
    return rfd_id, match["slug"] or ""


PROPOSAL_NUMBER = 0
"""The number of an RFC proposal whose number is not given yet (``text/0000-my-feature.md``):
rust-lang/rfcs and emberjs/rfcs write a new RFC so in its pull request and number it when it
is accepted.  No RFD is ever numbered 0, so every flat ``0000-slug.md`` file is a proposal,
named by its slug (several are normal: one per pull request)."""


def is_proposal(rfd_id: RfdId, path: str) -> bool:
    """Is ``path`` (its id ``rfd_id``) an unnumbered proposal (``0000-slug.md``)?"""
    return (
        not rfd_id.draft
        and rfd_id.number == PROPOSAL_NUMBER
        and path.endswith(".md")
        and (path.rpartition("/")[2] not in ("README.md", "index.md"))
    )


DOCUMENT_NAMES = ("README.md", "README.adoc", "index.md", "index.adoc")
"""The document of a directory-per-RFD corpus (``rfd/0001/README.md``): the directory's
name is the id, the other files in it belong to the RFD."""
_DIR_RE = lazy(r"^[0-9]{1,6}$")


def split_path(path: str) -> tuple[RfdId, str] | None:
    """The id (and slug) a path gives: ``045-slug.md`` by its name, ``0001/README.md`` by its
    directory (slug empty); None for any other path."""
    parent, _, name = path.rpartition("/")
    if name in DOCUMENT_NAMES:
        folder = parent.rpartition("/")[2]
        if _DIR_RE.match(folder):
            return RfdId(draft=False, number=int(folder), digits=len(folder)), ""
        return None
    return split_file_name(name)


def split_entry(relative: str) -> tuple[RfdId, str] | None:
    """The id a path inside an RFD directory (relative to it) gives: ``045-slug.md``
    directly in it, or the document of a numbered directory (``0001/README.md``); None
    for any other path (a deeper file, another file of a numbered directory)."""
    folder, _, name = relative.rpartition("/")
    if "/" in folder or (folder and name not in DOCUMENT_NAMES):
        return None
    return split_path(relative)


def numbered_folder(relative: str) -> str | None:
    """The numbered directory (``0001``) a file inside an RFD directory (relative to it)
    sits in, at any depth (``0001/diagram.svg``, ``0001/img/a.png``): that RFD's file.
    None for a file directly in the RFD directory or in another directory."""
    folder, inside, _ = relative.partition("/")
    return folder if inside and _DIR_RE.match(folder) else None


SLUG_MAX = 50
"""Longest slug (seed 000): a long title is cut at the last whole word that fits."""


def slugify(title: str) -> str:
    """A file-name slug: lower-case ASCII letters and digits joined by single dashes.

    Accented letters keep their base letter (``Café résumé`` → ``cafe-resume``); at most
    :data:`SLUG_MAX` characters; ValidationError when nothing usable is left.
    """
    import unicodedata  # only when naming a new file: the hooks parse ids, never make them

    decomposed = unicodedata.normalize("NFKD", title).translate(_NO_DECOMPOSITION)
    ascii_text = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = _WORD_RE.findall(ascii_text.lower())
    slug = "-".join(words)
    if len(slug) > SLUG_MAX:
        cut = slug[: SLUG_MAX + 1]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else slug[:SLUG_MAX]
    if not slug:
        raise ValidationError(
            f"the title {title!r} has no letters or digits to name the file with",
            hint="use a title with some Latin letters or digits (the file name is ASCII)",
        )
    return slug
