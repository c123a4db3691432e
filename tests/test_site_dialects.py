"""``rfd site`` on a corpus of each dialect (:mod:`tests.dialect_corpora`: Oxide and Joyent, a
directory per RFD with YAML front matter or AsciiDoc attributes; RFC stages in ``text/``),
adopted with ``rfd init`` and nothing else: what a reader of the site sees."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple
from xml.etree import ElementTree as ET

import pytest

from bot.cli.main import main
from bot.site import asciidoc
from bot.site.build import build_site
from bot.site.markdown import ADOC_FAILED
from tests.conftest import git
from tests.dialect_corpora import (
    EXTRA_FILES,
    JOYENT_PATHS,
    OXIDE_ADOC,
    OXIDE_PATHS,
    RFC_PATHS,
    TOPICS,
    build_joyent,
    build_oxide,
    build_rfc,
    rfc_number,
)
from tests.site_checks import (
    active,
    assert_back_links_match_headers,
    assert_graph_matches_headers,
    assert_links_resolve,
    assert_rfds_json_valid,
    rfds_json,
)

REPOSITORY = "acme/rfd"
GITHUB = f"https://github.com/{REPOSITORY}/"
ATOM = "{http://www.w3.org/2005/Atom}"
STAGES = {"draft", "discussion", "accepted", "implemented", "abandoned", "superseded"}


class Expected(NamedTuple):
    number: int
    title: str
    states: tuple[str, ...]
    """The status words of its history, the one it has now last."""

    @property
    def word(self) -> str:
        return self.states[-1]


def _directory_rfds(paths: tuple[tuple[str, ...], ...]) -> list[Expected]:
    return [
        Expected(n, TOPICS[n - 1], paths[(n - 1) % len(paths)]) for n in range(1, len(TOPICS) + 1)
    ]


def _rfcs() -> list[Expected]:
    return [Expected(rfc_number(i), TOPICS[i], RFC_PATHS[i % len(RFC_PATHS)]) for i in range(30)]


LINKS = {
    "oxide": {
        "rfd/0006/README.md": ("state:", "requires: RFD 5, RFD 4\n"),
        "rfd/0007/README.md": ("state:", "extends:\n  - RFD 6\n"),
        "rfd/0001/README.adoc": (":state:", ":supersedes: RFD 2\n"),
    },
    "joyent": {"rfd/0009/README.md": ("state:", "requires: RFD 8\n")},
    "rfc": {},
}
"""Header links added to each corpus (before the line starting with the first string)."""

DIALECTS: dict[str, tuple[Callable[[Path], Path], list[Expected]]] = {
    "oxide": (build_oxide, _directory_rfds(OXIDE_PATHS)),
    "joyent": (build_joyent, _directory_rfds(JOYENT_PATHS)),
    "rfc": (build_rfc, _rfcs()),
}


@pytest.fixture(scope="module", params=list(DIALECTS))
def dialect(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def repo(dialect: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = DIALECTS[dialect][0](tmp_path_factory.mktemp(dialect) / "repo")
    assert main(["-C", str(root), "init"]) == 0
    for path, (before, line) in LINKS[dialect].items():
        file = root / path
        text = file.read_text(encoding="utf-8")
        file.write_text(text.replace(before, line + before, 1), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "rfd init, and a few header links")
    return root


@pytest.fixture(scope="module")
def site(repo: Path) -> Path:
    out = repo.parent / "out"
    build_site(repo, out, repository=REPOSITORY, search_index=False)
    return out


def page_ids(site: Path) -> dict[int, str]:
    """Each RFD's number → its id on the site (``0003``)."""
    return {int(rid): rid for rid in rfds_json(site)}


def test_every_rfd_has_a_page_with_its_own_status_word(dialect: str, site: Path) -> None:
    expected = DIALECTS[dialect][1]
    ids = page_ids(site)
    assert sorted(ids) == sorted(e.number for e in expected)
    assert len(list((site / "rfd").glob("*.html"))) == len(expected)  # no page for notes.md
    stages = {rid: str(r["status"]).lower() for rid, r in rfds_json(site).items()}
    for number, title, states in expected:
        word = states[-1]
        rid = ids[number]
        page = (site / "rfd" / f"{rid}.html").read_text(encoding="utf-8")
        heading = re.search(r'<h1 id="title">(.*?)</h1>', page)
        assert heading is not None, rid
        pill = rf'<span class="rid">RFD {rid}</span> {title} <span class="pill st-(\w+)"[^>]*>'
        found = re.fullmatch(pill + rf"{re.escape(word)}</span>", heading[1])
        assert found is not None, f"RFD {rid}: {heading[1]} (wanted {word!r})"
        assert found[1] == stages[rid] and found[1] in STAGES  # coloured by rfd's stage
    board = (site / "index.html").read_text(encoding="utf-8")
    for word in {e.word for e in expected}:
        assert re.search(rf'class="pill st-\w+"[^>]*>{re.escape(word)}</span></td>', board), word


@pytest.mark.parametrize("dialect", ["oxide"], indirect=True)
def test_the_colours_follow_the_stage_the_word_means(dialect: str, site: Path) -> None:
    words = {r["status_word"]: r["status"] for r in rfds_json(site).values()}
    assert words["published"] == "Accepted" and words["committed"] == "Implemented"
    assert words["prediscussion"] == "Draft" and words["abandoned"] == "Abandoned"
    page = (site / f"rfd/{page_ids(site)[4]}.html").read_text(encoding="utf-8")
    assert '<span class="pill st-accepted" title="Accepted">published</span>' in page


def test_every_link_on_every_page_resolves_inside_the_site(site: Path) -> None:
    assert_links_resolve(site, GITHUB)


def test_without_a_repository_no_link_leaves_the_site(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build_site(repo, out, search_index=False)
    assert_links_resolve(out, None)


def test_back_links_and_the_graph_match_the_headers(dialect: str, site: Path) -> None:
    links = assert_back_links_match_headers(site)
    assert assert_graph_matches_headers(site) == links
    ids = page_ids(site)
    wanted: set[tuple[str, str, str]] = set()  # the RFC corpus has no header links
    if dialect == "oxide":
        wanted = {
            ("requires", ids[6], ids[5]),
            ("requires", ids[6], ids[4]),
            ("extends", ids[7], ids[6]),
            ("supersedes", ids[1], ids[2]),
        }
    elif dialect == "joyent":
        wanted = {("requires", ids[9], ids[8])}
    assert links == wanted
    for kind, source, target in links:
        page = (site / f"rfd/{target}.html").read_text(encoding="utf-8")
        back = {"requires": "Required by", "extends": "Extended by"}.get(kind, "Superseded by")
        assert re.search(rf'{back}: <a href="{source}.html"', page), (kind, source, target)


def test_rfds_json_validates_against_its_schema(site: Path) -> None:
    data = assert_rfds_json_valid(site)
    assert all(r["status_word"] for r in data["rfds"])


@pytest.mark.parametrize("dialect", ["oxide", "joyent"], indirect=True)
def test_a_document_links_to_its_neighbours_page(dialect: str, site: Path) -> None:
    ids = page_ids(site)
    page = (site / f"rfd/{ids[5]}.html").read_text(encoding="utf-8")
    assert f'<a href="{ids[4]}.html">RFD 4</a>' in page  # ../0004/README.md, the page


@pytest.mark.parametrize("dialect", ["oxide"], indirect=True)
def test_asciidoc_documents_are_rendered_like_markdown_ones(dialect: str, site: Path) -> None:
    ids = page_ids(site)
    for number in OXIDE_ADOC:
        page = (site / f"rfd/{ids[number]}.html").read_text(encoding="utf-8")
        body = page[page.index('<div class="doc">') + 17 : page.index("</article>")]
        toc = page[page.index('<nav class="toc"') :].split("</nav>")[0]
        assert '<h2 id="background">Background</h2>' in body, number
        assert '<h3 id="sled-agent">Sled agent</h3>' in body
        assert '<a href="#determinations">Determinations</a>' in toc
        assert f"<p>Why {TOPICS[number - 1].lower()} matters.</p>" in body
        assert '<a href="#determinations">Determinations</a> and' in body  # <<_determinations>>
        assert '<span class="k">fn</span>' in body  # [source,rust], highlighted
        assert "<th>Component</th>" in body and "<td>Propolis</td>" in body
        assert "<strong>Warning:</strong>" in body
        assert f'<a href="{GITHUB}blob/HEAD/README.md">the index</a>' in body
        assert "Ada Lovelace" not in body and ":state:" not in body  # the header is not text
        assert active(body) == []
        if number > 4:
            assert f'<a href="{ids[number - 1]}.html">RFD {number - 1}</a>' in body


@pytest.mark.parametrize("dialect", ["oxide"], indirect=True)
def test_the_other_files_of_an_rfds_directory_are_listed(dialect: str, site: Path) -> None:
    ids = page_ids(site)
    for number, (name, _) in EXTRA_FILES.items():
        page = (site / f"rfd/{ids[number]}.html").read_text(encoding="utf-8")
        path = f"rfd/{number:04d}/{name}"
        assert f'<a href="{GITHUB}blob/HEAD/{path}"><code>{path}</code></a>' in page
    lone = (site / f"rfd/{ids[4]}.html").read_text(encoding="utf-8")
    assert "Also in its directory" not in lone


def test_the_feed_reports_each_move_in_the_repositorys_words(dialect: str, site: Path) -> None:
    ids = page_ids(site)
    moves = {
        f"RFD {ids[e.number]} {old} → {new}: {e.title}"
        for e in DIALECTS[dialect][1]
        for old, new in zip(e.states, e.states[1:], strict=False)
    }
    feed = ET.parse(site / "feed.xml").getroot()
    titles = [e.findtext(f"{ATOM}title") or "" for e in feed.findall(f"{ATOM}entry")]
    assert {t for t in titles if "→" in t} == moves
    assert {t for t in titles if t.startswith("New: ")} == {
        f"New: RFD {ids[e.number]}: {e.title}" for e in DIALECTS[dialect][1]
    }
    for e in DIALECTS[dialect][1]:  # each page says when its RFD last changed
        assert "<dt>Changed</dt>" in (site / f"rfd/{ids[e.number]}.html").read_text("utf-8")


@pytest.mark.parametrize("dialect", ["oxide"], indirect=True)
def test_a_rebuild_renders_again_only_the_asciidoc_documents_that_changed(
    dialect: str, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = shutil.copytree(repo, tmp_path / "repo")
    out = tmp_path / "out"
    build_site(root, out, repository=REPOSITORY, search_index=False)

    def fails(text: str, slug: object) -> str:
        raise ValueError("translated again")

    monkeypatch.setattr(asciidoc, "to_markdown", fails)
    assert build_site(root, out, repository=REPOSITORY, search_index=False).written == 0
    changed = root / "rfd/0008/README.adoc"
    changed.write_text(changed.read_text(encoding="utf-8") + "\nOne more line.\n", "utf-8")
    build_site(root, out, repository=REPOSITORY, search_index=False)
    ids = page_ids(out)
    assert ADOC_FAILED in (out / f"rfd/{ids[8]}.html").read_text(encoding="utf-8")
    assert "One more line." in (out / f"rfd/{ids[8]}.html").read_text(encoding="utf-8")
    for number in OXIDE_ADOC - {8}:
        assert ADOC_FAILED not in (out / f"rfd/{ids[number]}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("dialect", ["oxide"], indirect=True)
def test_a_pages_lifecycle_is_in_the_repositorys_words(dialect: str, site: Path) -> None:
    """Under an Oxide RFD's title the lifecycle reads prediscussion → discussion → published
    → committed (the steps passed ticked), never rfd's Draft → … → Implemented."""
    ids = page_ids(site)
    lifecycles = {}
    for number, _title, states in DIALECTS[dialect][1]:
        page = (site / "rfd" / f"{ids[number]}.html").read_text(encoding="utf-8")
        steps = re.search(r'<p class="steps" aria-label="Lifecycle">(.*?)</p>', page)
        assert steps is not None
        lifecycles[states[-1]] = re.sub(r"<[^>]+>", "", steps[1])
    assert lifecycles["published"] == "✓ prediscussion → ✓ discussion → published → committed"
    assert lifecycles["abandoned"] == (
        "prediscussion → discussion → published → committed · abandoned"
    )
