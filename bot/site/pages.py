"""The site's files as text, from the corpus, its graph and its history (pure).

:func:`render_site` returns ``{relative path: content}``; :mod:`bot.site.build` writes them.
Pages come from the jinja2 templates in ``templates/`` (autoescaped: RFD text is untrusted).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, Template, select_autoescape
from markupsafe import Markup

from bot.core.errors import ValidationError
from bot.model.ids import RfdId
from bot.site import board, catalog, feed
from bot.site.graph import Graph, canonical, draw, key
from bot.site.history import History
from bot.site.markdown import LinkContext, Rendered, render_document
from bot.site.records import LINK_KINDS, Corpus, SiteRfd

LIFECYCLE = ("Draft", "Discussion", "Accepted", "Implemented")
BACK_ORDER = ("required by", "extended by", "superseded by")


@cache
def template(name: str) -> Template:
    return environment().get_template(name)


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("bot.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["author_name"] = board.name
    return env


def page_of(rid: str) -> str:
    """An RFD's page, relative to the site root."""
    return f"rfd/{rid}.html"


def board_page(number: int) -> str:
    return "index.html" if number == 1 else f"board/{number}.html"


class Site:
    """Everything the pages share: the corpus, its graph and history, and the common context."""

    def __init__(self, corpus: Corpus, graph: Graph, history: History, title: str) -> None:
        self.corpus, self.graph, self.history, self.title = corpus, graph, history, title
        self.status = {r.id: r.status for r in corpus.rfds}
        self.titles = {r.id: r.title for r in corpus.rfds}
        self.by_path = {r.path: r.id for r in corpus.rfds}
        self.gh = f"https://github.com/{corpus.repository}" if corpus.repository else ""
        self.canonical = canonical(self.titles)
        self.order = {r.id: n for n, r in enumerate(corpus.rfds)}
        self.search = True
        self.pages = {path: f"{rid}.html" for path, rid in self.by_path.items()}
        numbered = ((_number(rid), rid) for rid in self.titles)
        self.numbers = {n: f"{rid}.html" for n, rid in numbered if n is not None}
        """A published RFD's number → its page (an AsciiDoc RFD's ``<<rfd48>>`` goes there)."""

    def common(self, root: str, nav: str) -> dict[str, Any]:
        return {
            "site_title": self.title,
            "root": root,
            "nav": nav,
            "count": len(self.corpus.rfds),
            "search": self.search,
        }

    @property
    def blob_base(self) -> str:
        return f"{self.gh}/blob/HEAD/" if self.gh else ""

    def blob(self, path: str) -> str | None:
        return f"{self.blob_base}{path}" if self.gh else None

    def updated(self, rid: str) -> str | None:
        found = self.history.updated.get(rid)
        return found[:10] if found else None


def _number(rid: str) -> int | None:
    """A published RFD's number (None: a draft's id, or one that is no number)."""
    try:
        parsed = RfdId.parse(rid)
    except ValidationError:
        return None
    return None if parsed.draft else parsed.number


def render_site(
    site: Site, bodies: Callable[[SiteRfd], Rendered] | None = None
) -> Iterator[tuple[str, str]]:
    """Every file of the site but the search index, as ``(path, text)``."""
    rendered = bodies or (lambda r: rfd_body(site, r))
    for rfd in site.corpus.rfds:
        yield page_of(rfd.id), rfd_page(site, rfd, rendered(rfd))
    yield from board_pages(site)
    yield "graph.html", graph_page(site)
    yield (
        "feed.xml",
        feed.render(
            site.history.changes,
            site.titles,
            page_of,
            site_title=site.title,
            base=site.corpus.site_url,
        ),
    )
    document = catalog.document(site.corpus, site.graph, site.history.updated, page_of)
    yield "rfds.json", json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    yield catalog.SCHEMA, catalog.schema_text()


def rfd_body(site: Site, rfd: SiteRfd) -> Rendered:
    links = LinkContext(rfd.path, site.pages, site.blob, site.numbers)
    return render_document(rfd.path, rfd.text, links)


def rfd_page(site: Site, rfd: SiteRfd, body: Rendered) -> str:
    links = [(k, rfd.links(k)) for k in LINK_KINDS if rfd.links(k)]
    back = site.graph.back_links(rfd.id)
    links += [(k, back[k]) for k in BACK_ORDER if k in back]
    passed = LIFECYCLE[: LIFECYCLE.index(rfd.status)] if rfd.status in LIFECYCLE else ()
    return template("rfd.html.j2").render(
        **site.common("../", "rfd"),
        r=rfd,
        body=Markup(body.html),
        toc=body.toc,
        links=[(k, tuple(_canonical(site, i) for i in ids)) for k, ids in links],
        titles=site.titles,
        lifecycle=LIFECYCLE,
        named=stage_words(rfd.word),
        passed=passed,
        updated=site.updated(rfd.id),
        blob=site.blob(rfd.path),
        files=[(path, site.blob(path)) for path in rfd.files],
        gh=site.gh,
        fcp=_day(rfd.fcp_end),
        review_date=_day(rfd.review.stamp) if rfd.review else None,
        around=Markup(around(site, rfd.id)),
    )


def stage_words(word: str) -> dict[str, str]:
    """Each stage of :data:`LIFECYCLE` in the vocabulary of the RFD's status ``word``
    (``prediscussion → discussion → published → committed`` for Oxide), rfd's own names
    for rfd's own words."""
    from bot.model.status import Status, word_for

    if not word or word in {s.value for s in Status}:  # `Discussion`, not Oxide's `discussion`
        return {s: s for s in LIFECYCLE}

    return {s: word_for(Status(s), word, lower=True) for s in LIFECYCLE}


def _canonical(site: Site, rid: str) -> str:
    """A linked id as its file name writes it (``45`` → ``045``), as written if no RFD has it."""
    return rid if rid in site.titles else site.canonical.get(key(rid), rid)


def _day(stamp: float | None) -> str | None:
    if not stamp:
        return None
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d")


def around(site: Site, rid: str) -> str:
    """The graph one link around ``rid`` (empty when it links to nothing and nothing to it)."""
    near = site.graph.around(rid)
    if len(near) < 2:
        return ""
    nodes = sorted(near)
    edges = [e for n in nodes for e in site.graph.outgoing.get(n, ()) if e.target in near]
    return draw(
        nodes,
        edges,
        site.status,
        lambda n: f"{n}.html",
        focus=rid,
        title=lambda n: _tip(site, n),
        caption=lambda n: site.titles.get(n, ""),
        label=f"RFDs linked to RFD {rid}",
    )


def _tip(site: Site, rid: str) -> str:
    return f"RFD {rid}: {site.titles.get(rid, '')} ({site.status.get(rid, '')})"


def graph_page(site: Site) -> str:
    ends = {e.source for e in site.graph.edges} | {e.target for e in site.graph.edges}
    linked = sorted(ends, key=lambda n: site.order.get(n, 0))
    picture = draw(
        linked,
        list(site.graph.edges),
        site.status,
        page_of,
        title=lambda n: _tip(site, n),
        caption=lambda n: site.titles.get(n, ""),
        label="Dependency graph of every RFD",
    )
    return template("graph.html.j2").render(
        **site.common("", "graph"),
        svg=Markup(picture),
        edges=site.graph.edges,
        dangling=site.graph.dangling,
        linked=len(linked),
        statuses=[s for s in board.ORDER if s in site.status.values()],
    )


def board_pages(site: Site) -> Iterator[tuple[str, str]]:
    rfds = site.corpus.rfds
    rows = [board.row(r, site.history.updated.get(r.id)) for r in rfds]
    yield (
        "board.json",
        json.dumps(
            {"rows": rows, "page_size": board.PAGE_SIZE}, ensure_ascii=False, separators=(",", ":")
        ),
    )
    pages = max(1, math.ceil(len(rows) / board.PAGE_SIZE))
    shared = {
        "counts": board.counts(rfds),
        "waiting": board.waiting(rfds, site.status),
        **board.choices(rfds),
        "total": len(rows),
        "pages": pages,
        "problems": site.corpus.problems,
    }
    board_template = template("board.html.j2")
    for number in range(1, pages + 1):
        root = "" if number == 1 else "../"
        chunk = rows[(number - 1) * board.PAGE_SIZE : number * board.PAGE_SIZE]
        yield (
            board_page(number),
            board_template.render(
                **site.common(root, "board"),
                **shared,
                rows=chunk,
                page=number,
                page_href=lambda n, root=root: root + board_page(n),
            ),
        )
