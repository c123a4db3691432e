"""An RFD's markdown as the HTML of its page (pure).

CommonMark with tables and strikethrough (markdown-it-py), raw HTML escaped (RFD text is
untrusted), code highlighted by Pygments, every heading given an ``id`` (search results and
the table of contents land on it), and links rewritten: a link to another RFD's file goes to
that RFD's page, a link to any other file of the repository to GitHub (or is dropped to plain
text when the repository is not known), and an image is a link, never a request leaving the
site.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

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


def render(text: str, links: LinkContext, *, skip_title: bool = True) -> Rendered:
    """The HTML of ``text`` (its ``#`` title left out when ``skip_title``: the page shows it)."""
    env: dict[str, Any] = {}
    tokens = _MD.parse(text, env)
    if skip_title:
        tokens = _without_title(tokens)
    toc = _anchor_headings(tokens)
    for token in tokens:
        if token.type == "inline" and token.children:
            _rewrite(token.children, links)
    return Rendered(_MD.renderer.render(tokens, _MD.options, env), tuple(toc))


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
        title = tokens[index + 1].content
        anchor = slug(title)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        anchor = anchor if count == 0 else f"{anchor}-{count}"
        token.attrSet("id", anchor)
        if token.tag in ("h2", "h3"):
            toc.append((int(token.tag[1]), anchor, title))
    return toc


def _rewrite(children: list[Token], links: LinkContext) -> None:
    for index, token in enumerate(children):
        if token.type == "link_open":
            href = _target(str(token.attrGet("href") or ""), links)
            if href is None:
                token.type, token.tag = "span_open", "span"
                token.attrs = {}
                _close_span(children, index)
            else:
                token.attrSet("href", href)
        elif token.type == "image":
            _image_as_link(token, links)


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


def _target(href: str, links: LinkContext) -> str | None:
    """Where a link of the document goes on the site (None: it is dropped to text)."""
    parts = urlsplit(href)
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
