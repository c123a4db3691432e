"""The markdown the bot writes for GitHub: text it did not write made safe to interpolate,
the anchors GitHub gives a file's headings so a link can open a section, and the link to
an RFD's page on the published site.

RFD titles and file names, phase titles, PR data, comments, error messages and
model output all end up inside comments and issues the bot writes.  Whatever
they hold, they must read as text there: never a hidden ``<!-- rfd-bot:… -->``
marker or checklist boundary (the bot trusts its markers), never raw HTML or an
image, never a mention that pings a person or a team, never a live link (``[text](url)``,
an autolink, a bare URL GitHub would link) and never an entity (``&#64;``) that
turns into one of these once GitHub decodes it.

- :func:`inline` — text inside one line: also no line breaks.
- :func:`link_text` — text of a link the bot makes: no bracket ends it early.
- :func:`cell` — text inside a table cell: no line breaks and no cell breaks either.
- :func:`block` — model output shown as a block: markdown formatting stays, an
  unclosed code fence is closed so the bot's own lines after it stay outside.
- :func:`fenced` — text shown verbatim in a code block that it cannot close.
- :func:`one_line` — plain text on one line (an issue title).

A zero-width space (U+200B) breaks each construct where it starts: the text looks
the same to a reader and in code, but ``<​!--``, ``<​img``, ``@​user``,
``]​(url)``, ``&​#64;`` and ``https:​//`` are not markup to GitHub.  This is
the one place that decides what untrusted text may not become: every post the bot writes
(status comment, tracking issue, replies) interpolates such text through these functions.
Pure functions.

Heading anchors: GitHub shows ``## Design`` at ``…/blob/<sha>/<path>#design``: the
heading's text as rendered (inline markup gone), lower-cased, every character that is not
a letter, a mark, a digit, ``_``, ``-`` or a space dropped, each space a ``-``; a repeated heading
gets ``-1``, ``-2``… (the rules of ``github-slugger``, which GitHub's renderer follows).
Pure: markdown text in, ``{heading text: anchor}`` out.

The site link: an RFD's page on the published RFD site (``[site] url``), for the texts
that link to it (the status comment, the tracking issue).  Only an http(s) address with no
space or markdown punctuation is used: the address comes from the configuration and must
not become markdown structure.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

from bot.core.sanitize import INVISIBLE

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

BREAK = "\u200b"
_LINE_BREAKS = re.compile(r"\r\n|[\r\n\v\f\x85\u2028\u2029]")
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")
_SPACES = re.compile(r"[ \t]+")
_MARKUP = re.compile(
    r"""
      (?<=<)(?=[A-Za-z/!?])        # an HTML tag, comment (marker), declaration or autolink
    | (?<=@)(?=[A-Za-z0-9])        # a mention: @user, @org/team
    | (?<=!)(?=\[)                 # an image: ![alt](url)
    | (?<=&)(?=\#?[A-Za-z0-9]+;)  # an entity: &#64; (an @), &lt;, &commat;
    """,
    re.VERBOSE,
)
_LINKS = re.compile(
    r"""
      (?<=\])(?=[(\[:])           # a link: [text](url), [text][ref], [ref]: url
    | (?<=[A-Za-z]:)(?=//)        # a bare URL GitHub links by itself: https://…
    | (?<=[Ww]{3})(?=\.)          # www.example.com, linked by itself too
    """,
    re.VERBOSE,
)
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_CELL_BREAK = re.compile(r"(\\*)\|")  # backslashes before a pipe would unescape ours
_BACKTICKS = re.compile(r"`+")


def _visible(text: str) -> str:
    """Without control and invisible characters (bidi overrides, zero-width…)."""
    return _CONTROLS.sub("", INVISIBLE.sub("", text))


def _defused(text: str) -> str:
    return _MARKUP.sub(BREAK, text)


def _unlinked(text: str) -> str:
    """No link either: RFD text inside the bot's own line links nowhere (its words could
    say anything about where the link goes).  Code spans link nothing and stay as they are,
    so a line the bot asks to copy copies right."""
    text, spans, at = _defused(text), [], 0
    for span in _CODE_SPAN.finditer(text):
        spans += [_LINKS.sub(BREAK, text[at : span.start()]), span.group()]
        at = span.end()
    return "".join([*spans, _LINKS.sub(BREAK, text[at:])])


def one_line(text: str) -> str:
    """Plain text on one line: line and paragraph separators become spaces."""
    joined = _LINE_BREAKS.sub(" ", _visible(text)).replace("\t", " ")
    return _SPACES.sub(" ", joined).strip()


def inline(text: str) -> str:
    """``text`` for a place inside one line of the bot's text (not a table: see :func:`cell`)."""
    return _unlinked(one_line(text))


def code(text: str) -> str:
    """``text`` as one code span of the bot's line: a fence longer than any run of backticks
    in it, so no backtick of ``text`` can end the span and let the rest be read as markdown."""
    flat = one_line(text)
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def link_text(text: str) -> str:
    """``text`` as the text of a link the bot makes (``[text](url)``): brackets cannot end it."""
    return inline(text).replace("[", "\\[").replace("]", "\\]")


def cell(text: str) -> str:
    """``text`` for a markdown table cell: a ``|`` in it stays a ``|``, never a new cell."""
    return _CELL_BREAK.sub(lambda m: m.group(1) * 2 + "\\|", inline(text))


def block(text: str) -> str:
    """Model output (a review) as a block of the bot's post: its markdown, defused.

    HTML comments standing as blocks are dropped (a reader never saw them); any other
    ``<!--`` is defused and shows as the text it is.
    """
    lines = _LINE_BREAKS.sub("\n", _visible(text)).strip("\n")
    return closed(_defused(_without_comment_blocks(lines)))


def fenced(text: str, info: str = "") -> str:
    """``text`` as a fenced code block that nothing inside it can close."""
    body = _LINE_BREAKS.sub("\n", _visible(text)).strip("\n")
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{one_line(info)}\n{_defused(body)}\n{fence}"


def _without_comment_blocks(text: str) -> str:
    lines = text.split("\n")
    hidden = {
        n
        for token in _parser().parse(text)
        if token.type == "html_block" and token.map and token.content.lstrip().startswith("<!--")
        for n in range(*token.map)
    }
    return "\n".join(line for n, line in enumerate(lines) if n not in hidden).strip("\n")


def closed(text: str) -> str:
    """``text`` with a code fence it leaves open at its end closed."""
    tokens = _parser().parse(text)
    lines = text.split("\n")
    for token in reversed(tokens):
        if token.type == "fence" and token.level == 0 and token.map is not None:
            last = lines[token.map[1] - 1].strip() if token.map[1] - 1 > token.map[0] else ""
            fence = token.markup
            closed = last.startswith(fence) and not last.strip(fence[0])
            return text if closed else f"{text}\n{fence}"
    return text


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
"""``3. Design`` or ``2.1 Goals``: a numbered heading, found by its name too."""


def slug(text: str) -> str:
    """GitHub's anchor of a heading whose rendered text is ``text`` (without a suffix)."""
    kept = (c for c in text.strip().lower() if c in " -_" or _word_char(c))
    return "".join(kept).replace(" ", "-")


def _word_char(char: str) -> bool:
    return unicodedata.category(char)[0] in "LMN" or unicodedata.category(char) == "Pc"


def headings(text: str) -> list[str]:
    """The rendered text of every heading of ``text``, in order (ATX and setext)."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    found = []
    for opened, inline in pairwise(tokens):
        if opened.type == "heading_open" and inline.children is not None:
            found.append(
                "".join(t.content for t in inline.children if t.type in ("text", "code_inline"))
            )
    return found


def listed(text: str) -> list[tuple[str, str]]:
    """Each heading of ``text`` and its anchor, in order (a repeat numbered as GitHub does)."""
    occurrences: dict[str, int] = {}
    out = []
    for heading in headings(text):
        anchor = base = slug(heading)
        while anchor in occurrences:  # github-slugger: "a", "a-1", "a-2"…, never one twice
            occurrences[base] += 1
            anchor = f"{base}-{occurrences[base]}"
        occurrences[anchor] = 0
        out.append((heading, anchor))
    return out


def anchors(text: str) -> dict[str, str]:
    """Each heading of ``text`` (lower-cased; a numbered one also by its bare name) and the
    anchor GitHub gives it; a repeated heading keeps its first anchor."""
    out: dict[str, str] = {}
    for heading, anchor in listed(text):
        for name in (heading.strip().lower(), _NUMBERED.sub("", heading.strip()).lower()):
            out.setdefault(name, anchor)
    return out


_URL = re.compile(r"https?://[^\s()<>\[\]\"'`]+")


def page_url(site_url: str, rfd_id: object) -> str:
    """``https://acme.github.io/jp/rfd/045.html``; empty without a usable site address."""
    base = site_url.strip()
    if not _URL.fullmatch(base):
        return ""
    return f"{base.rstrip('/')}/rfd/{rfd_id}.html"
