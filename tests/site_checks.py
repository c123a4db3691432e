"""What a reader of any built site must find, shared by the site's tests of every corpus:
each link resolves inside the site (or to the repository on GitHub), back-links and the
graph are the headers' links, ``rfds.json`` validates against its schema."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema

from bot.site import catalog


class Links(HTMLParser):
    """Every ``href``/``src`` of a page, and every ``id``."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append((name, value))
            if name == "id" and value:
                self.ids.add(value)


INERT_TAGS = {"a", "p", "h2", "h3", "h4", "h5", "h6", "em", "strong", "code", "pre", "span"}
INERT_TAGS |= {"ul", "ol", "li", "blockquote", "table", "thead", "tbody", "tr", "th", "td"}
INERT_TAGS |= {"br", "hr", "s"}


class _Tags(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def active(html: str) -> list[str]:
    """What in ``html`` a browser would run or fetch: a tag that is not plain text markup,
    an event handler or style, a link that is not http(s), mailto, relative or an anchor."""
    parser = _Tags()
    parser.feed(html)
    bad = []
    for tag, attrs in parser.found:
        if tag not in INERT_TAGS:
            bad.append(f"<{tag}>")
        for name, value in attrs:
            if name not in ("href", "id", "class", "tabindex"):
                bad.append(f"<{tag} {name}>")
            scheme = re.match(r"\s*([a-z][\w+.-]*):", value or "", re.IGNORECASE)
            if name == "href" and scheme and scheme[1].lower() not in ("http", "https", "mailto"):
                bad.append(f"<{tag} href={value}>")
    return bad


def parsed(page: Path) -> Links:
    found = Links()
    found.feed(page.read_text(encoding="utf-8"))
    return found


def rfds_json(site: Path) -> dict[str, dict[str, object]]:
    data = json.loads((site / "rfds.json").read_text(encoding="utf-8"))
    return {r["id"]: r for r in data["rfds"]}


def html_pages(site: Path) -> list[Path]:
    return [p for p in sorted(site.glob("**/*.html")) if "_pagefind" not in p.parts]


def assert_links_resolve(site: Path, github: str | None) -> None:
    """Every link on every page names a file of the site (and an anchor that page has), or a
    page of the repository on GitHub (``github``; None: no link leaves the site), never
    anything fetched from elsewhere."""
    for page in html_pages(site):
        for attr, value in parsed(page).links:
            parts = urlsplit(value)
            if parts.scheme:
                assert attr == "href", f"{page}: {value} would be fetched from elsewhere"
                assert github and value.startswith(github), f"{page}: {value}"
                continue
            target = (page.parent / parts.path).resolve() if parts.path else page
            assert target.is_file(), f"{page.relative_to(site)}: {value} resolves to nothing"
            if parts.fragment and target.suffix == ".html":
                assert parts.fragment in parsed(target).ids, f"{page}: no #{parts.fragment}"


def header_links(rfds: dict[str, dict[str, object]]) -> set[tuple[str, str, str]]:
    """``(kind, source, target)`` for each header link between two RFDs of the site."""
    return {
        (kind, rid, target)
        for rid, r in rfds.items()
        for kind, targets in r["links"].items()  # type: ignore[attr-defined]
        for target in targets
        if target in rfds
    }


def assert_back_links_match_headers(site: Path) -> set[tuple[str, str, str]]:
    """Each RFD's back-links are exactly the header links other RFDs point at it; those links."""
    rfds = rfds_json(site)
    back = {
        (
            kind.replace("_by", "")
            .replace("required", "requires")
            .replace("extended", "extends")
            .replace("superseded", "supersedes"),
            source,
            rid,
        )
        for rid, r in rfds.items()
        for kind, sources in r["back_links"].items()  # type: ignore[attr-defined]
        for source in sources
    }
    links = header_links(rfds)
    assert back == links
    return links


def assert_graph_matches_headers(site: Path) -> set[tuple[str, str, str]]:
    """The graph draws every header link and no other, each end coloured by its stage."""
    rfds = rfds_json(site)
    page = (site / "graph.html").read_text(encoding="utf-8")
    drawn = set(re.findall(r'<path class="edge (\w+)"[^>]*><title>(\w+) \w+ (\w+)</title>', page))
    assert drawn == {(k, s, t) for k, s, t in header_links(rfds) if s != t}
    for rid in {t for _, _, t in drawn} | {s for _, s, _ in drawn}:
        status = str(rfds[rid]["status"]).lower()
        assert re.search(rf'<a href="rfd/{rid}.html" class="node">.*?class="st-{status}"', page)
    return drawn


def assert_rfds_json_valid(site: Path) -> Any:
    """``rfds.json`` against the schema the site publishes beside it; the document."""
    data = json.loads((site / "rfds.json").read_text(encoding="utf-8"))
    schema = json.loads((site / catalog.SCHEMA).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)
    return data
