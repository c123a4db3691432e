"""An RFD's markdown as the HTML of its page (pure), and a build's documents rendered that
way: cached, and in parallel for large corpora.

CommonMark with tables and strikethrough (markdown-it-py), raw HTML escaped (RFD text is
untrusted), code highlighted by Pygments, every heading given an ``id`` (search results and
the table of contents land on it), and links rewritten: a link to another RFD's file goes to
that RFD's page, a link to any other file of the repository to GitHub (or is dropped to plain
text when the repository is not known), and an image is a link, never a request leaving the
site.

An AsciiDoc document (``.adoc``) is first translated into Markdown (:mod:`bot.site.asciidoc`)
and rendered the same way; one that cannot be translated is shown as its text, preformatted,
under a note (:func:`render_document`).

Rendering markdown is most of a build's work (:func:`render_all`).  Each body is keyed by
its path, its text and the set of RFD paths links can resolve to; a rebuild renders only
the documents whose key is not in the cache (``.rfd-site/bodies.json`` in the output
directory), and a first build of many documents spreads them over the machine's cores.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from bot.site import asciidoc

_SLUG_DROP = re.compile(r"[^\w\- ]+")
_SLUG_SPACE = re.compile(r"[\s-]+")
_FORMATTER = HtmlFormatter(nowrap=True)


@dataclass(frozen=True)
class Rendered:
    html: str
    toc: tuple[tuple[int, str, str], ...]
    """``(level, anchor, title)`` of each ``##``/``###`` heading."""


@dataclass(frozen=True)
class LinkContext:
    """Where the document lives and where links to repository files go."""

    path: str
    """The document's path in the repository (``docs/rfd/045-x.md``)."""
    pages: Mapping[str, str]
    """Repository path of every RFD → its page, relative to the page being rendered."""
    blob: Callable[[str], str | None]
    """A repository path → its URL on the forge (None: no link)."""
    numbers: Mapping[int, str] = field(default_factory=dict)
    """A published RFD's number → its page (where ``<<rfd48>>`` of an AsciiDoc RFD goes)."""


def slug(text: str) -> str:
    """A heading's anchor: GitHub's way (lower case, punctuation dropped, spaces → ``-``)."""
    folded = unicodedata.normalize("NFKC", text).strip().lower()
    return _SLUG_SPACE.sub("-", _SLUG_DROP.sub("", folded)).strip("-") or "section"


def _highlight(code: str, lang: str, _attrs: str) -> str:
    try:
        lexer = get_lexer_by_name(lang.split()[0]) if lang.strip() else None
    except ClassNotFound:
        lexer = None
    body = escape(code) if lexer is None else highlight(code, lexer, _FORMATTER)
    return f'<pre class="highlight" tabindex="0"><code>{body}</code></pre>\n'


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight})
    md.enable(["table", "strikethrough"])
    return md


_MD = _parser()


def render(
    text: str, links: LinkContext, *, skip_title: bool = True, translated: bool = False
) -> Rendered:
    """The HTML of ``text`` (its ``#`` title left out when ``skip_title``: the page shows it);
    ``translated``: the Markdown an AsciiDoc document was translated into, whose anchors and
    references by RFD number (:data:`asciidoc.ANCHOR`, :data:`asciidoc.RFD`) are honoured."""
    env: dict[str, Any] = {}
    tokens = _MD.parse(text, env)
    if skip_title:
        tokens = _without_title(tokens)
    toc = _anchor_headings(tokens)
    for token in tokens:
        if token.type == "inline" and token.children:
            _rewrite(token.children, links, translated)
    return Rendered(_MD.renderer.render(tokens, _MD.options, env), tuple(toc))


ADOC_FAILED = "This AsciiDoc document could not be rendered; it is shown as written."


def render_document(path: str, text: str, links: LinkContext) -> Rendered:
    """The HTML of the document at ``path``: Markdown, or AsciiDoc by its extension."""
    if not path.endswith((".adoc", ".asciidoc")):
        return render(text, links)
    try:
        return render(asciidoc.to_markdown(text, slug), links, translated=True)
    except Exception:  # a document the translation trips on must not stop the build
        note = f"*{ADOC_FAILED}*\n\n"
        return render(note + asciidoc.fence(text.strip("\n"), "asciidoc"), links)


def _without_title(tokens: list[Token]) -> list[Token]:
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1":
            return tokens[:index] + tokens[index + 3 :]
    return tokens


def _anchor_headings(tokens: Sequence[Token]) -> list[tuple[int, str, str]]:
    seen: dict[str, int] = {}
    toc = []
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        anchor = slug(inline.content)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        anchor = anchor if count == 0 else f"{anchor}-{count}"
        token.attrSet("id", anchor)
        if token.tag in ("h2", "h3"):
            toc.append((int(token.tag[1]), anchor, _plain(inline)))
    return toc


def _plain(inline: Token) -> str:
    """A heading's text as the reader sees it (no markup, no escapes)."""
    parts = [c.content for c in inline.children or () if c.type in ("text", "code_inline")]
    return "".join(parts) if parts else inline.content


def _rewrite(children: list[Token], links: LinkContext, translated: bool = False) -> None:
    for index, token in enumerate(children):
        if token.type == "link_open":
            raw = str(token.attrGet("href") or "")
            anchor = _anchor_id(raw) if translated else None
            href = None if anchor is not None else _target(raw, links, translated)
            if href is None:
                token.type, token.tag = "span_open", "span"
                token.attrs = {"id": anchor} if anchor else {}
                _close_span(children, index)
            else:
                token.attrSet("href", href)
        elif token.type == "image":
            _image_as_link(token, links)


def _anchor_id(href: str) -> str | None:
    """The id of a translated document's anchor (``""``: one whose id is not valid), or None
    when ``href`` is no anchor."""
    scheme, _, name = href.partition(":")
    if scheme != asciidoc.ANCHOR:
        return None
    name = unquote(name)
    return name if asciidoc.ID.fullmatch(name) else ""


def _close_span(children: list[Token], start: int) -> None:
    depth = 0
    for token in children[start + 1 :]:
        if token.type == "link_open":
            depth += 1
        elif token.type == "link_close":
            if depth == 0:
                token.type, token.tag = "span_close", "span"
                return
            depth -= 1


def _image_as_link(token: Token, links: LinkContext) -> None:
    """An image would be fetched when the page opens: show its description as a link."""
    src = _target(str(token.attrGet("src") or ""), links)
    alt = token.content or "image"
    token.type = "html_inline"
    label = f"[image: {escape(alt)}]"
    token.content = label if src is None else f'<a href="{escape(src)}">{label}</a>'


def _target(href: str, links: LinkContext, translated: bool = False) -> str | None:
    """Where a link of the document goes on the site (None: it is dropped to text)."""
    parts = urlsplit(href)
    if translated and parts.scheme == asciidoc.RFD:
        return _rfd_page(parts.path, unquote(parts.fragment), links)
    if parts.scheme in ("http", "https", "mailto"):
        return href
    if parts.scheme or parts.netloc:
        return None  # javascript:, data:, protocol-relative …: never a link on the site
    if not parts.path:
        return href if parts.fragment else None  # an anchor of this page
    base = posixpath.dirname(links.path)
    path = posixpath.normpath(posixpath.join(base, parts.path)).lstrip("/")
    if path.startswith("../"):
        return None
    page = links.pages.get(path)
    if page is not None:
        return page + (f"#{parts.fragment}" if parts.fragment else "")
    return links.blob(path)


def _rfd_page(number: str, entry: str, links: LinkContext) -> str | None:
    """RFD ``number``'s page; the bibliography entry ``entry`` of this page when the corpus
    has no such RFD; None (the reference is its text) when there is neither."""
    page = links.numbers.get(int(number)) if number.isdigit() and number.isascii() else None
    if page is not None:
        return page
    return f"#{entry}" if entry and asciidoc.ID.fullmatch(entry) else None


PARALLEL_FROM = 400
"""Documents to render before a pool of processes pays for its start-up."""
CHUNK = 100

_pages: Mapping[str, str] = {}
_blob_base = ""
_numbers: Mapping[int, str] = {}


def key(digest: str, path: str, text: str) -> str:
    return hashlib.sha1(f"{digest}\0{path}\0{text}".encode()).hexdigest()


def digest(pages: Mapping[str, str], blob_base: str) -> str:
    """What every body's links depend on: the RFD paths and where other files link to."""
    return key(f"{blob_base}\0asciidoc {asciidoc.VERSION}", "", "\n".join(sorted(pages)))


def render_all(
    docs: Sequence[tuple[str, str]],
    pages: Mapping[str, str],
    blob_base: str,
    cache: Path,
    numbers: Mapping[int, str] | None = None,
) -> dict[str, Rendered]:
    """``{path: Rendered}`` for ``(path, text)`` pairs, reusing and refreshing ``cache``;
    ``numbers``: each published RFD's page by its number (they follow from the paths)."""
    common = digest(pages, blob_base)
    keys = {path: key(common, path, text) for path, text in docs}
    known = _load(cache)
    todo = [(path, text) for path, text in docs if keys[path] not in known]
    rendered = _render(todo, pages, blob_base, numbers or {})
    for (path, _), done in zip(todo, rendered, strict=True):
        known[keys[path]] = done
    _save(cache, {keys[p]: known[keys[p]] for p, _ in docs})
    return {path: known[keys[path]] for path, _ in docs}


def _render(
    todo: Sequence[tuple[str, str]],
    pages: Mapping[str, str],
    blob_base: str,
    numbers: Mapping[int, str],
) -> list[Rendered]:
    workers = min(4, os.cpu_count() or 1)
    shared = (pages, blob_base, numbers)
    if len(todo) < PARALLEL_FROM or workers < 2:
        _setup(*shared)
        return [_one(doc) for doc in todo]
    with ProcessPoolExecutor(workers, initializer=_setup, initargs=shared) as pool:
        return list(pool.map(_one, todo, chunksize=CHUNK))


def _setup(pages: Mapping[str, str], blob_base: str, numbers: Mapping[int, str]) -> None:
    global _pages, _blob_base, _numbers
    _pages, _blob_base, _numbers = pages, blob_base, numbers


def _one(doc: tuple[str, str]) -> Rendered:
    path, text = doc
    return render_document(path, text, LinkContext(path, _pages, blob(_blob_base), _numbers))


def blob(base: str) -> Callable[[str], str | None]:
    """A repository file → its URL under ``base`` (no link when there is no base)."""
    return (lambda path: f"{base}{path}") if base else (lambda path: None)


def _load(cache: Path) -> dict[str, Rendered]:
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
        return {k: Rendered(html, tuple(tuple(t) for t in toc)) for k, (html, toc) in data.items()}
    except (OSError, ValueError, TypeError):
        return {}


def _save(cache: Path, bodies: Mapping[str, Rendered]) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    data = {k: [r.html, [list(t) for t in r.toc]] for k, r in bodies.items()}
    cache.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
