"""Parsing an RFD whose header is YAML front matter or AsciiDoc attributes (the other forms
:func:`bot.model.document.parse` reads; the field list is parsed there).  Imported only for
such a file: the hooks on a flat corpus never load it, nor ruamel.yaml."""

from __future__ import annotations

from bot.core.errors import InvalidStructure
from bot.model.document import (
    ADOC,
    NO_ADOC_STATE,
    NO_ADOC_STATE_HINT,
    NO_STATE_HINT,
    NO_STATE_KEY,
    YAML,
    Document,
)
from bot.model.header import Field, normalize_key, split_title
from bot.model.ids import RfdId, split_path
from bot.model.markdown import LazyMask, iter_headings


def parse_front_matter(text: str, path: str, lines: list[str], end: int) -> Document:
    from bot.model.front_matter import read_fields, status_key

    fields = read_fields(lines, end, path)
    found = status_key(fields)
    if found is None:
        raise InvalidStructure(NO_STATE_KEY, path=path, line=1, hint=NO_STATE_HINT)
    mask = LazyMask(lines)
    title = next((h for h in iter_headings(lines, mask) if h.level == 1 and h.index > end), None)
    heading_id, name = split_title(title.title) if title else (None, _title_field(fields, path))
    return _with_status(text, path, fields, found, heading_id, name,
                        (title.index if title else end) + 1, YAML)  # fmt: skip


def parse_adoc(text: str, path: str, lines: list[str]) -> Document:
    from bot.model.asciidoc import scan

    fields, title_index, title = scan(lines)
    if title is None:
        raise InvalidStructure("no '= RFD' title", path=path, line=1,
                               hint="the title line must look like '= RFD 12 Title'")  # fmt: skip
    found = next((f for f in fields if normalize_key(f.key) in ("state", "stage", "status")), None)
    if found is None:
        raise InvalidStructure(NO_ADOC_STATE, path=path, line=1, hint=NO_ADOC_STATE_HINT)
    heading_id, name = split_title(title)
    return _with_status(text, path, fields, found, heading_id, name,
                        (title_index or 0) + 1, ADOC)  # fmt: skip


def _with_status(
    text: str, path: str, fields: tuple[Field, ...], found: Field, heading_id: RfdId | None,
    name: str, heading_line: int, form: str,
) -> Document:  # fmt: skip
    from bot.model.vocabulary import stage_of

    word = found.value.strip()
    status = stage_of(word, dialects=True, path=path, line=found.line)
    named = split_path(path)
    return Document(
        path=path, text=text, rfd_id=heading_id if named is None else named[0],
        heading_id=heading_id, title=name, heading_line=heading_line, fields=fields,
        status=status, status_word=word, form=form, status_key=found.key,
    )  # fmt: skip


def _title_field(fields: tuple[Field, ...], path: str) -> str:
    """The title of a document without a ``#`` heading: its ``title`` key, else its slug."""
    given = next((f.value for f in fields if normalize_key(f.key) == "title"), None)
    if given:
        return given
    named = split_path(path)
    slug = named[1] if named else path.rpartition("/")[2].rsplit(".", 1)[0]
    return slug.replace("-", " ").replace("_", " ").strip().capitalize() or path
