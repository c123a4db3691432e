"""An RFD written in AsciiDoc: its header (document attributes and the ``=`` title) and
the structure of its body.

    :showtitle:
    :state: discussion
    :discussion: https://github.com/org/rfd/pull/12
    :authors: Ada <ada@example.com>

    = RFD 12 Title

The attributes (``:key: value`` lines before the title, or right after it up to the first
blank line) are the header fields; an edit replaces one attribute's value on its line.

The body's structure, read the way :mod:`bot.model.markdown` reads Markdown's, so that
:class:`bot.model.document.Document`'s sections and the plan parser work on either:

- :func:`iter_kinds`: a delimited block (``----`` listing, ``....`` literal, ``====``
  example, ``****`` sidebar, ``____`` quote, ``++++`` passthrough, ``|===`` table, a
  ```` ``` ```` fence) is code, delimiters included, up to the same delimiter; a ``//`` line
  and a ``////`` block are comments.  Nothing in them is structure.
- :func:`headings`: a section title is ``=`` marks, a space and a title, starting a block
  (after a blank line, a block attribute line such as ``[[anchor]]``, ``[#id]`` or
  ``[source,yaml]``, an attribute entry ``:toc: left``, a comment, or another title);
  ``[discrete]``/``[float]`` ones are no sections.  Levels are counted as Markdown's ``#``
  (the ``=`` title is 1, ``==`` is 2 like ``##`` — what AsciiDoc itself calls level 1), so
  the callers compare levels alike.
- :func:`section_ends`: a section ends where the next one of its level or higher starts,
  the attribute and anchor lines above that title included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from bot.core.patterns import lazy
from bot.model import markdown
from bot.model.header import Field, normalize_key
from bot.model.markdown import Heading, LineKind, content, ending, split_lines

ATTRIBUTE_RE = re.compile(
    r"^:(?P<key>[A-Za-z0-9_][A-Za-z0-9_ -]*):(?P<space>[ \t]*)(?P<value>.*?)[ \t]*$"
)
TITLE_RE = re.compile(r"^=[ \t]+(?P<title>\S.*?)[ \t]*$")


def is_asciidoc(path: str) -> bool:
    return path.endswith((".adoc", ".asciidoc"))


def scan(lines: Sequence[str]) -> tuple[tuple[Field, ...], int | None, str | None]:
    """``(attributes, 0-based index of the title line, title)``."""
    fields: list[Field] = []
    title_index: int | None = None
    title: str | None = None
    for index, raw in enumerate(lines):
        line = content(raw)
        attribute = ATTRIBUTE_RE.match(line)
        if attribute is not None:
            fields.append(Field(attribute["key"].strip(), attribute["value"], index + 1))
            continue
        if not line.strip() or line.startswith("//"):
            if title_index is not None and not line.strip():
                break  # the header ends at the first blank line after the title
            continue
        heading = TITLE_RE.match(line)
        if heading is None or title_index is not None:
            break
        title_index, title = index, heading["title"]
    return tuple(fields), title_index, title


def set_value(text: str, key: str, value: str, status_key: str | None) -> str:
    """``text`` with attribute ``key`` (``Status``: the status attribute) set to ``value``;
    a missing attribute is added after the last one."""
    lines = split_lines(text)
    fields, title_index, _ = scan(lines)
    wanted = normalize_key(status_key if normalize_key(key) == "status" and status_key else key)
    existing = _attribute(fields, wanted)
    if existing is not None:
        line = lines[existing.index]
        match = ATTRIBUTE_RE.match(content(line))
        assert match is not None
        lines[existing.index] = f":{match['key']}:{match['space'] or ' '}{value}" + ending(line)
        return "".join(lines)
    after = fields[-1].index if fields else (title_index if title_index is not None else -1)
    eol = ending(lines[0]) if lines else "\n"
    lines.insert(after + 1, f":{'-'.join(key.lower().split())}: {value}{eol or chr(10)}")
    return "".join(lines)


def remove_value(text: str, key: str) -> str:
    """``text`` without the line of attribute ``key`` (unchanged when it has none)."""
    lines = split_lines(text)
    existing = _attribute(scan(lines)[0], normalize_key(key))
    if existing is None:
        return text
    del lines[existing.index]
    if existing.index == len(lines) and lines and not text.endswith("\n"):
        lines[-1] = content(lines[-1])
    return "".join(lines)


def _attribute(fields: Sequence[Field], wanted: str) -> Field | None:
    """The attribute named ``wanted`` (normalized; ``tracking issue`` is ``tracking-issue``)."""
    names = {wanted, wanted.replace(" ", "-")}
    return next((f for f in fields if normalize_key(f.key) in names), None)


_DELIMITER_RE = lazy(
    r"""^(?:-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}   # listing, literal, example, sidebar…
        |[|,:!]={3,}                                # a table
        |/{4,})[ \t]*$                              # a comment block""",
    re.VERBOSE,
)
_FENCE_RE = lazy(r"^```")
_COMMENT_LINE_RE = lazy(r"^//(?!/)")
_SECTION_RE = lazy(r"^(?P<marks>={1,6})[ \t]+(?P<title>\S.*?)[ \t]*$")
_BLOCK_ATTRIBUTE_RE = lazy(r"^\[.*\]$")  # [[anchor]], [#id], [source,yaml], [NOTE]
_DISCRETE_RE = lazy(r"^\[(?:discrete|float)(?:[,#.%].*)?\]$")


def is_block_attribute(line: str) -> bool:
    """``[[anchor]]``, ``[#id]``, ``[source,yaml]``, ``[NOTE]``: a line about the next block."""
    return bool(_BLOCK_ATTRIBUTE_RE.match(content(line).rstrip()))


def iter_kinds(lines: Iterable[str]) -> Iterator[LineKind]:
    """What each line is: text, inside a delimited block (code), or a comment."""
    closing = ""
    for raw in lines:
        line = content(raw).rstrip()
        if closing:
            yield LineKind.COMMENT if closing.startswith("/") else LineKind.CODE
            closing = "" if line == closing else closing
        elif _DELIMITER_RE.match(line) or _FENCE_RE.match(line):
            closing = "```" if line.startswith("```") else line
            yield LineKind.COMMENT if closing.startswith("/") else LineKind.CODE
        elif _COMMENT_LINE_RE.match(line):
            yield LineKind.COMMENT
        else:
            yield LineKind.TEXT


def headings(lines: Sequence[str], kinds: Sequence[LineKind]) -> list[Heading]:
    """Every section title outside blocks and comments, ``=`` titles included."""
    return [heading for heading, starts in _titles(lines, kinds) if starts]


def glued_titles(lines: Sequence[str], kinds: Sequence[LineKind]) -> list[Heading]:
    """Lines written as section titles that AsciiDoc reads as text: right under a
    paragraph or a list item, with no blank line between (``[discrete]`` ones left out)."""
    return [heading for heading, starts in _titles(lines, kinds) if not starts]


def _titles(lines: Sequence[str], kinds: Sequence[LineKind]) -> Iterator[tuple[Heading, bool]]:
    """Each line written as a section title, and whether it starts a block (is one)."""
    starts_block = True  # what comes before the line lets a block start there
    discrete = False
    for index, (raw, kind) in enumerate(zip(lines, kinds, strict=True)):
        line = content(raw).rstrip()
        if kind is not LineKind.TEXT:
            starts_block, discrete = True, discrete and kind is LineKind.COMMENT
            continue
        match = _SECTION_RE.match(line.lstrip("\ufeff"))
        if match is not None and not discrete:
            yield Heading(len(match["marks"]), match["title"], index), starts_block
        attribute = bool(_BLOCK_ATTRIBUTE_RE.match(line))
        discrete = attribute and (discrete or bool(_DISCRETE_RE.match(line)))
        entry = match is None and ATTRIBUTE_RE.match(line) is not None  # :toc: left
        starts_block = not line or attribute or entry or (match is not None and starts_block)


def section_ends(found: Sequence[Heading], lines: Sequence[str]) -> list[int]:
    """Where the section of each title in ``found`` ends (0-based, exclusive): at the next
    title of its level or higher, before the attribute and anchor lines above it."""
    return [
        _above_attributes(lines, end, heading.index + 1)
        for heading, end in zip(found, markdown.section_ends(found, len(lines)), strict=True)
    ]


def block_start(lines: Sequence[str], index: int) -> int:
    """Where the title on line ``index`` starts: the block attribute and anchor lines right
    above it (``[[id]]``, ``[#id]``) belong to it."""
    return _above_attributes(lines, index, 0)


def _above_attributes(lines: Sequence[str], end: int, start: int) -> int:
    """``end`` moved up past the block attribute lines right above it (not past ``start``)."""
    if end >= len(lines):
        return end
    while end > start and _BLOCK_ATTRIBUTE_RE.match(content(lines[end - 1]).rstrip()):
        end -= 1
    return end


_RFD_REFERENCE_RE = lazy(r"rfd[-_]?0*(\d{1,5})", re.IGNORECASE)


def names_file(target: str) -> bool:
    """Does a cross reference's target name a file (``../0012/README.adoc#x``, ``other.md``)
    rather than an id of a page (``<<rfd48>>``, ``<<background>>``)?"""
    return "#" in target or target.endswith((".adoc", ".md"))


def referenced_rfd(target: str) -> int | None:
    """The RFD number an id names (Oxide's ``<<rfd48>>``, ``<<rfd-48>>``, ``<<rfd_0048>>``),
    None for any other id: the one rule the site's links and lint's RFD015 share."""
    match = _RFD_REFERENCE_RE.fullmatch(target)
    return int(match[1]) if match else None
