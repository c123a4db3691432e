"""Parsing an RFD whose header is YAML front matter or AsciiDoc attributes (the other forms
:func:`bot.model.document.parse` reads; the field list is parsed there).  Imported only for
such a file: the hooks on a flat corpus never load it, nor ruamel.yaml.  It hands back the
parts (:class:`Parts`); :mod:`bot.model.document` makes the Document of them."""

from __future__ import annotations

from typing import NamedTuple

from bot.core.errors import InvalidStructure
from bot.model.header import Field, normalize_key, split_title
from bot.model.ids import RfdId, split_path
from bot.model.markdown import LazyMask, iter_headings
from bot.model.status import Status

YAML, ADOC = "yaml", "adoc"
"""``bot.model.document.YAML``/``ADOC`` (the header's form)."""
NO_STATE_KEY = "no state in the front matter"
NO_STATE_HINT = (
    "add a line 'state: draft' between the '---' lines (or a '- **Status**: Draft' line "
    "under the heading)"
)
NO_ADOC_STATE = "no :state: attribute"
NO_ADOC_STATE_HINT = "add a line ':state: draft' above the '= RFD' title"


class Parts(NamedTuple):
    rfd_id: RfdId | None
    heading_id: RfdId | None
    title: str
    heading_line: int
    fields: tuple[Field, ...]
    status: Status
    status_word: str
    form: str
    status_key: str


def parse_front_matter(text: str, path: str, lines: list[str], end: int) -> Parts:
    from bot.model.front_matter import read_fields, status_key

    fields = read_fields(lines, end, path)
    found = status_key(fields)
    if found is None:
        raise InvalidStructure(NO_STATE_KEY, path=path, line=1, hint=NO_STATE_HINT)
    mask = LazyMask(lines)
    title = next((h for h in iter_headings(lines, mask) if h.level == 1 and h.index > end), None)
    heading_id, name = split_title(title.title) if title else (None, _title_field(fields, path))
    return _with_status(
        text, path, fields, found, heading_id, name, (title.index if title else end) + 1, YAML
    )


def parse_adoc(text: str, path: str, lines: list[str]) -> Parts:
    from bot.model.asciidoc import scan

    fields, title_index, title = scan(lines)
    if title is None:
        raise InvalidStructure(
            "no '= RFD' title",
            path=path,
            line=1,
            hint="the title line must look like '= RFD 12 Title'",
        )
    found = next((f for f in fields if normalize_key(f.key) in ("state", "stage", "status")), None)
    if found is None:
        raise InvalidStructure(NO_ADOC_STATE, path=path, line=1, hint=NO_ADOC_STATE_HINT)
    heading_id, name = split_title(title)
    return _with_status(text, path, fields, found, heading_id, name, (title_index or 0) + 1, ADOC)


def _with_status(
    text: str,
    path: str,
    fields: tuple[Field, ...],
    found: Field,
    heading_id: RfdId | None,
    name: str,
    heading_line: int,
    form: str,
) -> Parts:
    from bot.model.status import stage_of

    word = found.value.strip()
    status = stage_of(word, dialects=True, path=path, line=found.line)
    named = split_path(path)
    rfd_id = heading_id if named is None else named[0]
    return Parts(rfd_id, heading_id, name, heading_line, fields, status, word, form, found.key)


def _title_field(fields: tuple[Field, ...], path: str) -> str:
    """The title of a document without a ``#`` heading: its ``title`` key, else its slug."""
    given = next((f.value for f in fields if normalize_key(f.key) == "title"), None)
    if given:
        return given
    named = split_path(path)
    slug = named[1] if named else path.rpartition("/")[2].rsplit(".", 1)[0]
    return slug.replace("-", " ").replace("_", " ").strip().capitalize() or path
