"""``rfd site`` on a realistic corpus (:mod:`tests.site_repo`): what a reader of the site sees."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from bot.cli.main import main
from bot.config import discovery
from bot.config.load import load_config
from bot.site import catalog
from bot.site.build import build_site
from bot.site.search import executable
from tests.site_checks import (
    assert_back_links_match_headers,
    assert_graph_matches_headers,
    assert_links_resolve,
    assert_rfds_json_valid,
    html_pages,
    rfds_json,
)
from tests.site_repo import RARE_SECTION, build_site_repo

REPOSITORY = "acme-labs/jp"
GITHUB = f"https://github.com/{REPOSITORY}/"
ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site_repo(tmp_path_factory.mktemp("site") / "jp")


@pytest.fixture(scope="module")
def site(repo: Path) -> Path:
    out = repo.parent / "out"
    build_site(repo, out, repository=REPOSITORY)
    return out


def test_every_rfd_has_a_page_with_its_title_and_status(repo: Path, site: Path) -> None:
    docs, _ = discovery.load_all(repo, load_config(repo))
    assert len(docs) == 39  # the adopter's 38, and the one promoted from a new draft
    for doc in docs:
        page = (site / "rfd" / f"{doc.rfd_id}.html").read_text(encoding="utf-8")
        assert f"RFD {doc.rfd_id}</span> {doc.title}" in page
        assert f'class="pill st-{doc.status.value.lower()}">{doc.status.value}<' in page
    assert not (site / "rfd" / "D60.html").exists()  # promoted: its page is 032's


def test_every_link_on_every_page_resolves_inside_the_site(site: Path) -> None:
    assert len(html_pages(site)) > 40
    assert_links_resolve(site, GITHUB)


def test_an_rfd_page_shows_where_it_stands(site: Path) -> None:
    page = (site / "rfd/032.html").read_text(encoding="utf-8")
    assert f'<a href="{GITHUB}pull/412">PR #412</a>' in page
    assert "@ana signed off" in page
    assert "@ben — waiting" in page
    assert "concern 1 by @ben — open: the outbox grows without bound" in page
    assert "Latest review" in page and "design review" in page
    assert "Newline-delimited JSON, one object per row" in page
    assert "Retry budget per tenant" in page  # under discussion
    assert '<a href="010.html" title="Streaming Markdown Renderer">RFD 010</a>' in page
    tracked = (site / "rfd/020.html").read_text(encoding="utf-8")
    assert f'<a href="{GITHUB}issues/266">#266</a>' in tracked
    assert f'<a href="{GITHUB}pull/301">PR #301</a>' in tracked  # named by phase 1's summary
    assert tracked.count('class="box done"') == 2
    assert "2 of 9 phases done" in tracked


def test_the_document_is_rendered_with_its_links_rewritten(site: Path) -> None:
    page = (site / "rfd/032.html").read_text(encoding="utf-8")
    assert '<a href="020.html#design">pipeline overview</a>' in page
    assert '<a href="020.html">RFD 020</a>' in page  # a reference-style link to the file
    assert '<span class="k">async</span>' in page or '<span class="kn">' in page  # highlighted
    assert "<table>" in page and "<th>Owner</th>" in page
    assert f'<h3 id="{RARE_SECTION}">Backpressure</h3>' in page
    assert "- **Status**" not in page  # the header is shown as facts, not as a list


def test_back_links_are_computed_from_the_other_rfds(site: Path, repo: Path) -> None:
    assert ("extends", "032", "020") in assert_back_links_match_headers(site)
    assert rfds_json(site)["020"]["back_links"]["extended_by"] == ["032"]  # type: ignore[index]
    page = (site / "rfd/010.html").read_text(encoding="utf-8")
    assert 'Required by: <a href="032.html"' in page


def test_the_graph_draws_every_header_link_coloured_by_status(site: Path) -> None:
    assert ("extends", "032", "020") in assert_graph_matches_headers(site)
    around = (site / "rfd/032.html").read_text(encoding="utf-8")
    assert '<a href="032.html" class="node focus">' in around


def test_rfds_json_validates_against_its_schema(site: Path) -> None:
    rfd = {r["id"]: r for r in assert_rfds_json_valid(site)["rfds"]}["032"]
    assert rfd["consensus"] == {
        "approved_by": ["ana"],
        "waiting_for": ["ben"],
        "open_concerns": [{"number": 1, "author": "ben", "text": "the outbox grows without bound"}],
    }
    assert rfd["labels"] == ["exports", "performance"]
    assert rfd["review"]["verdict"] == "no major findings"


def test_a_broken_rfds_json_fails_the_schema(site: Path) -> None:
    data = json.loads((site / "rfds.json").read_text(encoding="utf-8"))
    schema = json.loads(catalog.schema_text())
    data["rfds"][0]["status"] = "Pending"
    with pytest.raises(jsonschema.ValidationError, match="Pending"):
        jsonschema.validate(data, schema)


def test_the_feed_is_atom_with_the_changes_newest_first(site: Path) -> None:
    feed = ET.parse(site / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert len(feed.findall(f"{ATOM}{name}")) == 1
    entries = feed.findall(f"{ATOM}entry")
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids)
    stamps = [e.findtext(f"{ATOM}updated") or "" for e in entries]
    assert stamps == sorted(stamps, reverse=True)
    for entry, stamp in zip(entries, stamps, strict=True):
        assert RFC3339.fullmatch(stamp), stamp
        assert entry.find(f"{ATOM}author/{ATOM}name") is not None
        link = entry.find(f"{ATOM}link")
        assert link is not None and (site / link.get("href", "")).is_file()
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert titles[0] == "RFD D23 Draft → Abandoned: Offline Mode"
    for wanted in (
        "RFD 032 Draft → Discussion: Streaming Exports",
        "New: RFD 032: Streaming Exports",
        "RFD 020 phase 2 done: Query Pipeline Rewrite",
        "RFD 020 phase 1 done: Query Pipeline Rewrite",
        "RFD 020 has a plan: Query Pipeline Rewrite",
    ):
        assert wanted in titles
    assert not any("D60" in str(t) for t in titles)


def test_the_search_index_is_built(site: Path) -> None:
    if executable() is None:
        pytest.skip("Pagefind is not installed (pip install 'rfd-bot[site]')")
    assert (site / "_pagefind/pagefind.js").is_file()
    assert (site / "_pagefind/pagefind-ui.js").is_file()
    page = (site / "rfd/032.html").read_text(encoding="utf-8")
    assert "<article data-pagefind-body" in page


def test_a_rebuild_writes_only_what_changed(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = build_site(repo, out, search_index=False)
    assert first.written == first.files
    again = build_site(repo, out, search_index=False)
    assert again.written == 0
    path = repo / "docs/rfd/014-tokio-runtime.md"
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(original.replace("## ", "## Changed: ", 1), encoding="utf-8")
        third = build_site(repo, out, search_index=False)
        assert 1 <= third.written <= 2  # its page (and nothing else: no title or status changed)
        assert "Changed: " in (out / "rfd/014.html").read_text(encoding="utf-8")
        phase = repo / "docs/rfd/.state/020/phases/3a.md"
        phase.write_text("Anthropic send stage done.\n", encoding="utf-8")
        try:
            build_site(repo, out, search_index=False)
            page = (out / "rfd/020.html").read_text(encoding="utf-8")
            assert "3 of 9 phases done" in page  # a state file changed: read again
        finally:
            phase.unlink()
        path.unlink()
        fourth = build_site(repo, out, search_index=False)
        assert fourth.removed == 1 and not (out / "rfd/014.html").exists()
    finally:
        path.write_text(original, encoding="utf-8")


def test_a_directory_that_is_no_site_is_refused(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert main(["-C", str(repo), "site", "--out", str(out), "--no-search"]) == 1
    assert (out / "notes.txt").read_text() == "keep me"
    assert not (out / "index.html").exists()


def test_rfd_site_reports_what_it_built(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    assert main(["-C", str(repo), "site", "--out", str(out), "--no-search", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rfds"] == 39 and data["search"] is False and data["written"] == data["files"]
    assert (out / "index.html").is_file()


def test_a_second_read_comes_from_the_cache_and_equals_the_first(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.site import corpus

    cache = tmp_path / "read.json"
    first = corpus.read_corpus(repo, cache=cache)
    read_again: list[str] = []
    real = corpus.discovery.read

    def counted(root: Path, file: discovery.RfdFile) -> object:
        read_again.append(file.path)
        return real(root, file)

    monkeypatch.setattr(corpus.discovery, "read", counted)
    assert corpus.read_corpus(repo, cache=cache) == first
    assert len(read_again) == len(first.problems)  # only the files that do not parse
