"""The site's feed reports an RFD's status changes as the document model reads its header, not
every line that looks like a status: real git repositories whose RFDs document the process
itself (a template in a code block, a YAML sample, a nested ``status:`` in front matter)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import NamedTuple
from xml.etree import ElementTree as ET

import pytest

from bot.core import git_log
from bot.lifecycle.repo_setup import init
from bot.model import status_moves
from bot.site.build import build_site

ATOM = "{http://www.w3.org/2005/Atom}"
FENCE = "```"


class Entry(NamedTuple):
    title: str
    updated: str


def commit(repo: Path, files: dict[str, str], message: str, day: int) -> None:
    """Write ``files`` and commit them on 2025-03-``day``, as Ada."""
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    date = f"2025-03-{day:02d}T10:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    identity = ("-c", "user.name=Ada", "-c", "user.email=ada@example.com")
    for args in (("add", "-A"), ("commit", "-qm", message)):
        subprocess.run(["git", *identity, *args], cwd=repo, env=env, check=True)


def new_repo(path: Path) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=path, check=True)
    return path


def feed(repo: Path) -> tuple[str, list[Entry]]:
    """The built site's feed: when it says it was updated, and its entries (newest first)."""
    out = repo.parent / "site"
    build_site(repo, out, search_index=False)
    root = ET.parse(out / "feed.xml").getroot()
    entries = [
        Entry(e.findtext(f"{ATOM}title") or "", e.findtext(f"{ATOM}updated") or "")
        for e in root.findall(f"{ATOM}entry")
    ]
    return root.findtext(f"{ATOM}updated") or "", entries


def changed(repo: Path, rid: str) -> str:
    """The date the RFD's page gives under "Changed"."""
    page = (repo.parent / "site" / f"rfd/{rid}.html").read_text(encoding="utf-8")
    return page.split("<dt>Changed</dt><dd>", 1)[1].split("<", 1)[0]


def day(n: int) -> str:
    return f"2025-03-{n:02d}T10:00:00+00:00"


# ------------------------------------------------------------------ a field list (flat files)

PROCESS = "docs/rfd/012-the-rfd-process.md"


def process_rfd(status: str, template: str, config: str = "") -> str:
    """RFD 012, which documents the RFD process: its own header, then a template and (later)
    a configuration sample in code blocks, each with a status line of its own."""
    sample = f"\n## Configuration\n\n{FENCE}yaml\n{config}{FENCE}\n" if config else ""
    return (
        "# RFD 012: The RFD process\n\n"
        f"- **Status**: {status}\n- **Authors**: Ada <ada@example.com>\n\n"
        "## Summary\n\nHow we write RFDs.\n\n"
        "## Template\n\nA new RFD starts like this:\n\n"
        f"{FENCE}markdown\n# RFD NNN: Title\n\n- **Status**: {template}\n{FENCE}\n{sample}"
    )


@pytest.fixture(scope="module")
def process_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = new_repo(tmp_path_factory.mktemp("flat") / "repo")
    init(repo)
    commit(repo, {PROCESS: process_rfd("Draft", "Draft")}, "RFD 012: the RFD process", 1)
    # (a) a code block with a status line added, another's status line changed
    text = process_rfd("Draft", "Discussion", config="bot:\n  enabled: true\nstatus: published\n")
    commit(repo, {PROCESS: text}, "Show the template in discussion, and the bot's config", 2)
    # (b) the real status changed
    text = text.replace(
        "- **Status**: Draft\n- **Authors**", "- **Status**: Discussion\n- **Authors**"
    )
    commit(repo, {PROCESS: text}, "RFD 012 in discussion", 3)
    # (d) both in one commit: the real status, and the example's
    text = process_rfd("Accepted", "Implemented", config="status: draft\n")
    commit(repo, {PROCESS: text}, "RFD 012 accepted; the examples updated", 4)
    # only an example changes after the last real move
    text = process_rfd("Accepted", "Abandoned", config="status: draft\n")
    commit(repo, {PROCESS: text}, "The template shows an abandoned RFD", 5)
    return repo


def test_the_feed_reports_only_the_real_moves_of_the_rfd(process_repo: Path) -> None:
    updated, entries = feed(process_repo)
    assert entries == [
        Entry("RFD 012 Discussion → Accepted: The RFD process", day(4)),
        Entry("RFD 012 Draft → Discussion: The RFD process", day(3)),
        Entry("New: RFD 012: The RFD process", day(1)),
    ]
    assert updated == day(4)  # no feed reader is told of a change on days 2 or 5


def test_the_page_still_says_when_the_file_last_changed(process_repo: Path) -> None:
    feed(process_repo)
    assert changed(process_repo, "012") == "2025-03-05"


def test_an_rfd_whose_only_status_lines_are_examples_has_no_moves(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    init(repo)
    commit(repo, {PROCESS: process_rfd("Discussion", "Draft")}, "RFD 012", 1)
    for n, word in enumerate(("Discussion", "Accepted", "Implemented"), start=2):
        commit(repo, {PROCESS: process_rfd("Discussion", word)}, f"Template: {word}", n)
    _, entries = feed(repo)
    assert [e.title for e in entries] == ["New: RFD 012: The RFD process"]


# ------------------------------------------------- front matter and AsciiDoc (Oxide's layout)

OXIDE_MD = "rfd/0012/README.md"
OXIDE_ADOC = "rfd/0013/README.adoc"


def front_matter(state: str, review: str, example: str) -> str:
    """An Oxide RFD: ``state:`` in its front matter beside a nested ``status:``, a YAML sample
    with a ``state:`` line of its own in the body."""
    return (
        "---\n"
        "authors: Ada Lovelace <ada@example.com>\n"
        f"state: {state}\n"
        "discussion: https://github.com/oxidecomputer/rfd/pull/12\n"
        "review:\n"
        f"  status: {review}\n"
        "  by: Grace Hopper\n"
        "---\n\n"
        "# RFD 12 The RFD process\n\n"
        "## Front matter\n\nEach RFD's front matter says where it stands:\n\n"
        f"{FENCE}yaml\nstate: {example}\n{FENCE}\n"
    )


def asciidoc(state: str, example: str) -> str:
    """An AsciiDoc RFD whose body shows an attribute block with a ``:state:`` of its own."""
    return (
        ":showtitle:\n"
        f":state: {state}\n"
        ":authors: Ada Lovelace <ada@example.com>\n\n"
        "= RFD 13 Attributes\n\n"
        "== Example\n\n"
        f"----\n:state: {example}\n:authors: You\n----\n"
    )


@pytest.fixture(scope="module")
def oxide_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = new_repo(tmp_path_factory.mktemp("oxide") / "repo")
    (repo / "README.md").write_text("# RFDs\n", encoding="utf-8")
    first = {
        OXIDE_MD: front_matter("prediscussion", "open", "prediscussion"),
        OXIDE_ADOC: asciidoc("prediscussion", "prediscussion"),
    }
    commit(repo, first, "RFD 12 and 13", 1)
    init(repo)  # the configuration detected from the corpus: rfd/, Oxide's words
    commit(repo, {}, "rfd init", 2)
    # (a) the examples in the bodies move
    commit(
        repo,
        {
            OXIDE_MD: front_matter("prediscussion", "open", "published"),
            OXIDE_ADOC: asciidoc("prediscussion", "committed"),
        },
        "Examples: a published RFD",
        3,
    )
    # (c) a status nested in the front matter changes
    commit(
        repo,
        {OXIDE_MD: front_matter("prediscussion", "closed", "published")},
        "Review closed",
        4,
    )
    # (b) the real state of each
    commit(
        repo,
        {
            OXIDE_MD: front_matter("discussion", "closed", "published"),
            OXIDE_ADOC: asciidoc("discussion", "committed"),
        },
        "RFD 12 and 13 in discussion",
        5,
    )
    # (d) the real state, the nested status and the example in one commit
    commit(
        repo,
        {
            OXIDE_MD: front_matter("published", "reopened", "abandoned"),
            OXIDE_ADOC: asciidoc("published", "abandoned"),
        },
        "RFD 12 and 13 published; examples updated",
        6,
    )
    return repo


def test_front_matter_and_asciidoc_moves_are_read_from_the_header(oxide_repo: Path) -> None:
    updated, entries = feed(oxide_repo)
    moves = [e for e in entries if "→" in e.title]
    assert moves == [
        Entry("RFD 0013 discussion → published: Attributes", day(6)),
        Entry("RFD 0012 discussion → published: The RFD process", day(6)),
        Entry("RFD 0013 prediscussion → discussion: Attributes", day(5)),
        Entry("RFD 0012 prediscussion → discussion: The RFD process", day(5)),
    ]
    assert updated == day(6)


def test_a_move_across_a_version_that_does_not_parse_is_reported_once(tmp_path: Path) -> None:
    """A commit breaks the front matter, the next one mends it in another state: one move,
    from the state before the break, when it was mended."""
    repo = new_repo(tmp_path / "repo")
    (repo / "README.md").write_text("# RFDs\n", encoding="utf-8")
    good = front_matter("discussion", "open", "draft")
    commit(repo, {OXIDE_MD: good}, "RFD 12", 1)
    init(repo)
    commit(repo, {}, "rfd init", 2)
    broken = good.replace("state: discussion\n", "state: [discussion\n")
    commit(repo, {OXIDE_MD: broken}, "Oops", 3)
    commit(repo, {OXIDE_MD: good.replace("discussion\n", "published\n", 1)}, "Published", 4)
    _, entries = feed(repo)
    assert [e for e in entries if "→" in e.title] == [
        Entry("RFD 0012 discussion → published: The RFD process", day(4))
    ]


def test_a_pool_of_processes_reads_the_repositorys_own_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many versions are parsed in other processes: they read the words of ``[statuses]``
    as this one does (words no dialect knows, which would not parse without the table)."""
    monkeypatch.setattr(status_moves, "PARALLEL_FROM", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    repo = new_repo(tmp_path / "repo")
    config = '[rfd]\ndir = "rfd"\n[statuses]\nmooted = "draft"\nmulled = "discussion"\n'
    files = {".github/rfd.toml": config + 'ratified = "accepted"\n'}
    commit(repo, {**files, OXIDE_MD: front_matter("mooted", "open", "draft")}, "RFD 12", 1)
    for n, word in enumerate(("mulled", "ratified"), start=2):
        commit(repo, {OXIDE_MD: front_matter(word, "open", "draft")}, word, n)
    _, entries = feed(repo)
    assert [e for e in entries if "→" in e.title] == [
        Entry("RFD 0012 mulled → ratified: The RFD process", day(3)),
        Entry("RFD 0012 mooted → mulled: The RFD process", day(2)),
    ]


def test_blobs_are_read_from_one_cat_file_batch() -> None:
    out = b"aaa blob 5\nhello\nbbb missing\nccc blob 0\n\nddd blob 3\n\xc3\xa9x\n"
    assert dict(git_log.parse_batch(out)) == {"aaa": "hello", "ccc": "", "ddd": "éx"}


B1, B2 = "1" * 40, "2" * 40
RAW = {  # a line of `git log --raw --no-abbrev` → the edit it is (None: not a candidate)
    f":100644 100644 {B1} {B2} M\tdocs/rfd/012-x.md": ("012", "docs/rfd/012-x.md"),
    f":100644 100755 {B1} {B2} R091\tdocs/rfd/D60-x.md\tdocs/rfd/032-x.md": (
        "032",
        "docs/rfd/D60-x.md",
    ),
    f":100644 100644 {B1} {B2} M\trfd/0003/README.adoc": ("0003", "rfd/0003/README.adoc"),
    f":000000 100644 {'0' * 40} {B2} A\tdocs/rfd/013-y.md": None,  # added: no status before
    f":100644 000000 {B1} {'0' * 40} D\tdocs/rfd/013-y.md": None,
    f":120000 120000 {B1} {B2} M\tdocs/rfd/014-link.md": None,  # a symbolic link
    f":100644 100644 {B1} {B2} M\trfd/0003/notes.md": None,  # another file of its directory
    f":100644 100644 {B1} {B2} M\tdocs/rfd/015-z.txt": None,
}


@pytest.mark.parametrize(("line", "wanted"), list(RAW.items()))
def test_the_candidates_are_the_modified_or_renamed_documents(
    line: str, wanted: tuple[str, str] | None
) -> None:
    head = git_log.UNIT.join(("abc", day(1), "Ada", "A subject"))
    text = f"{git_log.RECORD}{head}\n\n{line}\n"
    found = [(e.rfd, e.before.path) for e in status_moves.parse_edits(text)]
    assert found == ([] if wanted is None else [wanted])
