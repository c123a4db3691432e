"""What ``rfd_draft`` may do to an RFD file that exists: lay out the sections of a bare
skeleton, keeping its heading and header fields.

``rfd author`` and ``rfd new`` create the file from a template before draft runs, so
"create the file once" alone could never apply.  A file whose every section is still
empty or template guidance has nothing a person wrote below its header: the model may
replace its sections (headings and any first text) in one call.  Its heading and header
fields (status, authors, date, links) are the workflow's and stay byte for byte.  Pure.
"""

from __future__ import annotations

from bot import templates
from bot.core.errors import AlreadyExists, ValidationError
from bot.model import document
from bot.model.markdown import eol_of, headings, split_lines

WRITTEN = "`{path}` has written sections already"
WRITTEN_HINT = "write its sections one by one with rfd_section"
NO_SECTIONS = "the content holds no `##` section headings"
NO_SECTIONS_HINT = "send the section headings (e.g. '## Summary'), each with its text or empty"
SECOND_TITLE = "the content holds a `#` title after its sections begin (line {line} of it)"
SECOND_TITLE_HINT = "an RFD has one title; its heading and header fields are kept as they are"
KEPT = "kept the heading and header fields of {path}; laid out its sections: {sections}"


def is_skeleton(doc: document.Document) -> bool:
    """Every section of ``doc`` is empty or template guidance (none has one: also true)."""
    return all(templates.is_placeholder(doc.section_body(s.title) or "") for s in doc.sections)


def lay_out(text: str, path: str, content: str) -> str:
    """``text`` (a skeleton) with its sections replaced by those of ``content``."""
    doc = document.parse(text, path)
    if not is_skeleton(doc):
        raise AlreadyExists(WRITTEN.format(path=path), hint=WRITTEN_HINT)
    lines = split_lines(text)
    first = next((s.line - 1 for s in doc.sections), len(lines))
    header = "".join(lines[:first]).rstrip("\r\n")
    eol = eol_of(text)
    body = _sections_of(content).replace("\r\n", "\n").replace("\n", eol)
    result = header + eol + eol + body
    document.parse(result, path)  # refuse what would not parse
    return result


def summary(text: str, path: str) -> str:
    """The tool's answer: what was kept and which sections there are now."""
    doc = document.parse(text, path)
    names = ", ".join(s.title for s in doc.sections if s.level == 2) or "none"
    return KEPT.format(path=path, sections=names)


def _sections_of(content: str) -> str:
    """``content`` from its first ``##`` heading (any title and header fields before it
    are the model's copy of what the file keeps)."""
    lines = split_lines(content)
    found = headings(lines)
    start = next((h.index for h in found if h.level == 2), None)
    if start is None:
        raise ValidationError(NO_SECTIONS, hint=NO_SECTIONS_HINT)
    title = next((h for h in found if h.level == 1 and h.index > start), None)
    if title is not None:
        raise ValidationError(SECOND_TITLE.format(line=title.index + 1), hint=SECOND_TITLE_HINT)
    body = "".join(lines[start:]).rstrip("\r\n")
    return body + "\n"
