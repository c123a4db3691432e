"""An AsciiDoc RFD's body as Markdown, for the site's one safe renderer (pure).

The site renders every document through :mod:`bot.site.markdown` (raw HTML escaped, links
checked and rewritten, code highlighted, headings anchored).  An AsciiDoc document is first
translated into the Markdown that means the same — sections, paragraphs, lists, source and
literal blocks, admonitions, tables, block titles, links and cross references — so it gets
that treatment as it is, and nothing in it can become markup of its own:

- text is escaped for Markdown, so a ``<script>`` in it is shown, never run;
- passthroughs (``++++`` blocks, ``pass:[…]``, ``+++…+++``) are shown as their text;
- ``include::`` never reads a file (the directive is named on the page instead), and there is
  no ``ifeval``/``{sys:…}``/``{eval:…}`` to run: conditionals are dropped, every branch shown;
- ``<<id>>`` and ``<<id,text>>`` land on the heading that carries the anchor (an explicit
  ``[[id]]``/``[#id]`` or AsciiDoc's own ``_section_title``) or on an anchor inside the text
  (``[[id]]``, ``[#id]#text#``, ``anchor:id[]``, a bibliography entry's ``[[[id]]]``),
  ``link:``/``xref:`` to another RFD's file on its page, like a Markdown link; Oxide's
  ``<<rfd48>>`` (``rfd-48``, ``rfd_48``) on RFD 48's page;
- footnotes become numbered references to notes listed at the end, and a listing's callout
  list (``<1> explanation``) an ordered list under it (its ``<1>`` markers stay in the code).

Two things Markdown cannot say travel as links only the renderer of a translated document
understands (:data:`ANCHOR`, :data:`RFD`): an anchor (an element with an ``id``, no link) and
a reference to an RFD by its number (its page when the corpus has it).  The renderer checks
them again: an id is a plain word, a number is digits.

Why not an AsciiDoc processor: asciidoc-py (PyPI ``asciidoc`` 10.2) evaluates Python written
in the document (``ifeval::[…]``, ``{eval:…}``) unless run with ``--safe``, and in ``--safe``
mode its own html5 backend fails to load; its source blocks run an external highlighter through
the shell.  The pure-Python alternative on PyPI (asciidoctrine, alpha) took about 5 s per RFD.
Asciidoctor itself needs Ruby or Node at build time.  See ``rfd help site``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from bot.model.asciidoc import names_file, referenced_rfd

VERSION = 2
"""Bump when the translation changes: rendered bodies are cached under it."""

ANCHOR = "rfd-site-anchor"
"""``[](<rfd-site-anchor:ID>)``: an anchor ``ID`` on the page (the renderer makes it an id)."""
RFD = "rfd-site-rfd"
"""``[text](<rfd-site-rfd:48#ID>)``: RFD 48's page; without it, ``#ID`` or the text alone."""
ID = re.compile(r"[^\W\d][\w.:-]*")
"""What an anchor id may be (AsciiDoc's ids): a word, never markup nor a quote."""

ADMONITIONS = {"NOTE": "Note", "TIP": "Tip", "IMPORTANT": "Important", "WARNING": "Warning"}
ADMONITIONS["CAUTION"] = "Caution"

_ATTRIBUTE = re.compile(r"^:(!?[\w][\w-]*!?):(?:[ \t]+(.*))?$")
_HEADING = re.compile(r"^(={1,6})[ \t]+(\S.*?)[ \t]*$")
_BLOCK_ATTRS = re.compile(r"^\[(.*)\]$")
_ANCHOR = re.compile(r"^\[\[([^\],]+)(?:,[^\]]*)?\]\]$")
_TITLE = re.compile(r"^\.([^.\s].*)$")
_UNORDERED = re.compile(r"^[ \t]*(\*{1,5}|-)[ \t]+(.*)$")
_ORDERED = re.compile(r"^[ \t]*(\.{1,5}|\d+\.)[ \t]+(.*)$")
_DESCRIPTION = re.compile(r"^(.+?)(::|:::|::::|;;)(?:[ \t]+(.*))?$")
_ADMONITION = re.compile(r"^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]+(.*)$")
_BLOCK_MACRO = re.compile(r"^(image|include|video|audio|toc)::(.*?)\[(.*)\]$")
_DIRECTIVE = re.compile(r"^(ifdef|ifndef|ifeval|endif)::")
_DELIMITERS = ("----", "....", "++++", "====", "****", "____", "|===", "--", "////", "```")
_BACKTICKS = re.compile(r"`+")
_SCHEME = re.compile(r"^\s*([A-Za-z][\w+.-]*):")
_CALLOUT = re.compile(r"^<(\d+|\.)>[ \t]+(.*)$")
_CALLOUT_MARKER = re.compile(r"<(\d+|\.)>")
_CALLOUT_MARKERS = re.compile(r"(?:[ \t]*<(?:\d+|\.)>)+[ \t]*$")
"""The callout markers that end a line of a listing (``// <1>``, ``# <.> <.>``)."""
_INLINE_ANCHORS = re.compile(r"\[\[\[?([^\[\],\s]+),[ \t]*([^\]]+?)\]\]")
_HEADING_ANCHOR = re.compile(r"\[\[([^\[\],\s]+)(?:,[^\]]*)?\]\]")
"""An anchor written in a heading's line: another id of the heading."""
_BIBLIOGRAPHY = re.compile(r"\[\[\[([^\[\],\s]+)")

_INLINE = re.compile(
    r"(?P<esc>\\[*_`#+<\[{\\|])"
    r"|(?P<pass>pass:[a-z,]*\[(?P<pass_text>.*?)\]|\+\+\+(?P<p3>.+?)\+\+\+|\+\+(?P<p2>.+?)\+\+)"
    r"|(?P<code>`\+(?P<code_lit>.+?)\+`|`(?P<code_text>[^`]+?)`)"
    r"|(?P<plus>(?<![\w+])\+(?P<plus_text>[^\s+](?:[^+]*?[^\s+])?)\+(?![\w+]))"
    r"|(?P<xref><<(?P<xref_to>[^<>,\n]+?)(?:,[ \t]*(?P<xref_text>[^<>\n]+?))?>>)"
    r"|(?P<macro>(?P<kind>link|xref|mailto|image|footnoteref|footnote|anchor|kbd|btn|menu):"
    r"(?P<target>[^\s\[\]]*)\[(?P<macro_text>(?:[^\]\\]|\\.)*)\])"
    r"|(?P<url>(?P<url_to>(?:https?|ftp|irc)://[^\s\[\]<>\"]+?)\[(?P<url_text>[^\]]*)\])"
    r"|(?P<bare>(?P<bare_to>https?://[^\s\[\]<>\"]+[^\s\[\]<>\".,;:!?)']))"
    r"|(?P<strong2>\*\*(?P<strong2_text>.+?)\*\*)"
    r"|(?P<strong>(?<![\w*])\*(?P<strong_text>[^\s*](?:.*?[^\s*])?)\*(?![\w*]))"
    r"|(?P<em2>__(?P<em2_text>.+?)__)"
    r"|(?P<em>(?<![\w_])_(?P<em_text>[^\s_](?:.*?[^\s_])?)_(?![\w_]))"
    r"|(?P<bib>\[\[\[(?P<bib_id>[^\[\],\s]+)(?:,[ \t]*(?P<bib_text>[^\]]*))?\]\]\])"
    r"|(?P<anchor>\[\[(?P<anchor_id>[^\[\],\s]+)(?:,[^\]]*)?\]\])"
    r"|(?P<span>\[#(?P<span_id>[^\]\s.,%#]+)[^\]]*\]#(?P<span_text>[^#\n]+)#)"
    r"|(?P<attr>\{(?P<attr_name>[\w][\w-]*)\})"
)
_MAY_CONSTRUCT = re.compile(r"[\\+`<*_\[{:]")
"""A character every inline construct has: a text without any is all plain text."""
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>~|!#&])")
_LINE_START = re.compile(r"^([ \t]*)([-+=>#]|\d+[.)])")
_TABLE_SPEC = re.compile(r"^(?:\d+\*|\d*(?:\.\d+)?\+)?[<^>]?(?:\.[<^>])?[adehlmsv]?$")


def _escape(text: str) -> str:
    """Plain text that Markdown shows as it is (never markup, never HTML)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _code_span(code: str) -> str:
    fence = "`" * (1 + max((len(run) for run in _BACKTICKS.findall(code)), default=0))
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def fence(text: str, lang: str = "") -> str:
    """``text`` as a fenced code block, the fence longer than any backtick run in it."""
    ticks = "`" * max(3, 1 + max((len(run) for run in _BACKTICKS.findall(text)), default=0))
    info = lang if re.fullmatch(r"[\w+#.-]+", lang) else ""
    return f"{ticks}{info}\n{text}\n{ticks}\n"


@dataclass
class _Doc:
    """What the translation knows about the whole document: attributes and anchors."""

    attributes: dict[str, str] = field(default_factory=dict)
    anchors: dict[str, str] = field(default_factory=dict)
    """An anchor id (explicit or AsciiDoc's ``_title``) → the heading's anchor on the page."""
    titles: dict[str, str] = field(default_factory=dict)
    """The same ids, and those of anchors in the text that give one, → what ``<<id>>``
    shows (the heading's text, the anchor's ``[[id,reftext]]``)."""
    bibliography: set[str] = field(default_factory=set)
    """The ids of bibliography entries (``[[[id]]]``) on the page."""
    notes: list[str] = field(default_factory=list)
    """The footnotes' texts, as Markdown, in the order they are numbered."""
    named_notes: dict[str, int] = field(default_factory=dict)
    """A named footnote (``footnote:name[…]``) → its number."""


def to_markdown(text: str, slug: Callable[[str], str]) -> str:
    """The Markdown that renders the AsciiDoc ``text`` (its header already taken off);
    ``slug`` is how the renderer anchors a heading (cross references land there)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    doc = _Doc()
    _index_headings(lines, doc, slug)
    _index_anchors(text, doc)
    body = "\n".join(_blocks(lines, doc)).strip("\n") + "\n"
    return body + _footnotes(doc)


def _index_anchors(text: str, doc: _Doc) -> None:
    """What ``<<id>>`` shows for the anchors in the text that name it (``[[id,reftext]]``)
    and which ids are bibliography entries; the footnotes the headings' pass numbered are
    numbered again where they stand."""
    for match in _INLINE_ANCHORS.finditer(text):
        doc.titles.setdefault(match[1], match[2].strip())
    doc.bibliography.update(_BIBLIOGRAPHY.findall(text))
    doc.notes.clear()
    doc.named_notes.clear()


def _footnotes(doc: _Doc) -> str:
    """The notes under a rule at the end of the page, each with a way back to its reference."""
    if not doc.notes:
        return ""
    items = [
        f"{n}. {_anchor(f'_footnotedef_{n}')}{note} [↩](#_footnoteref_{n})"
        for n, note in enumerate(doc.notes, 1)
    ]
    return "\n* * *\n\n" + "\n".join(items) + "\n"


def _anchor(name: str) -> str:
    """An anchor ``name`` on the page (nothing when it is not a valid id)."""
    return f"[](<{ANCHOR}:{name}>)" if ID.fullmatch(name) else ""


def _index_headings(lines: list[str], doc: _Doc, slug: Callable[[str], str]) -> None:
    """Every heading's anchor as the page will give it, under the ids AsciiDoc knows it by."""
    seen: dict[str, int] = {}
    pending: str | None = None
    first_title = True
    for line in _outside_verbatim(lines):
        anchor = _ANCHOR.match(line) or re.match(r"^\[#([\w-]+)[^\]]*\]$", line)
        heading = _HEADING.match(line)
        if anchor:
            pending = anchor[1].strip()
        elif heading:
            if len(heading[1]) == 1 and first_title:
                first_title = False  # the page shows the title itself, unanchored
                continue
            title = _HEADING_ANCHOR.sub("", heading[2]).strip()
            base = slug(_inline(title, doc))
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchor_id = base if count == 0 else f"{base}-{count}"
            auto = "_" + re.sub(r"\W+", "_", title.lower()).strip("_")
            for name in (pending, *_HEADING_ANCHOR.findall(heading[2]), auto):
                if name and name not in doc.anchors:
                    doc.anchors[name] = anchor_id
                    doc.titles[name] = title
            pending = None
        elif line.strip():
            pending = None if not _BLOCK_ATTRS.match(line) else pending


def _outside_verbatim(lines: list[str]) -> Iterator[str]:
    closing: str | None = None
    for line in lines:
        stripped = line.rstrip()
        if closing is not None:
            if stripped == closing:
                closing = None
            continue
        if stripped in ("----", "....", "++++", "////", "```"):
            closing = stripped
            continue
        yield stripped


def _blocks(lines: list[str], doc: _Doc) -> Iterator[str]:
    """Markdown lines for a sequence of AsciiDoc lines (recursively for compound blocks)."""
    i = 0
    style: list[str] = []
    title: str | None = None
    anchor = ""
    """The id of the block to come (``[[id]]``, ``[#id]``): a heading has its own already."""
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if not stripped:
            yield ""
            i += 1
            continue
        if stripped.startswith("//") and stripped != "////" and not stripped.startswith("///"):
            i += 1
            continue
        attribute = _ATTRIBUTE.match(line)
        if attribute:
            name = attribute[1].strip("!")
            doc.attributes[name] = attribute[2] or ""
            i += 1
            continue
        if _DIRECTIVE.match(line) or stripped in ("<<<", "toc::[]"):
            i += 1
            continue
        block_anchor = _ANCHOR.match(stripped)
        if block_anchor:
            anchor = block_anchor[1].strip()
            i += 1
            continue
        attrs = _BLOCK_ATTRS.match(stripped)
        if attrs and not stripped.startswith("[["):
            style = [a.strip() for a in _split_attrs(attrs[1])]
            anchor = _style_id(style) or anchor
            i += 1
            continue
        block_title = _TITLE.match(line)
        if block_title and not line.startswith(".."):
            title = block_title[1]
            i += 1
            continue
        if _HEADING.match(line):
            anchor = ""
        elif anchor:
            yield _anchor(anchor)
            yield ""
            anchor = ""
        if title is not None and not _opens_verbatim(stripped):
            yield f"*{_inline(title, doc)}*"
            yield ""
            title = None
        if stripped in _DELIMITERS or _is_delimiter(stripped):
            i, out = _delimited(lines, i, stripped, style, title, doc)
            yield from out
            style, title = [], None
            continue
        heading = _HEADING.match(line)
        if heading:
            yield ""
            words = _HEADING_ANCHOR.sub("", heading[2]).strip()
            yield f"{'#' * len(heading[1])} {_inline(words, doc)}"
            yield ""
            style = []
            i += 1
            continue
        if stripped == "'''" or stripped == "---" or stripped == "***":
            yield ""
            yield "* * *"
            yield ""
            i += 1
            continue
        macro = _BLOCK_MACRO.match(stripped)
        if macro:
            yield from _block_macro(macro[1], macro[2], macro[3], doc)
            i += 1
            continue
        if line.startswith((" ", "\t")) and not _list_item(line):
            end = _paragraph_end(lines, i)
            body = "\n".join(raw.rstrip() for raw in lines[i:end])
            yield fence(_dedent(body))
            i = end
            continue
        if _CALLOUT.match(stripped):
            end = _callouts_end(lines, i)
            yield from _callouts(lines[i:end], doc)
            yield ""
            i = end
            continue
        if _list_item(line) or _DESCRIPTION.match(line):
            end = _list_end(lines, i)
            yield from _list(lines[i:end], doc)
            yield ""
            i = end
            style = []
            continue
        end = _paragraph_end(lines, i)
        paragraph = [raw.strip() for raw in lines[i:end]]
        i = end
        admonition = _ADMONITION.match(paragraph[0])
        label = _admonition_style(style)
        if admonition:
            label, paragraph[0] = ADMONITIONS[admonition[1]], admonition[2]
        text = _paragraph(paragraph, doc)
        if label:
            yield from _quoted([f"**{label}:** {text[0]}", *text[1:]])
        elif style and style[0] in ("quote", "verse"):
            yield from _quoted(text)
        elif style and style[0] in ("source", "listing", "literal"):
            yield fence("\n".join(paragraph), _language(style))
        else:
            yield from text
        yield ""
        style = []


def _style_id(style: list[str]) -> str:
    """The id a block attribute line gives (``[#id]``, ``[source#id,rust]``, ``[id=x]``)."""
    for part in style:
        named = re.fullmatch(r"id\s*=\s*\"?([^\"]*)\"?", part)
        if named:
            return named[1]
    found = re.search(r"#([^.%#\s]+)", style[0]) if style and "=" not in style[0] else None
    return found[1] if found else ""


def _callouts_end(lines: list[str], start: int) -> int:
    """A callout list runs over its ``<n>`` items and the lines that continue them."""
    end = start + 1
    while end < len(lines) and lines[end].strip() and not _opens_verbatim(lines[end].strip()):
        end += 1
    return end


def _callouts(lines: list[str], doc: _Doc) -> Iterator[str]:
    """``<1> text`` items as a numbered list whose numbers are the code's markers."""
    auto = 0
    for raw in lines:
        item = _CALLOUT.match(raw.strip())
        if item is None:
            yield f"   {_inline(raw.strip(), doc)}"
            continue
        auto = auto + 1 if item[1] == "." else int(item[1])
        yield f"{auto}. {_inline(item[2], doc)}"


def _numbered_callouts(code: str) -> str:
    """A listing's ``<.>`` markers numbered as AsciiDoc shows them: one more than the
    marker before."""
    if "<.>" not in code:
        return code
    last = 0

    def number(marker: re.Match[str]) -> str:
        nonlocal last
        last = last + 1 if marker[1] == "." else int(marker[1])
        return f"<{last}>"

    lines = code.split("\n")
    for index, line in enumerate(lines):
        markers = _CALLOUT_MARKERS.search(line)
        if markers:
            numbered = _CALLOUT_MARKER.sub(number, markers[0])
            lines[index] = line[: markers.start()] + numbered
    return "\n".join(lines)


def _split_attrs(text: str) -> list[str]:
    return [part for part in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", text) if part]


def _is_delimiter(line: str) -> bool:
    return len(line) >= 4 and len(set(line)) == 1 and line[0] in "-.+=*_/"


def _opens_verbatim(line: str) -> bool:
    return line in _DELIMITERS or _is_delimiter(line)


def _language(style: list[str]) -> str:
    if style and style[0] == "source" and len(style) > 1:
        return style[1].strip()
    return ""


def _admonition_style(style: list[str]) -> str:
    return ADMONITIONS.get(style[0], "") if style else ""


def _delimited(
    lines: list[str], start: int, delimiter: str, style: list[str], title: str | None, doc: _Doc
) -> tuple[int, list[str]]:
    """The block opened at ``start`` (its delimiter ``delimiter``) as Markdown lines, and the
    index after its closing delimiter (the end of the document when it is never closed)."""
    end = start + 1
    while end < len(lines) and lines[end].rstrip() != delimiter:
        end += 1
    inner = [raw.rstrip("\n") for raw in lines[start + 1 : end]]
    after = min(end + 1, len(lines))
    out: list[str] = []
    if title is not None:
        out += [f"*{_inline(title, doc)}*", ""]
    kind = delimiter[0]
    if delimiter.startswith("//"):
        return after, []  # a comment block
    if delimiter == "|===":
        return after, [*out, *_table(inner, style, doc), ""]
    if delimiter != "--" and kind in "-`.+":  # listing, literal, passthrough: shown as text
        code = "\n".join(inner)
        if kind in "-`.":
            code = _numbered_callouts(code)
        return after, [*out, fence(code, _language(style) if kind in "-`" else "")]
    body = list(_blocks(inner, doc))
    label = _admonition_style(style)
    if label:
        body = [f"**{label}:**", "", *body]
    if kind in "=*_" or label:
        return after, [*out, *_quoted(body), ""]
    return after, [*out, *body, ""]


def _quoted(lines: list[str]) -> list[str]:
    return [f"> {line}" if line else ">" for line in lines]


def _block_macro(kind: str, target: str, text: str, doc: _Doc) -> Iterator[str]:
    if kind == "image":
        alt = _escape(_first_attr(text) or target)
        yield f"![{alt}]({_destination(target)})" if _destination(target) else alt
    elif kind == "include":
        yield f"*{_escape(f'include::{target}[]')} is not shown on the site.*"
    elif kind != "toc":
        yield _inline(f"link:{target}[{_first_attr(text) or target}]", doc)
    yield ""


def _first_attr(text: str) -> str:
    parts = _split_attrs(text)
    return parts[0].strip().strip('"') if parts and "=" not in parts[0] else ""


def _paragraph_end(lines: list[str], start: int) -> int:
    end = start + 1
    while end < len(lines):
        line = lines[end].rstrip()
        stripped = line.strip()
        if not stripped or _opens_verbatim(stripped) or _HEADING.match(line):
            break
        if _BLOCK_ATTRS.match(stripped) or _list_item(line) or _ATTRIBUTE.match(line):
            break
        end += 1
    return end


def _paragraph(lines: list[str], doc: _Doc) -> list[str]:
    out = []
    for line in lines:
        hard = line.endswith(" +")
        text = _inline(line[:-2] if hard else line, doc)
        out.append(text + ("\\" if hard else ""))
    return out


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return "\n".join(x[indent:] for x in lines)


def _list_item(line: str) -> bool:
    return bool(_UNORDERED.match(line) or _ORDERED.match(line))


def _list_end(lines: list[str], start: int) -> int:
    """A list runs to the first blank line not followed by another item (or a ``+``)."""
    end = start
    while end < len(lines):
        stripped = lines[end].strip()
        if not stripped:
            nxt = end + 1
            while nxt < len(lines) and not lines[nxt].strip():
                nxt += 1
            if nxt < len(lines) and (_list_item(lines[nxt]) or _DESCRIPTION.match(lines[nxt])):
                end = nxt
                continue
            break
        if _opens_verbatim(stripped) or _HEADING.match(lines[end]):
            break
        end += 1
    return end


def _list(lines: list[str], doc: _Doc) -> Iterator[str]:
    """Nested AsciiDoc list items (``*``/``**``, ``.``/``..``, ``1.``, ``term::``) as
    Markdown list items indented by level; continuation lines join their item."""
    indents: dict[int, int] = {}
    current = 0
    for raw in lines:
        line = raw.strip()
        if not line or line == "+":
            continue
        unordered = _UNORDERED.match(line)
        ordered = _ORDERED.match(line)
        description = _DESCRIPTION.match(line) if not (unordered or ordered) else None
        if unordered or ordered:
            match = unordered or ordered
            assert match is not None
            marker = match[1]
            level = 1 if marker == "-" or marker[0].isdigit() else len(marker)
            bullet = "-" if unordered else "1."
            pad = sum(indents.get(n, 0) for n in range(1, level))
            indents[level] = len(bullet) + 1
            current = pad + len(bullet) + 1
            yield f"{' ' * pad}{bullet} {_inline(match[2], doc)}"
        elif description:
            term, definition = description[1], description[3] or ""
            current = 2
            yield f"- **{_inline(term.strip(), doc)}**" + (
                f": {_inline(definition, doc)}" if definition else ""
            )
        else:
            yield f"{' ' * current}{_inline(line, doc)}"


def _table(lines: list[str], style: list[str], doc: _Doc) -> list[str]:
    """An AsciiDoc table (``|===``) as a Markdown table; the first row is the header when the
    table says so (``%header``, ``options=header``) or when it stands alone on its line
    above a blank one (AsciiDoc's implicit header)."""
    options = " ".join(style)
    columns = _columns(options)
    cells: list[str] = []
    first_line_cells = 0
    implicit = False
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            if number and not implicit and len(cells) == first_line_cells and cells:
                implicit = number == 1
            continue
        if "|" in line and _TABLE_SPEC.match(line.split("|", 1)[0]):
            rest = line.partition("|")[2]
            parts = re.split(r"(?<!\\)\|", rest)
            new = [_strip_spec(part) for part in parts]
            cells += new
            if number == 0:
                first_line_cells = len(new)
        elif cells:
            cells[-1] = f"{cells[-1]} {line}"
    width = columns or first_line_cells or 1
    rows = [cells[n : n + width] for n in range(0, len(cells), width)]
    if not rows:
        return []
    rows[-1] += [""] * (width - len(rows[-1]))
    header = "header" in options or (implicit and first_line_cells == width)
    head = rows.pop(0) if header else [""] * width
    out = [_row(head, doc), "|" + "---|" * width]
    out += [_row(row, doc) for row in rows]
    return ["", *out]


def _strip_spec(cell: str) -> str:
    """A cell's text without the next cell's specifier (``2+``, ``a``) written before its
    ``|`` (only numeric specifiers: a trailing word is text)."""
    match = re.search(r"\s(\d+\*|\d*(?:\.\d+)?\+[<^>]?[adehlmsv]?)$", cell)
    return cell[: match.start()] if match else cell


def _columns(options: str) -> int:
    found = re.search(r'cols\s*=\s*"?([^"]*)"?', options)
    if not found:
        return 0
    spec = found[1].strip()
    multiplied = re.fullmatch(r"(\d+)\*.*", spec)
    if multiplied:
        return int(multiplied[1])
    return len([c for c in re.split(r"[,;]", spec) if c.strip()]) if spec else 0


def _row(cells: list[str], doc: _Doc) -> str:
    return "| " + " | ".join(_inline(c.strip(), doc) for c in cells) + " |"


def _inline(text: str, doc: _Doc) -> str:
    """Inline AsciiDoc as Markdown: formatting, links and references rebuilt, every other
    character escaped."""
    if _MAY_CONSTRUCT.search(text) is None:
        result = _escape(text)
    else:
        out: list[str] = []
        pos = 0
        for match in _INLINE.finditer(text):
            out.append(_escape(text[pos : match.start()]))
            out.append(_construct(match, doc))
            pos = match.end()
        out.append(_escape(text[pos:]))
        result = "".join(out)
    lead = _LINE_START.match(result)
    if lead:  # a Markdown list, heading or quote marker at the start is text in AsciiDoc
        result = f"{lead[1]}\\{result[len(lead[1]) :]}"
    return result


def _construct(match: re.Match[str], doc: _Doc) -> str:
    group = match.lastgroup
    if group == "esc":
        return _escape(match[0][1:])
    if group == "pass":
        return _escape(match["pass_text"] or match["p3"] or match["p2"] or "")
    if group == "code":
        return _code_span(match["code_lit"] or match["code_text"])
    if group == "plus":
        return _escape(match["plus_text"])
    if group == "xref":
        return _xref(match["xref_to"].strip(), match["xref_text"], doc)
    if group == "macro":
        return _macro(match["kind"], match["target"], match["macro_text"].replace("\\]", "]"), doc)
    if group == "url":
        return _link(match["url_to"], match["url_text"], doc)
    if group == "bare":
        return _link(match["bare_to"], "", doc)
    if group in ("strong", "strong2"):
        return f"**{_inline(match[f'{group}_text'], doc)}**"
    if group in ("em", "em2"):
        return f"*{_inline(match[f'{group}_text'], doc)}*"
    if group == "anchor" and ID.fullmatch(match["anchor_id"]):
        return _anchor(match["anchor_id"])
    if group == "bib":
        label = match["bib_text"] or match["bib_id"]
        return f"{_anchor(match['bib_id'])}{_escape(f'[{label.strip()}]')}"
    if group == "span" and ID.fullmatch(match["span_id"]):
        return _anchor(match["span_id"]) + _inline(match["span_text"], doc)
    if group == "attr":
        value = doc.attributes.get(match["attr_name"])
        return _escape(match[0]) if value is None else _inline(value, doc)
    return _escape(match[0])


def _xref(target: str, text: str | None, doc: _Doc) -> str:
    """``<<id>>`` to the heading or anchor there; ``<<file.adoc#id,text>>`` to that file;
    ``<<rfd48>>`` (not a heading's id) to RFD 48's page, else to the bibliography entry."""
    if names_file(target):
        return _link(target, text or target, doc)
    number = referenced_rfd(target)
    if number is not None and target not in doc.anchors:
        label = _inline(text or f"RFD {number}", doc)
        entry = f"#{target}" if target in doc.bibliography and ID.fullmatch(target) else ""
        return f"[{label}](<{RFD}:{number}{entry}>)"
    anchor = doc.anchors.get(target, target)
    label = text or doc.titles.get(target) or target
    if target in doc.bibliography and not text:
        label = f"[{label}]"
    return _link(f"#{anchor}", label, doc)


def _macro(kind: str, target: str, text: str, doc: _Doc) -> str:
    if kind == "xref":
        return _xref(target, _first_attr(text) or None, doc)
    if kind == "link":
        return _link(target, _first_attr(text) or "", doc)
    if kind == "anchor":
        return _anchor(target) if ID.fullmatch(target) else _escape(f"anchor:{target}[{text}]")
    if kind in ("footnote", "footnoteref"):
        name, _, note = text.partition(",") if kind == "footnoteref" else (target, "", text)
        return _footnote(name.strip(), note.strip(), doc)
    if kind == "mailto":
        return _link(f"mailto:{target}", _first_attr(text) or target, doc)
    if kind == "image":
        alt = _escape(_first_attr(text) or target)
        dest = _destination(target)
        return f"![{alt}]({dest})" if dest else alt
    return _inline(text, doc)


def _footnote(name: str, text: str, doc: _Doc) -> str:
    """A numbered reference to the note (the first time: the note itself is numbered, and
    ``name`` names it for the references to come)."""
    number = doc.named_notes.get(name) if name else None
    if number is not None:
        return f"[\\[{number}\\]](#_footnotedef_{number})"
    if not text:
        return ""
    doc.notes.append(_inline(text, doc))
    number = len(doc.notes)
    if name:
        doc.named_notes[name] = number
    return f"{_anchor(f'_footnoteref_{number}')}[\\[{number}\\]](#_footnotedef_{number})"


def _link(target: str, text: str, doc: _Doc) -> str:
    """A Markdown link; the site's renderer decides where it may go (or drops it to text)."""
    label = _inline(text, doc) if text else _escape(target)
    dest = _destination(target)
    return f"[{label}]({dest})" if dest else label


def _destination(target: str) -> str:
    """``target`` as a Markdown link destination (empty: it cannot be one, such as a
    ``javascript:`` link, which is then shown as its text)."""
    scheme = _SCHEME.match(target)
    if scheme and scheme[1].lower() not in ("http", "https", "mailto"):
        return ""
    if not target or any(c in target for c in "<>\\") or any(ord(c) < 32 for c in target):
        return ""
    return f"<{target}>"
