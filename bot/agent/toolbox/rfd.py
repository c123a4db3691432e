"""Dedicated RFD tools: the model works with decisions and sections, not files and diffs.

They write only through the state module (explore summary, decisions) or through the
pure edits of ``bot.model.document`` (one section at a time, the rest byte for byte).
Their targets are fixed by the workflow (this RFD's file, checked against the configured
paths, and its state directory), so they may run where nobody can be asked.  What each
writing tool accepts is checked by pure functions (the RFD's text in, the whole new text
out, or a :class:`ValidationError` the model reads as a tool error):

- ``rfd_section`` (:func:`section_edit`): one section's body, under a name the RFD has
  or the call declares new (added at the end, or after the section it names).  A body
  never starts a section of its own (no heading at the section's level or above, so never
  a second ``# RFD`` title), never hides the sections after it (an unclosed code block or
  comment), and a name is never a header field or the document's title.  An AsciiDoc RFD
  is edited in AsciiDoc: ``==`` titles outside delimited blocks, a new section written
  ``== Title``, a Markdown heading in a body refused.
- ``rfd_draft`` on a file that exists (:func:`lay_out`): ``rfd author`` and ``rfd new``
  create the file from a template before draft runs, so "create the file once" alone
  could never apply.  A file whose every section is still empty or template guidance
  (:func:`is_skeleton`) has nothing a person wrote below its header: the model may
  replace its sections (headings and any first text) in one call.  Its heading and
  header fields (status, authors, date, links) are the workflow's and stay byte for
  byte.

Draft's "state intent, then write" rule is enforced where nobody confirms the writes
(:func:`refusal`).  In ask mode the person reads the intent and approves each write.
Under ``--yes`` nobody does, so a write of the RFD (``rfd_section``, ``rfd_draft``) is
refused unless the reply that asks for it says, in its own text, what it is about to
write.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from bot import templates
from bot.agent.toolbox.base import Store, Tool, ToolContext, schema
from bot.agent.toolbox.files import current_text, unified_diff
from bot.agent.toolbox.sandbox import write_text
from bot.core.errors import AlreadyExists, FileNotFound, ValidationError
from bot.lifecycle.lint import REQUIRED_FIELDS
from bot.model import asciidoc, decisions, document
from bot.model.decisions import Decisions
from bot.model.markdown import (
    Heading,
    LineKind,
    eol_of,
    headings,
    normalize_title,
    parse_heading,
    split_lines,
)

DECISION_ACTIONS = ("add", "update", "reject")
DRAFT_NEXT = "; now write its sections one by one with rfd_section"
DECISION_STATUSES = ("locked", "discussing")


def _store(ctx: ToolContext) -> Store:
    if ctx.store is None or ctx.rfd_id is None:
        raise ValidationError("this tool needs an RFD: run it through an rfd step")
    return ctx.store


def _rfd_file(ctx: ToolContext) -> Path:
    if not ctx.rfd_path:
        raise ValidationError("no RFD file in this step")
    return ctx.sandbox.writable(ctx.rfd_path)


def _rfd_target(ctx: ToolContext, _args: Mapping[str, Any]) -> tuple[str, ...]:
    return (ctx.rfd_path,) if ctx.rfd_path else ()


def _state_target(name: str) -> Callable[[ToolContext, Mapping[str, Any]], tuple[str, ...]]:
    def target(ctx: ToolContext, _args: Mapping[str, Any]) -> tuple[str, ...]:
        if ctx.store is None or ctx.rfd_id is None:
            return ()
        path = Path(ctx.store.path(ctx.rfd_id, name)).resolve()
        return (ctx.sandbox.relative(path),)

    return target


# ------------------------------------------------------------------ rfd_explore_summary


def _explore_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before = _store(ctx).read_text(ctx.rfd_id, "explore.md") or ""
    return unified_diff(before, args["content"], "explore.md") or "(no change)"


def _explore_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    _store(ctx).write_explore(ctx.rfd_id, args["content"])
    return "saved the research summary to explore.md"


# ------------------------------------------------------------------------- rfd_decision


def _decision_args(args: Mapping[str, Any]) -> dict[str, Any]:
    action = args["action"]
    if action not in DECISION_ACTIONS:
        raise ValidationError(f"action must be one of {', '.join(DECISION_ACTIONS)}")
    keys = ("number", "text", "status", "reason")
    return {k: args[k] for k in keys if args.get(k) is not None}


def _decisions_after(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[str, str]:
    before = _store(ctx).read_text(ctx.rfd_id, "decisions.md") or ""
    if before:
        current = decisions.parse(before, "decisions.md")
    else:
        current = Decisions(title=ctx.rfd_title, rfd=str(ctx.rfd_id))
    changed = decisions.apply(current, args["action"], **_decision_args(args))
    return before, decisions.render(changed)


def _decision_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _decisions_after(ctx, args)
    return unified_diff(before, after, "decisions.md") or "(no change)"


def _decision_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    _decisions_after(ctx, args)  # validate before writing anything
    _store(ctx).decide(ctx.rfd_id, args["action"], title=ctx.rfd_title, **_decision_args(args))
    return "decisions.md is now:\n" + (_store(ctx).read_text(ctx.rfd_id, "decisions.md") or "")


# ---------------------------------------------------------------------------- rfd_draft


def _draft_after(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[str, str]:
    """The file before (empty when it does not exist) and after the call."""
    target = _rfd_file(ctx)
    if target.exists():
        before = current_text(target)
        return before, lay_out(before, ctx.rfd_path or "", args["content"])
    document.parse(args["content"], ctx.rfd_path or "")  # refuse what would not parse
    return "", args["content"]


def _draft_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _draft_after(ctx, args)
    return unified_diff(before, after, ctx.rfd_path or "") or "(no change)"


def _draft_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _draft_after(ctx, args)
    write_text(_rfd_file(ctx), after)
    if before:
        return summary(after, ctx.rfd_path or "") + DRAFT_NEXT
    return f"created {ctx.rfd_path}" + DRAFT_NEXT


# -------------------------------------------------------------------------- rfd_section


def _section_after(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[str, str]:
    target = _rfd_file(ctx)
    if not target.is_file():
        raise FileNotFound(f"`{ctx.rfd_path}` does not exist", hint="create it with rfd_draft")
    before = current_text(target)
    path, new, after = ctx.rfd_path or "", bool(args.get("new")), str(args.get("after") or "")
    edited = section_edit(before, path, args["section"], args["content"], new=new, after=after)
    return before, edited


def _section_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _section_after(ctx, args)
    return unified_diff(before, after, ctx.rfd_path or "") or "(no change)"


def _section_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _section_after(ctx, args)
    if after == before:
        return f"section `{args['section']}` unchanged"
    write_text(_rfd_file(ctx), after)
    if document.parse(before, ctx.rfd_path or "").section(section_name(args["section"])) is None:
        return f"added section `{args['section']}` to {ctx.rfd_path}"
    return f"replaced section `{args['section']}` of {ctx.rfd_path}"


RFD_EXPLORE_SUMMARY = Tool(
    "rfd_explore_summary",
    "Save the research summary of this RFD (replaces explore.md).",
    schema({"content": "string"}),
    _explore_write,
    writes=True,
    confined=True,
    preview=_explore_change,
    targets=_state_target("explore.md"),
)
RFD_DECISION = Tool(
    "rfd_decision",
    "Record a design decision: add one, update one (by number) or reject one (with a reason).",
    schema(
        {"action": {"type": "string", "enum": list(DECISION_ACTIONS)}},
        {
            "number": "integer",
            "text": "string",
            "status": {"type": "string", "enum": list(DECISION_STATUSES)},
            "reason": "string",
        },
    ),
    _decision_write,
    writes=True,
    confined=True,
    preview=_decision_change,
    targets=_state_target("decisions.md"),
)
RFD_DRAFT = Tool(
    "rfd_draft",
    "Lay out the RFD's sections: create the file (heading, metadata fields, section "
    "headings), or give a file that is still the bare template its section headings "
    "(its heading and metadata fields are kept); refused once a section is written.",
    schema({"content": "string"}),
    _draft_write,
    writes=True,
    confined=True,
    preview=_draft_change,
    targets=_rfd_target,
)
RFD_SECTION = Tool(
    "rfd_section",
    "Replace the body of one section of the RFD (e.g. 'Summary'): the body only, no heading "
    "at the section's level or above, in the RFD's own markup (Markdown: '### Sub', ``` "
    "blocks; AsciiDoc, a .adoc file: '=== Sub', ---- listing blocks); new: true adds a "
    "section the RFD does not have, at the end or after the section named by `after`.",
    schema({"section": "string", "content": "string"}, {"new": "boolean", "after": "string"}),
    _section_write,
    writes=True,
    confined=True,
    preview=_section_change,
    targets=_rfd_target,
)


TRACKING = "Tracking Issue"
LEADING_HEADING = re.compile(r"\A\s*\#{1,6}[ \t]+(?P<title>[^\n]*)\n?")
LEADING_TITLE = re.compile(  # AsciiDoc: "== Title", with the anchor lines above it
    r"\A\s*(?:\[[^\n]*\][ \t]*\r?\n)*={1,6}[ \t]+(?P<title>[^\n]*)\n?"
)

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
MARKDOWN_IN_ADOC = (
    "the content of `{name}` holds the Markdown heading `{heading}` (line {line} of it), "
    "and `{path}` is AsciiDoc"
)
MARKDOWN_IN_ADOC_HINT = "write the RFD's own syntax: a subsection title is `{deeper} Title`"
HIDES_SECTIONS = "the content of `{name}` would hide the sections after it"
HIDES_SECTIONS_HINT = "close every code block (```) and comment (<!-- -->) the content opens"
HIDES_SECTIONS_ADOC_HINT = (
    "close every delimited block (----, ...., ====, |===, ```) and comment block (////) "
    "the content opens"
)


class Markup(NamedTuple):
    """How the RFD writes a section title: ``##`` (Markdown) or ``==`` (AsciiDoc)."""

    adoc: bool

    @property
    def mark(self) -> str:
        return "=" if self.adoc else "#"

    def title(self, level: int, text: str) -> str:
        return self.mark * level + " " + text


def section_edit(
    text: str, path: str, section: str, content: str, *, new: bool = False, after: str = ""
) -> str:
    """``text`` with one section's body replaced (matched case-insensitively); with ``new``
    a section the RFD lacks is added at the end (or after section ``after``), titled in the
    RFD's own syntax: ``## section`` in Markdown, ``== section`` in AsciiDoc."""
    doc = document.parse(text, path)
    markup = Markup(doc.form == document.ADOC)
    title, level = _target(doc, section, new=new)
    leading = (LEADING_TITLE if markup.adoc else LEADING_HEADING).match(content)
    if leading and normalize_title(leading["title"]) == normalize_title(title):
        content = content[leading.end() :]
    _check_body(doc, markup, (title, level), content)
    body = content.strip("\n") + "\n"
    edited = document.replace_section(text, title, body, form=doc.form, after=after or None)
    if sorted(_outline(edited, path, level)) != sorted(
        _outline(text, path, level) + _added(doc, title, level)
    ):
        hint = HIDES_SECTIONS_ADOC_HINT if markup.adoc else HIDES_SECTIONS_HINT
        raise ValidationError(HIDES_SECTIONS.format(name=title), hint=hint)
    return edited


def _target(doc: document.Document, section: str, *, new: bool) -> tuple[str, int]:
    """The section's title as the RFD writes it and its level (2 for a new one)."""
    name = section_name(section)
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


def section_name(section: str) -> str:
    """The name a call gives, without the title marks it may repeat (``## ``, ``== ``)."""
    return section.strip().lstrip("#=").strip()


def _check_name(doc: document.Document, name: str) -> None:
    """A header field or the title is no section, whatever the RFD holds below."""
    wanted = normalize_title(name)
    keys = (*REQUIRED_FIELDS, *document.LINK_KEYS, TRACKING, *(f.key for f in doc.fields))
    if wanted in {normalize_title(key) for key in keys}:
        raise ValidationError(NAME_IS_FIELD.format(name=name), hint=NAME_IS_FIELD_HINT)
    heading = normalize_title(doc.lines[doc.heading_line - 1].lstrip(" #="))
    if wanted in (normalize_title(doc.title), heading):
        raise ValidationError(NAME_IS_TITLE.format(name=name), hint=NAME_IS_TITLE_HINT)


def _check_body(
    doc: document.Document, markup: Markup, target: tuple[str, int], content: str
) -> None:
    """No title at the section's level or above in ``content`` (nor, in AsciiDoc, a
    Markdown heading: the model's habit, text in the rendered RFD)."""
    title, level = target
    lines = split_lines(content)
    kinds = list(asciidoc.iter_kinds(lines)) if markup.adoc else []
    for heading in asciidoc.headings(lines, kinds) if markup.adoc else headings(lines):
        if heading.level <= level:
            shown = markup.title(heading.level, heading.title)
            message = HEADING_IN_BODY.format(name=title, heading=shown, line=heading.index + 1)
            hint = HEADING_IN_BODY_HINT.format(deeper=markup.mark * (level + 1))
            raise ValidationError(message, hint=hint)
    if markup.adoc:
        _check_no_markdown(doc.path, (title, level), lines, kinds)


def _check_no_markdown(
    path: str, target: tuple[str, int], lines: list[str], kinds: list[LineKind]
) -> None:
    title, level = target
    for index, (line, kind) in enumerate(zip(lines, kinds, strict=True)):
        parsed = parse_heading(line) if kind is LineKind.TEXT else None
        if parsed is not None and parsed[1]:
            shown = "#" * parsed[0] + " " + parsed[1]
            message = MARKDOWN_IN_ADOC.format(name=title, heading=shown, line=index + 1, path=path)
            hint = MARKDOWN_IN_ADOC_HINT.format(deeper="=" * (level + 1))
            raise ValidationError(message, hint=hint)


def _outline(text: str, path: str, level: int) -> list[tuple[int, str]]:
    """The headings at ``level`` or above: what an edit of one body must leave alone."""
    return [_key(h) for h in document.parse(text, path).headings if h.level <= level]


def _added(doc: document.Document, title: str, level: int) -> list[tuple[int, str]]:
    return [] if doc.section(title) is not None else [(level, normalize_title(title))]


def _key(heading: Heading) -> tuple[int, str]:
    return heading.level, normalize_title(heading.title)


WRITTEN = "`{path}` has written sections already"
WRITTEN_HINT = "write its sections one by one with rfd_section"
NO_SECTIONS = "the content holds no `{marks}` section headings"
NO_SECTIONS_HINT = "send the section headings (e.g. '{marks} Summary'), each with its text or empty"
SECOND_TITLE = "the content holds a `{mark}` title after its sections begin (line {line} of it)"
SECOND_TITLE_HINT = "an RFD has one title; its heading and header fields are kept as they are"
KEPT = "kept the heading and header fields of {path}; laid out its sections: {sections}"


def is_skeleton(doc: document.Document) -> bool:
    """Every section of ``doc`` is empty or template guidance (none has one: also true)."""
    return all(templates.is_placeholder(doc.section_body(s.title) or "") for s in doc.sections)


def lay_out(text: str, path: str, content: str) -> str:
    """``text`` (a skeleton) with its sections replaced by those of ``content`` (written in
    the RFD's syntax: ``##`` sections in Markdown, ``==`` ones in AsciiDoc)."""
    doc = document.parse(text, path)
    if not is_skeleton(doc):
        raise AlreadyExists(WRITTEN.format(path=path), hint=WRITTEN_HINT)
    markup = Markup(doc.form == document.ADOC)
    lines = split_lines(text)
    first = next((s.line - 1 for s in doc.sections), len(lines))
    if markup.adoc:
        first = asciidoc.block_start(lines, first)
    header = "".join(lines[:first]).rstrip("\r\n")
    eol = eol_of(text)
    body = _sections_of(content, markup).replace("\r\n", "\n").replace("\n", eol)
    result = header + eol + eol + body
    document.parse(result, path)  # refuse what would not parse
    return result


def summary(text: str, path: str) -> str:
    """The tool's answer: what was kept and which sections there are now."""
    doc = document.parse(text, path)
    names = ", ".join(s.title for s in doc.sections if s.level == 2) or "none"
    return KEPT.format(path=path, sections=names)


def _sections_of(content: str, markup: Markup) -> str:
    """``content`` from its first ``##`` (``==``) heading (any title and header fields
    before it are the model's copy of what the file keeps)."""
    lines = split_lines(content)
    if markup.adoc:
        found = asciidoc.headings(lines, list(asciidoc.iter_kinds(lines)))
    else:
        found = headings(lines)
    start = next((h.index for h in found if h.level == 2), None)
    if start is None:
        marks = markup.mark * 2
        raise ValidationError(
            NO_SECTIONS.format(marks=marks), hint=NO_SECTIONS_HINT.format(marks=marks)
        )
    title = next((h for h in found if h.level == 1 and h.index > start), None)
    if title is not None:
        message = SECOND_TITLE.format(mark=markup.mark, line=title.index + 1)
        raise ValidationError(message, hint=SECOND_TITLE_HINT)
    if markup.adoc:
        start = asciidoc.block_start(lines, start)
    body = "".join(lines[start:]).rstrip("\r\n")
    return body + "\n"


def markup_of(path: str) -> str:
    """What the prompts call the RFD's syntax: ``asciidoc`` for a ``.adoc`` file, else
    ``markdown`` (the ``markup`` variable of the draft and refine templates)."""
    return "asciidoc" if asciidoc.is_asciidoc(path) else "markdown"


WRITES = frozenset({"rfd_section", "rfd_draft"})
"""The tools that write the RFD's text: each needs a stated intent in its reply."""
MIN_WORDS = 2
NO_INTENT = (
    "`{tool}` refused: state your intent first, in the text of the reply that writes — "
    "which section you will write and the points it will make — then call it again"
)
_WORD = re.compile(r"[^\W\d_]{2,}")


def states_intent(text: str) -> bool:
    """Whether ``text`` says something in words (not only a call, a symbol, a number)."""
    return len(_WORD.findall(text)) >= MIN_WORDS


def refusal(tool: str, said: str, required: frozenset[str]) -> str | None:
    """Why the call may not run (None: it may)."""
    if tool in required and not states_intent(said):
        return NO_INTENT.format(tool=tool)
    return None
