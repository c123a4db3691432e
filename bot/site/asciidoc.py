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
  ``[[id]]``/``[#id]`` or AsciiDoc's own ``_section_title``), ``link:``/``xref:`` to another
  RFD's file on its page, like a Markdown link.

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

VERSION = 1
"""Bump when the translation changes: rendered bodies are cached under it."""

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

_INLINE = re.compile(
    r"(?P<esc>\\[*_`#+<\[{\\|])"
    r"|(?P<pass>pass:[a-z,]*\[(?P<pass_text>.*?)\]|\+\+\+(?P<p3>.+?)\+\+\+|\+\+(?P<p2>.+?)\+\+)"
    r"|(?P<code>`\+(?P<code_lit>.+?)\+`|`(?P<code_text>[^`]+?)`)"
    r"|(?P<plus>(?<![\w+])\+(?P<plus_text>[^\s+](?:[^+]*?[^\s+])?)\+(?![\w+]))"
    r"|(?P<xref><<(?P<xref_to>[^<>,\n]+?)(?:,[ \t]*(?P<xref_text>[^<>\n]+?))?>>)"
    r"|(?P<macro>(?P<kind>link|xref|mailto|image|footnote|kbd|btn|menu):"
    r"(?P<target>[^\s\[\]]*)\[(?P<macro_text>(?:[^\]\\]|\\.)*)\])"
    r"|(?P<url>(?P<url_to>(?:https?|ftp|irc)://[^\s\[\]<>\"]+?)\[(?P<url_text>[^\]]*)\])"
    r"|(?P<bare>(?P<bare_to>https?://[^\s\[\]<>\"]+[^\s\[\]<>\".,;:!?)']))"
    r"|(?P<strong2>\*\*(?P<strong2_text>.+?)\*\*)"
    r"|(?P<strong>(?<![\w*])\*(?P<strong_text>[^\s*](?:.*?[^\s*])?)\*(?![\w*]))"
    r"|(?P<em2>__(?P<em2_text>.+?)__)"
    r"|(?P<em>(?<![\w_])_(?P<em_text>[^\s_](?:.*?[^\s_])?)_(?![\w_]))"
    r"|(?P<anchor>\[\[[^\]]*\]\])"
    r"|(?P<attr>\{(?P<attr_name>[\w][\w-]*)\})"
)
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
    """The same ids → the heading's text (what ``<<id>>`` shows)."""


def to_markdown(text: str, slug: Callable[[str], str]) -> str:
    """The Markdown that renders the AsciiDoc ``text`` (its header already taken off);
    ``slug`` is how the renderer anchors a heading (cross references land there)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    doc = _Doc()
    _index_headings(lines, doc, slug)
    return "\n".join(_blocks(lines, doc)).strip("\n") + "\n"


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
            source = _inline(heading[2], doc)
            base = slug(source)
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchor_id = base if count == 0 else f"{base}-{count}"
            auto = "_" + re.sub(r"\W+", "_", heading[2].lower()).strip("_")
            for name in (pending, auto):
                if name and name not in doc.anchors:
                    doc.anchors[name] = anchor_id
                    doc.titles[name] = heading[2]
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
        if _ANCHOR.match(stripped):
            i += 1
            continue
        attrs = _BLOCK_ATTRS.match(stripped)
        if attrs and not stripped.startswith("[["):
            style = [a.strip() for a in _split_attrs(attrs[1])]
            i += 1
            continue
        block_title = _TITLE.match(line)
        if block_title and not line.startswith(".."):
            title = block_title[1]
            i += 1
            continue
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
            yield f"{'#' * len(heading[1])} {_inline(heading[2], doc)}"
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
        return after, [*out, fence("\n".join(inner), _language(style) if kind in "-`" else "")]
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
    if group == "anchor":
        return ""
    if group == "attr":
        value = doc.attributes.get(match["attr_name"])
        return _escape(match[0]) if value is None else _inline(value, doc)
    return _escape(match[0])


def _xref(target: str, text: str | None, doc: _Doc) -> str:
    """``<<id>>`` to the heading anchored there; ``<<file.adoc#id,text>>`` to that file."""
    if "#" in target or target.endswith((".adoc", ".md")):
        return _link(target, text or target, doc)
    anchor = doc.anchors.get(target, target)
    label = text or doc.titles.get(target) or target
    return _link(f"#{anchor}", label, doc)


def _macro(kind: str, target: str, text: str, doc: _Doc) -> str:
    if kind in ("link", "xref"):
        return _link(target, _first_attr(text) or "", doc)
    if kind == "mailto":
        return _link(f"mailto:{target}", _first_attr(text) or target, doc)
    if kind == "image":
        alt = _escape(_first_attr(text) or target)
        dest = _destination(target)
        return f"![{alt}]({dest})" if dest else alt
    if kind == "footnote":
        return f" ({_inline(text, doc)})"
    return _inline(text, doc)


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
