"""Structural checks of one RFD, shared by ``rfd lint``, the rfd-lint hook and the
offline review.  Pure: the caller passes the statuses of the other RFDs and, for the
rules that look further (:mod:`bot.lifecycle.lint_graph`), a corpus.  The codes, their meaning and
their default severity are :data:`bot.model.lint_codes.RULES`; ``[lint.severity]`` changes a
rule's severity or turns it off.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple

from bot import templates
from bot.core.errors import RfdError
from bot.lifecycle.lint_sections import Finding, Severity, body_findings, repeated_headings
from bot.model.document import (
    BACK_LINK_KEYS,
    LINK_KEYS,
    LIST,
    NO_STATUS,
    Document,
    parse,
)
from bot.model.header import Field, normalize_key
from bot.model.ids import RfdId
from bot.model.lint_codes import OFF, LintSettings
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.config.discovery import RfdFile
    from bot.lifecycle.lint_graph import Corpus

__all__ = ["RULES", "Finding", "LintSettings", "Severity", "lint_document", "lint_text"]

REQUIRED_FIELDS = ("Status", "Category", "Authors", "Date")
_DATE_RE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
DRAFT_LINK_HINT = "promote RFD {draft} first (drafts are renumbered), then link to it"
DRAFT_BACK_HINT = (
    "remove RFD {draft}: drafts are renumbered, and `rfd promote {draft}` adds its new number "
    "here where the repository keeps the field"
)
_WORD_RE = re.compile(r"[A-Za-z]+")  # the status word, as bot.model.document reads it


class Context(NamedTuple):
    doc: Document
    known: Mapping[RfdId, Status]
    file: RfdFile | None

    def finding(self, line: int | None, code: str, message: str, hint: str) -> Finding:
        return Finding(self.doc.path, line, code, message, hint)


NO_SETTINGS = LintSettings()


def lint_document(
    doc: Document,
    *,
    known: Mapping[RfdId, Status],
    file: RfdFile | None = None,
    settings: LintSettings = NO_SETTINGS,
    corpus: Corpus | None = None,
) -> list[Finding]:
    """Every finding for a parsed RFD, in line order, at its configured severity (rules
    turned ``off`` left out); the cross-RFD rules run only when a ``corpus`` is given."""
    ctx = Context(doc, known, file)
    found = [f for rule in RULES for f in rule(ctx)] + list(repeated_headings(doc))
    category = _category(doc)
    if category is not None:
        found += body_findings(doc, category, settings.required_sections.get(category, ()))
    me = file.rfd_id if file is not None else doc.rfd_id
    if corpus is not None and me is not None:
        from bot.lifecycle.lint_graph import graph_findings

        found += graph_findings(doc, me, corpus)
    return configured(sorted(found, key=lambda f: (f.line or 0, f.code)), settings)


def configured(found: list[Finding], settings: LintSettings) -> list[Finding]:
    """``found`` with the severities ``settings`` give (a rule turned off: left out)."""
    out = []
    for finding in found:
        wanted = settings.severity.get(finding.code)
        if wanted == OFF:
            continue
        out.append(finding if wanted is None else finding._replace(severity=Severity(wanted)))
    return out


def lint_text(
    text: str,
    path: str,
    *,
    known: Mapping[RfdId, Status],
    file: RfdFile | None = None,
    settings: LintSettings = NO_SETTINGS,
    corpus: Corpus | None = None,
) -> list[Finding]:
    """Parse and lint; a document that does not parse gives one finding saying why."""
    try:
        doc = parse(text, path)
    except RfdError as err:
        return configured([from_error(err, path)], settings)
    return lint_document(doc, known=known, file=file, settings=settings, corpus=corpus)


def from_error(err: RfdError, path: str) -> Finding:
    """A parse error as a finding (RFD001 for a missing status, RFD002 for an unknown one)."""
    from bot.model.document_forms import NO_ADOC_STATE, NO_STATE_KEY  # errors only: light hooks

    code = "RFD000"
    if err.message in (NO_STATUS, NO_STATE_KEY, NO_ADOC_STATE):
        code = "RFD001"
    elif err.message.startswith("unknown status"):
        code = "RFD002"
    return Finding(err.path or path, err.line, code, err.message, err.hint or "")


def _category(doc: Document) -> str | None:
    name = (doc.category or "").casefold()
    return name if name in templates.CATEGORIES else None


def _missing_fields(ctx: Context) -> Iterator[Finding]:
    if ctx.doc.form != LIST:
        return  # front matter and AsciiDoc: the repository's own keys, the status required
    line = ctx.doc.fields[-1].line if ctx.doc.fields else ctx.doc.heading_line
    for key in REQUIRED_FIELDS:
        if not ctx.doc.field(key):
            example = {"Category": "Design", "Authors": "Name <email>", "Date": "2026-01-31"}
            hint = f"add a header line: - **{key}**: {example.get(key, '…')}"
            yield ctx.finding(line, "RFD001", f"header field {key!r} is missing or empty", hint)


def _heading_matches_file(ctx: Context) -> Iterator[Finding]:
    if ctx.file is None or ctx.doc.heading_id == ctx.file.rfd_id:
        return
    if ctx.doc.heading_id is None and ctx.doc.form != LIST:
        return  # RFC-style headings carry no id: the file name alone gives it
    shown = f"RFD {ctx.doc.heading_id}" if ctx.doc.heading_id else "no RFD id"
    hint = f"make the heading '# RFD {ctx.file.rfd_id}: {ctx.doc.title}' or rename the file"
    message = f"heading says {shown} but the file name says RFD {ctx.file.rfd_id}"
    yield ctx.finding(ctx.doc.heading_line, "RFD003", message, hint)


def _date(ctx: Context) -> Iterator[Finding]:
    field = _field(ctx.doc, "Date")
    if field is None or not field.value or _is_date(field.value):
        return
    hint = "write the date as YYYY-MM-DD, e.g. 2026-01-31"
    yield ctx.finding(field.line, "RFD004", f"date {field.value!r} is not YYYY-MM-DD", hint)


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return bool(_DATE_RE.match(text))


def _category_known(ctx: Context) -> Iterator[Finding]:
    field = _field(ctx.doc, "Category")
    if field is None or not field.value or _category(ctx.doc):
        return
    hint = f"use one of: {', '.join(c.capitalize() for c in templates.CATEGORIES)}"
    yield ctx.finding(field.line, "RFD005", f"unknown category {field.value!r}", hint)


def _links(ctx: Context) -> Iterator[Finding]:
    published = ctx.doc.rfd_id is not None and not ctx.doc.rfd_id.draft
    for key in (*LINK_KEYS, *BACK_LINK_KEYS):
        field = _field(ctx.doc, key)
        for target in ctx.doc.links(key) if field else ():
            assert field is not None
            if key in LINK_KEYS and target not in ctx.known:
                hint = "fix the id, or remove it if that RFD was never written"
                yield ctx.finding(field.line, "RFD008", f"{key}: RFD {target} does not exist", hint)
            elif published and target.draft:
                hint = DRAFT_BACK_HINT if key in BACK_LINK_KEYS else DRAFT_LINK_HINT
                message = f"{key}: a published RFD links to draft RFD {target}"
                yield ctx.finding(field.line, "RFD009", message, hint.format(draft=target))


def _duplicate_fields(ctx: Context) -> Iterator[Finding]:
    seen: set[str] = set()
    for field in ctx.doc.fields:
        key = normalize_key(field.key)
        if key in seen:
            hint = "keep one of them; only the first is used"
            message = f"header field {field.key!r} appears twice"
            yield ctx.finding(field.line, "RFD010", message, hint)
        seen.add(key)


def _exact_status(ctx: Context) -> Iterator[Finding]:
    if ctx.doc.form != LIST:
        return  # front matter and AsciiDoc write the repository's own words
    field = _field(ctx.doc, "Status")
    word = _WORD_RE.search(field.value) if field is not None else None
    if field is None or word is None or word[0] == ctx.doc.status.value:
        return
    hint = f"write it exactly as - **Status**: {ctx.doc.status.value}"
    message = f"status {word[0]!r} is not written as {ctx.doc.status.value!r}"
    yield ctx.finding(field.line, "RFD013", message, hint)


def _superseded_by(ctx: Context) -> Iterator[Finding]:
    if ctx.doc.status is Status.SUPERSEDED and not ctx.doc.links("Superseded by"):
        hint = "add - **Superseded by**: [RFD NNN] (rfd supersede does this for you)"
        line = _field(ctx.doc, "Status")
        message = "status is Superseded but no 'Superseded by' RFD is given"
        yield ctx.finding(line.line if line else None, "RFD011", message, hint)


def _field(doc: Document, key: str) -> Field | None:
    return doc.field_entry(key)


RULES: tuple[Callable[[Context], Iterable[Finding]], ...] = (
    _missing_fields,
    _heading_matches_file,
    _date,
    _category_known,
    _links,
    _duplicate_fields,
    _exact_status,
    _superseded_by,
)
