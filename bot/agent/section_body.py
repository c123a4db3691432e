"""What ``rfd_section`` accepts: one section's body, under a name the RFD has or the call
declares new.

Pure: the RFD's text in, the whole new text out, or a :class:`ValidationError` the model
reads as a tool error.  A body never starts a section of its own (no heading at the
section's level or above, so never a second ``# RFD`` title), never hides the sections
after it (an unclosed code block or comment), and a name is never a header field or
the document's title.
"""

from __future__ import annotations

import re

from bot.core.errors import ValidationError
from bot.lifecycle.lint import REQUIRED_FIELDS
from bot.model import document
from bot.model.markdown import Heading, headings, normalize_title, split_lines

TRACKING = "Tracking Issue"
LEADING_HEADING = re.compile(r"\A\s*\#{1,6}[ \t]+(?P<title>[^\n]*)\n?")

NO_NAME = "rfd_section needs a section name"
NO_NAME_HINT = "name the section to write, e.g. 'Summary'"
MULTILINE_NAME = "a section name is one line"
NAME_IS_FIELD = "`{name}` is a header field, not a section"
NAME_IS_FIELD_HINT = "header fields are kept by the workflow; write a section's body instead"
NAME_IS_TITLE = "`{name}` is the RFD's title, not a section"
NAME_IS_TITLE_HINT = "write one section (e.g. 'Summary') at a time"
UNKNOWN_SECTION = "the RFD has no section `{name}` (its sections: {known})"
UNKNOWN_SECTION_HINT = "use one of its sections, or call rfd_section with new: true to add one"
HEADING_IN_BODY = "the content of `{name}` holds the heading `{heading}` (line {line} of it)"
HEADING_IN_BODY_HINT = (
    "send only the section's body: subsections use {deeper} or deeper, and every other "
    "section gets its own rfd_section call"
)
HIDES_SECTIONS = "the content of `{name}` would hide the sections after it"
HIDES_SECTIONS_HINT = "close every code block (```) and comment (<!-- -->) the content opens"


def section_edit(text: str, path: str, section: str, content: str, *, new: bool = False) -> str:
    """``text`` with one section's body replaced (matched case-insensitively); with ``new``
    a section the RFD lacks is appended as ``## section``."""
    doc = document.parse(text, path)
    title, level = _target(doc, section, new=new)
    heading = LEADING_HEADING.match(content)
    if heading and normalize_title(heading["title"]) == normalize_title(title):
        content = content[heading.end() :]
    _check_body(title, level, content)
    after = document.replace_section(text, title, content.strip("\n") + "\n")
    if _outline(after, level) != _outline(text, level) + _added(doc, title, level):
        raise ValidationError(HIDES_SECTIONS.format(name=title), hint=HIDES_SECTIONS_HINT)
    return after


def _target(doc: document.Document, section: str, *, new: bool) -> tuple[str, int]:
    """The section's title as the RFD writes it and its level (2 for a new one)."""
    name = section.strip().lstrip("#").strip()
    if not name:
        raise ValidationError(NO_NAME, hint=NO_NAME_HINT)
    if "\n" in name or "\r" in name:
        raise ValidationError(MULTILINE_NAME, hint=NO_NAME_HINT)
    _check_name(doc, name)
    found = doc.section(name)
    if found is not None:
        return found.title, found.level
    if not new:
        known = ", ".join(f"`{s.title}`" for s in doc.sections if s.level == 2) or "none"
        message = UNKNOWN_SECTION.format(name=name, known=known)
        raise ValidationError(message, hint=UNKNOWN_SECTION_HINT)
    return name, 2


def _check_name(doc: document.Document, name: str) -> None:
    """A header field or the title is no section, whatever the RFD holds below."""
    wanted = normalize_title(name)
    keys = (*REQUIRED_FIELDS, *document.LINK_KEYS, TRACKING, *(f.key for f in doc.fields))
    if wanted in {normalize_title(key) for key in keys}:
        raise ValidationError(NAME_IS_FIELD.format(name=name), hint=NAME_IS_FIELD_HINT)
    heading = normalize_title(doc.lines[doc.heading_line - 1].lstrip(" #"))
    if wanted in (normalize_title(doc.title), heading):
        raise ValidationError(NAME_IS_TITLE.format(name=name), hint=NAME_IS_TITLE_HINT)


def _check_body(title: str, level: int, content: str) -> None:
    for found in headings(split_lines(content)):
        if found.level <= level:
            shown = "#" * found.level + " " + found.title
            message = HEADING_IN_BODY.format(name=title, heading=shown, line=found.index + 1)
            hint = HEADING_IN_BODY_HINT.format(deeper="#" * (level + 1))
            raise ValidationError(message, hint=hint)


def _outline(text: str, level: int) -> list[tuple[int, str]]:
    """The headings at ``level`` or above: what an edit of one body must leave alone."""
    return [_key(h) for h in headings(split_lines(text)) if h.level <= level]


def _added(doc: document.Document, title: str, level: int) -> list[tuple[int, str]]:
    return [] if doc.section(title) is not None else [(level, normalize_title(title))]


def _key(heading: Heading) -> tuple[int, str]:
    return heading.level, normalize_title(heading.title)
