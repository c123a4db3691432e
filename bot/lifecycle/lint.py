"""Structural checks of one RFD, shared by ``rfd lint``, the rfd-lint hook and the
offline review, and the :class:`Finding` record every rule returns.

Pure.  The codes, their meaning and their default severity are
:data:`bot.model.lint_codes.RULES`; ``[lint.severity]`` changes a rule's severity or
turns it off.  The rules fall in three groups:

- the header (:data:`RULES`): required fields, the date, the category, a field given
  twice, the status word, Superseded by, and links to other RFDs, checked against the
  statuses of the other RFDs the caller passes in;
- the body: RFD006, a ``##`` section the configuration requires for the category
  (``[lint.required_sections]``; none by default) is missing; RFD007, a required section
  is empty or still holds only template guidance (a warning while the RFD is a Draft);
  RFD017 (warning), a published RFD mentions a draft id in its text; RFD018, a second
  ``#`` title, or a ``##`` section given twice (edits and readers see only the first);
- beyond one RFD, only when the caller passes a :class:`Corpus` (the other RFDs and the
  files): cycles in Requires ∪ Extends (RFD012), back-links that the other RFD does not
  return (RFD014), and reference-link definitions whose file or directory does not
  exist (RFD015) — in AsciiDoc, ``<<…>>``/``xref:``/``link:`` references to no file and
  ``<<rfd99>>`` naming no RFD.

The findings that depend on the RFD's path and text alone (:func:`own_findings`) may be
kept from one run to the next (:mod:`bot.lifecycle.lint_cache`); the others
(:func:`linked_findings`) are worked out on every run.
"""

from __future__ import annotations

import datetime
import enum
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol

from bot import templates
from bot.core.errors import RfdError
from bot.core.patterns import lazy
from bot.model.document import (
    ADOC,
    BACK_LINK_KEYS,
    LINK_KEYS,
    LIST,
    NO_STATUS,
    Document,
    parse,
)
from bot.model.header import Field, normalize_key
from bot.model.ids import DOCUMENT_NAMES, RfdId
from bot.model.lint_codes import OFF, LintSettings
from bot.model.markdown import LineKind, normalize_title
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.config.discovery import RfdFile

__all__ = ["RULES", "Finding", "LintSettings", "Severity", "lint_document", "lint_text"]

REQUIRED_FIELDS = ("Status", "Category", "Authors", "Date")
_DATE_RE = lazy(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
DRAFT_LINK_HINT = "promote RFD {draft} first (drafts are renumbered), then link to it"
DRAFT_BACK_HINT = (
    "remove RFD {draft}: drafts are renumbered, and `rfd promote {draft}` adds its new number "
    "here where the repository keeps the field"
)
_WORD_RE = lazy(r"[A-Za-z]+")  # the status word, as bot.model.document reads it


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
    own = own_findings(doc, file=file, settings=settings)
    return combined(own, linked_findings(doc, known=known, file=file, corpus=corpus), settings)


def own_findings(
    doc: Document, *, file: RfdFile | None, settings: LintSettings = NO_SETTINGS
) -> list[Finding]:
    """The findings that depend on the RFD's path and text alone (and the configuration):
    ``rfd lint`` may keep them from one run to the next (:mod:`bot.lifecycle.lint_cache`)."""
    ctx = Context(doc, {}, file)
    found = [f for rule in _OWN_RULES for f in rule(ctx)] + list(repeated_headings(doc))
    category = _category(doc)
    if category is not None:
        found += body_findings(doc, category, settings.required_sections.get(category, ()))
    return found


def linked_findings(
    doc: Document, *, known: Mapping[RfdId, Status], file: RfdFile | None, corpus: Corpus | None
) -> list[Finding]:
    """The findings that depend on other RFDs or files too: worked out on every run."""
    found = list(_links(Context(doc, known, file)))
    me = file.rfd_id if file is not None else doc.rfd_id
    if corpus is not None and me is not None:
        found += graph_findings(doc, me, corpus)
    return found


def combined(own: list[Finding], linked: list[Finding], settings: LintSettings) -> list[Finding]:
    """One RFD's findings in line order (each code comes from one of the two lists, so
    equal places keep each list's own order), at their configured severity."""
    return configured(sorted(own + linked, key=lambda f: (f.line or 0, f.code)), settings)


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
    line = ctx.doc.lines[ctx.doc.heading_line - 1].strip() if ctx.doc.heading_id else ""
    written = _HEADING_ID_RE.search(line)
    heading = "title" if ctx.doc.form == ADOC else "heading"
    named_by = "directory" if posixpath.basename(ctx.doc.path) in DOCUMENT_NAMES else "file"
    if written is None:  # no id in the heading: rfd's own form
        shown, fixed = "no RFD id", f"# RFD {ctx.file.rfd_id}: {ctx.doc.title}"
    else:  # the heading's own form, only its number changed (padded as it was written)
        shown = written[0]
        fixed = (
            line[: written.start()] + _renumbered(written, ctx.file.rfd_id) + line[written.end() :]
        )
    message = f"{heading} says {shown} but the {named_by} name says RFD {ctx.file.rfd_id}"
    hint = f"make the {heading} '{fixed}' or rename the {named_by}"
    yield ctx.finding(ctx.doc.heading_line, "RFD003", message, hint)


_HEADING_ID_RE = lazy(r"RFD[\s-]*(?P<draft>[Dd]?)(?P<number>[0-9]+)")


def _renumbered(written: re.Match[str], rfd_id: RfdId) -> str:
    """``RFD 12`` written for ``rfd_id`` 0011: ``RFD 11`` (the heading's padding kept)."""
    draft = "D" if rfd_id.draft else ""
    prefix = written[0][: written.start("draft") - written.start()]
    return f"{prefix}{draft}{rfd_id.number:0{len(written['number'])}d}"


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
_OWN_RULES = tuple(rule for rule in RULES if rule is not _links)
"""The rules of one RFD alone: ``_links`` looks at the ids the others have."""


_DRAFT_MENTION_RE = lazy(r"\bRFD[ \t-]*(D[0-9]+)\b")
_COMMENT_RE = lazy(r"<!--.*?-->", re.DOTALL)


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
            hint = f"add a '{_marks(doc, 2)} {title}' section ([lint.required_sections] {category})"
            message = f"required section '{title}' is missing"
            yield Finding(doc.path, doc.heading_line, "RFD006", message, hint, section=title)
            continue
        body = doc.section_body(title) or ""
        if templates.is_placeholder(body) or not _COMMENT_RE.sub("", body).strip():
            hint = "write this section, or say in one line why it does not apply"
            message = f"section '{title}' is empty or still the template placeholder"
            yield Finding(doc.path, section.line, "RFD007", message, hint, severity, title)


def _marks(doc: Document, level: int) -> str:
    """How a heading of ``level`` is written in ``doc``: ``##`` (Markdown) or ``==`` (AsciiDoc)."""
    return ("=" if doc.form == ADOC else "#") * level


def repeated_headings(doc: Document) -> Iterator[Finding]:
    for heading in doc.headings:
        if heading.level == 1 and heading.index >= doc.heading_line:
            one, two = _marks(doc, 1), _marks(doc, 2)
            hint = f"an RFD has one '{one}' title: make this a '{two}' section or remove it"
            message = f"a second title '{one} {heading.title}'"
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


CYCLE_KEYS = ("Requires", "Extends")
BACK_LINKS = {"Required by": "Requires", "Extended by": "Extends"}
"""A back-link field → the field the RFD it names must have, naming this one."""

CYCLE_HINT = "remove one of the links of the cycle: an RFD cannot wait for itself"
BACK_HINT = "remove RFD {other} from {back}, or add RFD {me} to its {forward} line"
DEFINITION_HINT = "fix the path (relative to this file), or remove the definition"

_DEFINITION = lazy(r"^[ ]{0,3}\[(?!\^)(?P<label>[^\]]+)\]:[ \t]*<?(?P<target>[^<>\s]+)")
# (``[^1]: text`` is a footnote, not a link definition)
_EXTERNAL = lazy(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#)")


class Corpus(Protocol):
    """The rest of the repository, as the rules need it."""

    def links(self, rfd_id: RfdId, key: str) -> tuple[RfdId, ...] | None:
        """The RFDs that ``rfd_id``'s ``key`` field lists (None: no such RFD)."""
        ...

    def exists(self, path: str) -> bool:
        """Whether the repository-relative ``path`` is a file or a directory (``../../crates/foo``
        links a crate: a link to a folder is no broken link)."""
        ...


def graph_findings(doc: Document, me: RfdId, corpus: Corpus) -> list[Finding]:
    references = _adoc_references(doc, corpus) if doc.form == ADOC else _definitions(doc, corpus)
    return [*_cycle(doc, me, corpus), *_back_links(doc, me, corpus), *references]


def _cycle(doc: Document, me: RfdId, corpus: Corpus) -> Iterator[Finding]:
    for field in doc.fields:
        key = _key(field.key, CYCLE_KEYS)
        if key is None:
            continue
        for target in doc.links(key):
            path = _path_to(target, me, corpus)
            if path is not None:
                chain = " → ".join(f"RFD {i}" for i in (me, *path))
                message = f"{key} RFD {target} leads back to this RFD: {chain}"
                yield Finding(doc.path, field.line, "RFD012", message, CYCLE_HINT)
                return  # one finding per RFD of the cycle


def _path_to(start: RfdId, goal: RfdId, corpus: Corpus) -> tuple[RfdId, ...] | None:
    """The ids from ``start`` to ``goal`` along Requires/Extends (None when unreachable)."""
    came_from: dict[RfdId, RfdId | None] = {start: None}
    todo = [start]
    while todo:
        node = todo.pop(0)
        if node == goal:
            path = [node]
            while (prev := came_from[path[-1]]) is not None:
                path.append(prev)
            return tuple(reversed(path))
        for key in CYCLE_KEYS:
            for nxt in corpus.links(node, key) or ():
                if nxt not in came_from:
                    came_from[nxt] = node
                    todo.append(nxt)
    return None


def _back_links(doc: Document, me: RfdId, corpus: Corpus) -> Iterator[Finding]:
    for field in doc.fields:
        back = _key(field.key, tuple(BACK_LINKS))
        if back is None:
            continue
        forward = BACK_LINKS[back]
        for other in doc.links(back):
            listed = corpus.links(other, forward)
            if listed is None:
                message = f"{back}: RFD {other} does not exist"
            elif me not in listed:
                message = f"{back}: RFD {other}, whose {forward} does not name RFD {me}"
            else:
                continue
            hint = BACK_HINT.format(other=other, back=back, me=me, forward=forward)
            yield Finding(doc.path, field.line, "RFD014", message, hint)


def _definitions(doc: Document, corpus: Corpus) -> Iterator[Finding]:
    if "]:" not in doc.text:  # every link definition has one: most RFDs have none
        return
    folder = posixpath.dirname(doc.path)
    for index, kind in enumerate(doc.kinds):
        match = _DEFINITION.match(doc.lines[index]) if kind is LineKind.TEXT else None
        if match is None or _EXTERNAL.match(match["target"]):
            continue
        target = match["target"].partition("#")[0].partition("?")[0]
        path = posixpath.normpath(posixpath.join(folder, target))
        if target and (path.startswith("../") or not corpus.exists(path)):
            message = f"link [{match['label']}] points to {match['target']}, which does not exist"
            yield Finding(doc.path, index + 1, "RFD015", message, DEFINITION_HINT)


ADOC_HINT = "fix the path (relative to this file), or remove the reference"
ADOC_RFD_HINT = (
    "fix the RFD number, or remove the reference (a bibliography entry `[[[{id}]]]` on this "
    "page makes it a citation)"
)
_ADOC_REFERENCE = lazy(
    r"""<<(?P<xref>[^<>,\n]+?)(?:,[^<>\n]*)?>>          # <<rfd99>>, <<../0099/README.adoc#,x>>
      | (?<![\w:])(?P<kind>xref|link):(?P<macro>[^\s\[\]]+)\[  # xref:../0099/README.adoc[]
    """,
    re.VERBOSE,
)
_ADOC_LITERAL = lazy(r"`[^`\n]*`|\+[^+\n]*\+")  # `<<rfd99>>` written as code is no reference
_ADOC_ANCHOR = lazy(
    r"\[\[\[?(?P<bracket>[^\[\],\s]+)|\[#(?P<hash>[^\],.%\s]+)|anchor:(?P<macro>[^\[\s]+)\["
)


def _adoc_references(doc: Document, corpus: Corpus) -> Iterator[Finding]:
    """RFD015 for AsciiDoc: a ``<<…>>``, ``xref:`` or ``link:`` to a file that does not
    exist, or a ``<<rfd99>>`` naming an RFD that does not — unless ``rfd99`` is an anchor or a
    bibliography entry (``[[[rfd99]]]``) of the page itself."""
    if "<<" not in doc.text and "xref:" not in doc.text and "link:" not in doc.text:
        return
    own = {next(g for g in m.groups() if g) for m in _ADOC_ANCHOR.finditer(doc.text)}
    folder = posixpath.dirname(doc.path)
    for index, kind in enumerate(doc.kinds):
        if kind is not LineKind.TEXT:
            continue
        line = _ADOC_LITERAL.sub("", doc.lines[index])
        for match in _ADOC_REFERENCE.finditer(line):
            target = (match["xref"] or match["macro"]).strip()
            written = f"<<{target}>>" if match["xref"] else f"{match['kind']}:{target}[]"
            said = _adoc_missing(target, folder, own, corpus, link=match["kind"] == "link")
            if said is not None:
                message = f"reference {written} {said[0]}"
                yield Finding(doc.path, index + 1, "RFD015", message, said[1])


def _adoc_missing(
    target: str, folder: str, own: set[str], corpus: Corpus, *, link: bool
) -> tuple[str, str] | None:
    """Why ``target`` leads nowhere (message, hint), or None when it does (or is not ours to
    check: an address, an attribute, an id of the page)."""
    from bot.model.asciidoc import names_file, referenced_rfd  # AsciiDoc RFDs only

    if _EXTERNAL.match(target) or "{" in target:
        return None
    if not (link or names_file(target)):  # <<rfd99>>, xref:rfd99[]: an id
        number = referenced_rfd(target)
        if number is None or target in own:
            return None
        rid = RfdId(False, number)
        if corpus.links(rid, "Requires") is not None:
            return None
        return f"names RFD {rid.number}, which does not exist", ADOC_RFD_HINT.format(id=target)
    path = target.partition("#")[0].partition("?")[0]
    if not path:  # <<#id>>, xref:#id[]: this page
        return None
    found = posixpath.normpath(posixpath.join(folder, path))
    if found.startswith("../") or not corpus.exists(found):
        return f"points to {path}, which does not exist", ADOC_HINT
    return None


def _key(key: str, wanted: tuple[str, ...]) -> str | None:
    folded = normalize_key(key)
    return next((k for k in wanted if normalize_key(k) == folded), None)
