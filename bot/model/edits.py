"""Edits of an RFD's text that change only the bytes they mean to.

Each edit takes the whole text and returns the whole new text.  Line endings
(``\\n`` or ``\\r\\n``) and the presence of a final newline are kept; new lines use
the document's own line ending.  Import these from :mod:`bot.model.document`.
"""

from __future__ import annotations

from bot.core.errors import InvalidStructure, ValidationError
from bot.model.header import (
    Field,
    find_title,
    format_field,
    normalize_key,
    rebuild_title,
    replace_value,
    scan_fields,
)
from bot.model.ids import RfdId
from bot.model.markdown import (
    Heading,
    content,
    ending,
    eol_of,
    headings,
    normalize_title,
    section_ends,
    split_lines,
)
from bot.model.references import replace_id_references
from bot.model.status import Status

__all__ = [
    "remove_field",
    "replace_id_references",
    "replace_section",
    "set_field",
    "set_heading",
    "set_status",
]

NO_HEADING = "no '# RFD' heading to edit under"
NO_HEADING_HINT = "add a first line like '# RFD 045: Title'"
NO_SECTION = "no section `{title}` to add a section after (the sections: {known})"
NO_SECTION_HINT = "name one of the sections, or leave `after` out to add it at the end"


def set_field(text: str, key: str, value: str) -> str:
    """Set a header field's value; add it after the last header field if missing.  The
    header keeps its form (field list, YAML front matter, AsciiDoc attributes)."""
    _check_field(key, value)
    form = form_of(text)
    if form == "yaml":
        from bot.model import front_matter

        return front_matter.set_value(text, key, value)
    if form == "adoc":
        from bot.model import asciidoc

        return asciidoc.set_value(text, key, value, _adoc_status_key(text))
    lines = split_lines(text)
    title, fields = _header(lines)
    existing = _find(fields, key)
    if existing is not None:
        last = lines[existing.index + existing.span - 1]
        new = replace_value(content(lines[existing.index]), value) + ending(last)
        lines[existing.index : existing.index + existing.span] = [new]
        return "".join(lines)
    if fields:
        anchor = fields[-1]
        line = format_field(content(lines[anchor.index]), key, value)
        return _insert(lines, anchor.index + anchor.span - 1, [line], eol_of(text))
    return _insert_first_field(lines, title.index, format_field(None, key, value), eol_of(text))


def set_status(text: str, status: Status) -> str:
    """Set the status, in the document's own words: the word of the repository's vocabulary
    (:mod:`bot.model.status`) for ``status``, in the dialect of the word it had."""
    from bot.model.status import word_for

    form = form_of(text)
    return set_field(
        text, "Status", word_for(status, current_status_word(text, form), lower=form != "list")
    )


def form_of(text: str) -> str:
    """How the header of ``text`` is written: ``yaml``, ``adoc`` or ``list``."""
    from bot.model import front_matter

    lines = split_lines(text)
    end = front_matter.end_of(lines) if front_matter.has_front_matter(text) else None
    if end is not None and front_matter.holds_status(lines, end):
        return "yaml"
    if text.lstrip().startswith((":", "=")):
        from bot.model import asciidoc

        if asciidoc.scan(lines)[1] is not None:
            return "adoc"
    return "list"


def current_status_word(text: str, form: str) -> str | None:
    """The status word ``text`` has now (None when it has none)."""
    if form == "yaml":
        from bot.model import front_matter

        lines = split_lines(text)
        end = front_matter.end_of(lines)
        found = front_matter.status_key(front_matter.read_fields(lines, end or 0, ""))
        return None if found is None else found.value
    if form == "adoc":
        from bot.model import asciidoc

        fields = asciidoc.scan(split_lines(text))[0]
        return next((f.value for f in fields if normalize_key(f.key) in _STATUS_KEYS), None)
    try:
        existing = _find(_header(split_lines(text))[1], "Status")
    except InvalidStructure:
        return None
    return None if existing is None else existing.value


_STATUS_KEYS = ("state", "stage", "status")


def _adoc_status_key(text: str) -> str | None:
    from bot.model import asciidoc

    fields = asciidoc.scan(split_lines(text))[0]
    return next((f.key for f in fields if normalize_key(f.key) in _STATUS_KEYS), None)


def remove_field(text: str, key: str) -> str:
    """Remove a header field (all its lines); the text is unchanged when it is absent."""
    form = form_of(text)
    if form == "yaml":
        from bot.model import front_matter

        return front_matter.remove_value(text, key)
    if form == "adoc":
        from bot.model import asciidoc

        return asciidoc.remove_value(text, key)
    lines = split_lines(text)
    existing = _find(_header(lines)[1], key)
    if existing is None:
        return text
    at_end = existing.index + existing.span == len(lines)
    del lines[existing.index : existing.index + existing.span]
    if at_end and lines and not text.endswith("\n"):
        lines[-1] = content(lines[-1])
    return "".join(lines)


def replace_section(
    text: str, title: str, body: str, *, form: str | None = None, after: str | None = None
) -> str:
    """Replace a section's body (up to the next heading of the same or a higher level),
    or add a section ``title`` with ``body`` when there is no such section: at the end, or
    right after the section ``after`` (its subsections included).  ``form`` is the
    document's (:func:`form_of` by default): an AsciiDoc one's sections are ``==`` titles
    outside delimited blocks, and a new one is written ``== title``, a Markdown one's
    ``## title``."""
    lines = split_lines(text)
    adoc = (form or form_of(text)) == "adoc"
    found, ends = _outline(lines, adoc)
    position = _find_section(found, title)
    eol = eol_of(text)
    if position is None:
        heading = f"{'==' if adoc else '##'} {title.strip()}"
        end = len(lines) if after is None else ends[_section_after(found, after)]
        if end == len(lines):
            return _append_section(text, heading, body, eol)
        return _insert_section(lines, end, heading, body, eol)
    start = found[position].index + 1
    end = ends[position]
    block = _body_block(body, eol, followed=end < len(lines))
    if end == len(lines) and not text.endswith("\n"):
        block = block.removesuffix(eol)
        heading = lines[start - 1]
        lines[start - 1] = content(heading) + ((ending(heading) or eol) if block else "")
    lines[start:end] = [block]
    return "".join(lines)


def _outline(lines: list[str], adoc: bool) -> tuple[list[Heading], list[int]]:
    """The headings of ``lines`` and where each one's section ends (0-based, exclusive)."""
    if adoc:
        from bot.model import asciidoc

        found = asciidoc.headings(lines, list(asciidoc.iter_kinds(lines)))
        return found, asciidoc.section_ends(found, lines)
    found = headings(lines)
    return found, section_ends(found, len(lines))


def _section_after(found: list[Heading], after: str) -> int:
    position = _find_section(found, after)
    if position is None:
        raise ValidationError(
            NO_SECTION.format(title=after, known=_known(found)), hint=NO_SECTION_HINT
        )
    return position


def _insert_section(lines: list[str], end: int, heading: str, body: str, eol: str) -> str:
    """``lines`` with a new section (``heading`` line, then ``body``) at line ``end``."""
    inner = _body_lines(body)
    new = [heading + eol, *([eol] if inner else []), *(line + eol for line in inner), eol]
    if end and content(lines[end - 1]).strip():
        new.insert(0, eol)  # a blank line between the section before and the new title
    lines[end:end] = new
    return "".join(lines)


def _known(found: list[Heading]) -> str:
    """The ``##``/``==`` sections, for an error that names a missing one."""
    return ", ".join(f"`{h.title}`" for h in found if h.level == 2) or "none"


def set_heading(text: str, rfd_id: RfdId, title: str | None = None) -> str:
    """Rewrite the ``# RFD <id>: <title>`` heading (the title is kept when None)."""
    lines = split_lines(text)
    heading = find_title(headings(lines))
    if heading is None:
        raise InvalidStructure(NO_HEADING, hint=NO_HEADING_HINT)
    line = lines[heading.index]
    lines[heading.index] = rebuild_title(content(line), rfd_id, title) + ending(line)
    return "".join(lines)


def _check_field(key: str, value: str) -> None:
    if not key.strip() or any(c in key for c in "*:\r\n"):
        raise ValidationError(f"bad header field name {key!r}", hint="use words like 'Status'")
    if "\n" in value or "\r" in value:
        raise ValidationError(f"header field {key!r} must be one line", hint="join the lines")


def _header(lines: list[str]) -> tuple[Heading, list[Field]]:
    title = find_title(headings(lines))
    if title is None:
        raise InvalidStructure(NO_HEADING, hint=NO_HEADING_HINT)
    return title, scan_fields(lines, title.index + 1)


def _find(fields: list[Field], key: str) -> Field | None:
    wanted = normalize_key(key)
    return next((f for f in fields if normalize_key(f.key) == wanted), None)


def _insert(lines: list[str], after: int, new: list[str], eol: str) -> str:
    """Insert lines (given without endings) after 0-based line ``after``."""
    block = [line + eol for line in new]
    if not ending(lines[after]):  # the last line has no ending: keep it that way
        lines[after] += eol
        block[-1] = content(block[-1])
    lines[after + 1 : after + 1] = block
    return "".join(lines)


def _insert_first_field(lines: list[str], heading: int, line: str, eol: str) -> str:
    """The first header field goes after the heading, set off by blank lines."""
    after = heading
    if after + 1 < len(lines) and not content(lines[after + 1]).strip():
        after += 1
    new = [line] if after > heading else ["", line]
    if after + 1 < len(lines) and content(lines[after + 1]).strip():
        new.append("")
    return _insert(lines, after, new, eol)


def _find_section(found: list[Heading], title: str) -> int | None:
    wanted = normalize_title(title)
    matches = [
        i for i, h in enumerate(found) if h.level >= 2 and normalize_title(h.title) == wanted
    ]
    return next((i for i in matches if found[i].level == 2), matches[0] if matches else None)


def _body_lines(body: str) -> list[str]:
    """The body's lines without endings and without leading/trailing blank lines."""
    result = [content(line) for line in split_lines(body)]
    while result and not result[0].strip():
        result.pop(0)
    while result and not result[-1].strip():
        result.pop()
    return result


def _body_block(body: str, eol: str, *, followed: bool) -> str:
    inner = _body_lines(body)
    block = (["", *inner] if inner else []) + ([""] if followed else [])
    return "".join(line + eol for line in block)


def _append_section(text: str, heading: str, body: str, eol: str) -> str:
    head = text if not text or text.endswith("\n") else text + eol
    if head.strip() and content(split_lines(head)[-1]).strip():
        head += eol  # a blank line before the new heading
    result = head + f"{heading}{eol}" + _body_block(body, eol, followed=False)
    return result if text.endswith("\n") or not text else result.removesuffix(eol)
