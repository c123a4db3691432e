"""Implementation plans: phases extracted from an RFD's Implementation Plan section, and
``plan.json``.

Extraction is deterministic: each phase heading of the section is one phase, described by
the text under it.  Accepted, at heading level 2 to 4 (the shallowest level that has one
wins)::

    ### Phase 1: Title            ### Phase 0: Groundwork
    ### Phase 3a: Title           ### Phase B — Title   (em or en dash, hyphen, dot)
    ### Phase 4 (optional): Title ### Phase 5: Title (deferred)
    ### Phase 2                   (no title)

(``(optional)``/``(deferred)`` kept at the end of the title).  Without phase headings,
phases written as a numbered list are read — the other way teams write plans::

    1. **Widen the parser** so that it reads both forms.
       More about it, indented.
    2. **Switch the writers** — every caller moves.

Each top-level item whose text starts with a bold title is one phase, labelled by its
number; the rest of the item is its description; a list without a bold title on every
item is not read as a plan.  Headings and items inside fenced code blocks and HTML
comments do not count.  When the section is missing, empty or still the template
placeholder, nothing is extracted and ``PlanResult.problem`` says why.

An AsciiDoc RFD (``README.adoc``) writes the same plan in its own syntax, read through
:mod:`bot.model.asciidoc`'s structure (delimited blocks and comments are not structure,
``[[anchor]]`` lines above a title belong to it)::

    == Implementation Plan          . *Widen the parser* so that it reads both forms.
                                    . *Switch the writers* -- every caller moves.
    [[phase-1]]
    === Phase 1: Title              (or ``1. *Title* …``; ``**Title**`` too; items
                                    numbered ``.`` are labelled 1..N in order)
    * [ ] an item

The description keeps the AsciiDoc text as written.

``plan.json`` is read strictly; once it has failed validation, one scan over its text
finds the line where the phase or key at fault starts (a JSON syntax error carries its
own line).  The markdown reader is imported only to extract a plan, never to read
``plan.json`` (the hooks read it).  Pure functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from bot.core.errors import InvalidStructure, ParseError
from bot.core.patterns import lazy

if TYPE_CHECKING:
    from bot.model.markdown import Heading, LineKind

SECTION = "Implementation Plan"

_PLACEHOLDER = lazy(
    r"""<!--.*?-->                      # HTML comment guidance
      | ^\s*_\(.*?\)_\s*$               # _(italic guidance)_
      | ^\s*(?:TODO|TBD|\.\.\.|…)[.:!]?\s*$  # a bare TODO / TBD / ...""",
    re.VERBOSE | re.DOTALL | re.MULTILINE | re.IGNORECASE,
)
_KEYS = {"title", "description", "label"}


class PlanPhase(NamedTuple):
    title: str
    description: str
    label: str = ""
    """The phase's name in the RFD (``1``, ``0``, ``3a``, ``B``); empty when unknown."""

    def to_dict(self) -> dict[str, str]:
        out = {"title": self.title, "description": self.description}
        return {**out, "label": self.label} if self.label else out


class PlanResult(NamedTuple):
    phases: tuple[PlanPhase, ...]
    problem: str | None = None
    line: int | None = None
    """The line of the file the problem is at, when it is one line (else the section's)."""


class HasStart(Protocol):
    @property
    def start(self) -> int:
        """How many lines of the file come before the section's body."""
        ...


class HasSections(Protocol):
    """What extraction needs of a parsed RFD (``bot.model.document.Document``)."""

    @property
    def path(self) -> str: ...

    def section(self, title: str) -> HasStart | None: ...

    def section_body(self, title: str) -> str | None: ...


class Syntax(NamedTuple):
    """How a plan is written in one markup: what the messages show, and how its lines read."""

    section: str
    phase: str
    item: str
    adoc: bool

    def how_to_write(self) -> str:
        """``under `## Implementation Plan`, write `### Phase 1: Title` headings or …``."""
        return f"under `{self.section}`, write {self.phase} headings or a numbered list {self.item}"


MARKDOWN = Syntax(
    f"## {SECTION}", "`### Phase 1: Title`", "`1. **Title** what it does`", adoc=False
)
ASCIIDOC = Syntax(f"== {SECTION}", "`=== Phase 1: Title`", "`. *Title* what it does`", adoc=True)


def syntax_of(path: str) -> Syntax:
    """The plan syntax of the RFD at ``path`` (AsciiDoc for ``.adoc``, else Markdown)."""
    return ASCIIDOC if path.endswith((".adoc", ".asciidoc")) else MARKDOWN


def extract(doc: HasSections) -> PlanResult:
    """The phases of ``doc``'s Implementation Plan (or none, and why)."""
    section = doc.section(SECTION)
    offset = 0 if section is None else section.start
    return extract_from_section(doc.section_body(SECTION), syntax_of(doc.path), line_offset=offset)


def extract_from_section(
    body: str | None, syntax: Syntax = MARKDOWN, *, line_offset: int = 0
) -> PlanResult:
    """The phases in the text of an Implementation Plan section (None: no such section).

    ``problem`` names no file: callers put it next to the document's path.  ``line_offset``:
    how many lines of the file come before ``body`` (so ``PlanResult.line`` is the file's).
    """

    if body is None:
        return PlanResult((), f"there is no `{syntax.section}` section")
    if not body.strip():
        return PlanResult((), f"the {SECTION} section is empty")
    if not _PLACEHOLDER.sub("", _without_comments(body, syntax)).strip():
        return PlanResult((), f"the {SECTION} section still holds the template placeholder")
    if syntax.adoc and (glued := _glued_phase(body)) is not None:
        line = line_offset + glued.index + 1
        message = GLUED.format(line=line, title=glued.title, marks="=" * glued.level)
        return PlanResult((), message, line)
    phases = tuple(_phase(heading) for heading in phase_headings(body, syntax=syntax))
    if not phases:
        found = numbered_phases(body, syntax=syntax)
        phases = tuple(PlanPhase(p.title, p.description, p.label) for p in found)
    if not phases:
        hint = f"write one heading per phase, e.g. {syntax.phase}, or a numbered list of "
        hint += f"phases, e.g. {syntax.item}"
        return PlanResult((), f"the {SECTION} section has no phase headings; {hint}")
    return PlanResult(phases)


GLUED = (
    "line {line}: `{marks} {title}` is not a section title: AsciiDoc reads it as the text "
    "of the paragraph or list item above it, so the phase would be lost; put a blank line "
    "above it"
)


def _glued_phase(body: str) -> Heading | None:
    """The first phase title of an AsciiDoc ``body`` that does not start a block."""
    from bot.model import asciidoc

    structure = _structure(body, ASCIIDOC)
    glued = asciidoc.glued_titles(structure.lines, structure.kinds)
    return next((h for h in glued if _match(h.level, h.title)), None)


def _without_comments(body: str, syntax: Syntax) -> str:
    """``body`` without its AsciiDoc comments (Markdown's are in the placeholder pattern)."""
    from bot.model.markdown import LineKind

    if not syntax.adoc:
        return body
    lines, kinds, _ = _structure(body, syntax)
    comment = LineKind.COMMENT
    return "".join(line for line, kind in zip(lines, kinds, strict=True) if kind is not comment)


class _Structure(NamedTuple):
    lines: list[str]
    kinds: list[LineKind]
    headings: list[Heading]


def _structure(body: str, syntax: Syntax) -> _Structure:
    """The lines of ``body``, what each is, and its headings, in ``syntax``'s markup."""
    from bot.model.markdown import LineKind, headings, line_kinds, split_lines  # not plan.json

    lines = split_lines(body)
    if syntax.adoc:
        from bot.model import asciidoc

        kinds = list(asciidoc.iter_kinds(lines))
        return _Structure(lines, kinds, asciidoc.headings(lines, kinds))
    kinds = line_kinds(lines)
    return _Structure(lines, kinds, headings(lines, [k is not LineKind.TEXT for k in kinds]))


def _section_ends(found: _Structure, syntax: Syntax) -> list[int]:
    from bot.model import markdown

    if syntax.adoc:
        from bot.model import asciidoc

        return asciidoc.section_ends(found.headings, found.lines)
    return markdown.section_ends(found.headings, len(found.lines))


def _phase(heading: PhaseHeading) -> PlanPhase:
    title = heading.title or f"Phase {heading.label}"
    if heading.qualifier:
        title = f"{title} ({heading.qualifier})"
    return PlanPhase(title, heading.description, heading.label)


def dumps(phases: Sequence[PlanPhase]) -> str:
    """``plan.json`` text: pretty JSON, non-ASCII kept, trailing newline."""
    return json.dumps([p.to_dict() for p in phases], indent=2, ensure_ascii=False) + "\n"


def loads(text: str, path: str) -> tuple[PlanPhase, ...]:
    """Parse and validate ``plan.json`` (ParseError with line / InvalidStructure naming where)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"plan is not valid JSON: {exc.msg}",
            path=path,
            line=exc.lineno,
            hint='fix the JSON syntax (a list of {"title", "description"} objects)',
        ) from exc
    except RecursionError:
        raise ParseError(TOO_DEEP, path=path, hint=SCHEMA_HINT) from None
    if not isinstance(data, list):
        raise _schema(f"plan must be a JSON array, not {_kind(data)}", text, path)
    return tuple(_load_phase(item, n, text, path) for n, item in enumerate(data))


TOO_DEEP = "plan is nested too deeply to be a list of phases"
SCHEMA_HINT = (
    'each phase is {"title": "…", "description": "…"} (and optionally "label": "3a"), '
    "in one JSON array; fix the file, or delete it and let `rfd accept` extract the plan "
    "again from the RFD's Implementation Plan"
)


def _schema(
    message: str, text: str, path: str, index: int | None = None, key: str | None = None
) -> InvalidStructure:
    """A schema error pointing at the line of phase ``index`` (its ``key``) in ``text``."""

    return InvalidStructure(message, path=path, line=line_of(text, index, key), hint=SCHEMA_HINT)


def _load_phase(item: Any, index: int, text: str, path: str) -> PlanPhase:
    where = f"phase at index {index}"
    if not isinstance(item, dict):
        raise _schema(f"{where} must be an object, not {_kind(item)}", text, path, index)
    for key in item:
        if key not in _KEYS:
            raise _schema(
                f"{where} has unknown key {key!r} (allowed: title, description, label)",
                text,
                path,
                index,
                key,
            )
    for key in ("title", "description", "label"):
        if key in item and not isinstance(item[key], str):
            raise _schema(f"{where}: {key!r} must be a string", text, path, index, key)
    if not item.get("title", "").strip():
        raise _schema(f"{where} needs a non-empty 'title'", text, path, index, "title")
    if "description" not in item:
        raise _schema(f"{where} needs a 'description' (may be empty)", text, path, index)
    return PlanPhase(item["title"], item["description"], item.get("label", ""))


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "null" if value is None else "a number")


_PHASE_RE = lazy(
    r"""
    ^Phase[ \t]+
    (?P<label>[0-9]+[a-z]?|[A-Z])\b                 # 1, 0, 3a, B
    [ \t]*(?:\((?P<before>[^)]*)\))?                # (optional) before the separator
    [ \t]*(?:(?:--|[:—–.-])[ \t]*)?                 # colon, em/en dash, --, hyphen, dot
    (?P<title>.*?)
    (?:[ \t]*\((?P<after>optional|deferred)\))?$    # or (optional) after the title
    """,
    re.VERBOSE | re.IGNORECASE,
)


class PhaseHeading(NamedTuple):
    """One phase: its label (``"1"``, ``"3a"``, ``"B"``), title, qualifier
    (``"optional"``, ``"deferred"`` or ``""``), 1-based line and description (the text
    up to the next phase or a heading of the same or a higher level, stripped)."""

    label: str
    title: str
    qualifier: str
    line: int
    description: str


def phase_headings(
    body: str, *, line_offset: int = 0, syntax: Syntax = MARKDOWN
) -> list[PhaseHeading]:
    """The phases in a section body.  ``line_offset``: how many lines of the file come
    before ``body`` (``Section.start``), so ``line`` is a line of the file."""
    structure = _structure(body, syntax)
    found, lines = structure.headings, structure.lines
    phases = [(pos, m) for pos, h in enumerate(found) if (m := _match(h.level, h.title))]
    if not phases:
        return []
    level = min(found[pos].level for pos, _ in phases)
    ends = _section_ends(structure, syntax)
    return [
        _heading_phase(match, lines, found[pos].index, ends[pos], line_offset)
        for pos, match in phases
        if found[pos].level == level
    ]


def _match(level: int, title: str) -> re.Match[str] | None:
    return _PHASE_RE.match(title) if 2 <= level <= 4 else None


def _heading_phase(
    match: re.Match[str], lines: list[str], index: int, end: int, offset: int
) -> PhaseHeading:
    from bot.model.markdown import content

    qualifier = (match["before"] or match["after"] or "").strip().lower()
    description = "\n".join(content(line) for line in lines[index + 1 : end]).strip()
    label = match["label"]
    label = label.upper() if label.isalpha() else label.lower()
    return PhaseHeading(label, match["title"].strip(), qualifier, offset + index + 1, description)


_ITEM_RE = lazy(
    r"""^(?P<number>[0-9]{1,3})[.)][ \t]+              # 1.  or 1)
    \*\*(?P<title>[^*]+?)\*\*                           # **Widen the parser**
    [ \t]*(?:[:—–.-][ \t]*)?(?P<rest>.*)$               # : rest of the first line
    """,
    re.VERBOSE,
)
_ANY_ITEM_RE = lazy(r"^[0-9]{1,3}[.)][ \t]")
_ADOC_ITEM_RE = lazy(
    r"""^(?:(?P<number>[0-9]{1,3})\.|\.)[ \t]+      # . or 1.  (not .. : a nested item)
    (?:\*\*(?P<strong>[^*]+?)\*\*|\*(?P<title>[^*]+?)\*)  # *Widen the parser* or **…**
    [ \t]*(?:(?:--|[:—–.-])[ \t]*)?(?P<rest>.*)$      # : rest of the first line
    """,
    re.VERBOSE,
)
_ADOC_ANY_ITEM_RE = lazy(r"^(?:[0-9]{1,3}\.|\.)[ \t]+\S")


def _block_attributes(structure: _Structure) -> set[int]:
    """The AsciiDoc block attribute lines (``[source,rust]``) of ``structure``."""
    from bot.model import asciidoc

    return {i for i, line in enumerate(structure.lines) if asciidoc.is_block_attribute(line)}


class ListPhase(NamedTuple):
    label: str
    title: str
    description: str


def numbered_phases(body: str, *, syntax: Syntax = MARKDOWN) -> list[ListPhase]:
    """The phases of the first numbered list in ``body`` (empty when there is none, or
    when one of its items has no bold title)."""
    from bot.model.markdown import LineKind, content  # not for plan.json

    structure = _structure(body, syntax)
    skipped = _block_attributes(structure) if syntax.adoc else set()
    starts = {heading.index for heading in structure.headings}
    any_item, item = (_ADOC_ANY_ITEM_RE, _ADOC_ITEM_RE) if syntax.adoc else (_ANY_ITEM_RE, _ITEM_RE)
    phases: list[ListPhase] = []
    current: list[str] | None = None
    for index, kind in enumerate(structure.kinds):
        line = content(structure.lines[index])
        if kind is not LineKind.TEXT or index in skipped:
            continue  # code is left out, with what AsciiDoc says about its block
        if any_item.match(line):
            match = item.match(line)
            if match is None:
                return []  # a numbered list, but not one of titled phases
            current = [match["rest"]]
            title = match["title"] or match.groupdict().get("strong") or ""
            label = match["number"] or str(len(phases) + 1)
            phases.append(ListPhase(label, title.strip(), ""))
            _describe(phases, current)
        elif index in starts and phases:
            break
        elif current is not None:
            current.append(line.strip())
            _describe(phases, current)
    return phases


def _describe(phases: list[ListPhase], text: list[str]) -> None:
    description = "\n".join(text).strip()
    phases[-1] = phases[-1]._replace(description=re.sub(r"\n{3,}", "\n\n", description))


_TOKEN = lazy(
    r""""(?:[^"\\]|\\.)*"     # a string, escapes included
      | [\[\]{},:]            # structure; numbers and literals are not needed""",
    re.VERBOSE | re.DOTALL,
)


def line_of(text: str, index: int | None = None, key: str | None = None) -> int:
    """The 1-based line of phase ``index`` (its ``key`` when given, and found); the line of
    the document's first value when ``index`` is None or not found."""
    pos = _skip(text, 0)
    if index is not None:
        start = _element(text, index)
        if start is not None:
            pos = start
            found = _key(text, start, key) if key is not None else None
            pos = found if found is not None else pos
    return text.count("\n", 0, pos) + 1


def _skip(text: str, pos: int) -> int:
    """``pos`` moved past whitespace."""
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _tokens(text: str, start: int = 0) -> Iterator[tuple[int, re.Match[str]]]:
    """Each token from ``start`` with the depth it is at (an opening bracket counts
    inside, a closing one outside)."""
    depth = 0
    for token in _TOKEN.finditer(text, start):
        char = token.group()
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        yield depth, token


def _element(text: str, index: int) -> int | None:
    """Where item ``index`` of the top-level array starts."""
    seen = -1
    for depth, token in _tokens(text):
        if depth == 1 and token.group() in "[,":
            seen += 1
            if seen == index:
                return _skip(text, token.end())
        elif depth <= 0:
            return None
    return None


def _key(text: str, start: int, key: str) -> int | None:
    """Where ``key`` of the object starting at ``start`` is written."""
    tokens = _tokens(text, start)
    previous: tuple[int, re.Match[str]] | None = None
    for depth, token in tokens:
        if depth <= 0:
            return None
        if token.group() == ":" and previous is not None and previous[0] == 1:
            name = previous[1].group()
            if name.startswith('"') and json.loads(name) == key:
                return previous[1].start()
        previous = depth, token
    return None
