"""Lint rules on an RFD's body, and the Finding record every rule returns.

RFD006: a ``##`` section the configuration requires for the category
(``[lint.required_sections]``; none by default) is missing.  RFD007: a required section
is empty or still holds only template guidance (a warning while the RFD is a Draft).
RFD017 (warning): a published RFD mentions a draft id in its text.
RFD018: a second ``#`` title, or a ``##`` section given twice (edits and readers see
only the first).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from typing import NamedTuple

from bot import templates
from bot.model.document import Document
from bot.model.markdown import LineKind, normalize_title
from bot.model.status import Status

_DRAFT_MENTION_RE = re.compile(r"\bRFD[ \t-]*(D[0-9]+)\b")
_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)


class Severity(enum.Enum):
    ERROR = "error"  # fails `rfd lint` and the hook
    WARNING = "warning"  # reported only


class Finding(NamedTuple):
    """One problem: where, which rule, what is wrong and what to do."""

    path: str
    line: int | None
    code: str
    message: str
    hint: str
    severity: Severity = Severity.ERROR
    section: str = ""

    def __str__(self) -> str:
        """``path:line: RFD012 error: message`` and the hint: the severity says whether it fails."""
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.code} {self.severity.value}: {self.message}\n  hint: {self.hint}"


def body_findings(doc: Document, category: str, required: tuple[str, ...]) -> list[Finding]:
    """Draft mentions, and the ``required`` sections of ``category`` missing or empty."""
    return [*_draft_mentions(doc), *_required_sections(doc, category, required)]


def _required_sections(
    doc: Document, category: str, required: tuple[str, ...]
) -> Iterator[Finding]:
    severity = Severity.WARNING if doc.status is Status.DRAFT else Severity.ERROR
    for title in required:
        section = doc.section(title)
        if section is None:
            hint = f"add a '## {title}' section ([lint.required_sections] {category})"
            message = f"required section '{title}' is missing"
            yield Finding(doc.path, doc.heading_line, "RFD006", message, hint, section=title)
            continue
        body = doc.section_body(title) or ""
        if templates.is_placeholder(body) or not _COMMENT_RE.sub("", body).strip():
            hint = "write this section, or say in one line why it does not apply"
            message = f"section '{title}' is empty or still the template placeholder"
            yield Finding(doc.path, section.line, "RFD007", message, hint, severity, title)


def repeated_headings(doc: Document) -> Iterator[Finding]:
    for heading in doc.headings:
        if heading.level == 1 and heading.index >= doc.heading_line:
            hint = "an RFD has one '#' title: make this a '##' section or remove it"
            message = f"a second title '# {heading.title}'"
            yield Finding(doc.path, heading.index + 1, "RFD018", message, hint)
    seen: set[str] = set()
    for section in (s for s in doc.sections if s.level == 2):
        if normalize_title(section.title) in seen:
            hint = "merge the two sections, or rename one of them"
            message = f"section '{section.title}' is given twice (only the first one counts)"
            yield Finding(doc.path, section.line, "RFD018", message, hint)
        seen.add(normalize_title(section.title))


def _draft_mentions(doc: Document) -> Iterator[Finding]:
    if doc.rfd_id is None or doc.rfd_id.draft or not _DRAFT_MENTION_RE.search(doc.text):
        return  # a mention on a line is a mention in the text: most RFDs stop here
    lines = doc.lines
    body = max((f.index + f.span for f in doc.fields), default=doc.heading_line)
    for index, kind in enumerate(doc.kinds):
        if kind is LineKind.CODE or index < body:  # header links are checked by RFD008/9
            continue
        for match in _DRAFT_MENTION_RE.finditer(lines[index]):
            hint = "drafts are renumbered when promoted; link to it once it has a number"
            message = f"mentions draft RFD {match[1]}"
            yield Finding(doc.path, index + 1, "RFD017", message, hint, Severity.WARNING)
