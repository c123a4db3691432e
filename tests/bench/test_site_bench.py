"""``rfd site`` on 10,000 RFDs (100,000 state files): a first build, a rebuild with nothing
changed, and a rebuild after one RFD changed.  Prints a markdown table for the README.

Run with ``./.ci/bench -k site``.  Target: a first build under a minute; a rebuild after one
change re-renders one document (the cache keeps the others) and writes a handful of files.
``-k history``: the feed's history of 2,000 RFDs with 8,000 commits (status moves, and examples
of status lines in code blocks that are none).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from bot.site.build import Built, build_site
from bot.site.history import read_history
from tests.bench.genrepo import make_repo

pytestmark = pytest.mark.bench
COUNT = 10_000


def timed(repo: Path, out: Path) -> tuple[float, Built]:
    start = time.perf_counter()
    built = build_site(repo, out)
    return time.perf_counter() - start, built


def test_site_of_ten_thousand_rfds(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "big", COUNT)
    out = tmp_path / "site"
    rows = [("first build", *timed(repo, out)), ("rebuild, nothing changed", *timed(repo, out))]
    page = repo / "docs/rfd/5000-generated-5000.md"
    page.write_text(page.read_text().replace("## Summary", "## Summary\n\nOne more line."))
    rows.append(("rebuild, one RFD changed", *timed(repo, out)))
    index = (out / "index.html").stat().st_size
    print(
        f"\n{COUNT:,} RFDs; the board's first page is {index / 1024:.0f} KB "
        f"(board.json {(out / 'board.json').stat().st_size / 2**20:.1f} MB)"
    )
    print("\n| build | wall s | files written | read | markdown | pages | write | search |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, wall, built in rows:
        s = built.seconds
        stages = " | ".join(
            f"{s.get(k, 0):.1f}" for k in ("read", "markdown", "render", "write", "search")
        )
        print(f"| {name} | {wall:.1f} | {built.written:,} of {built.files:,} | {stages} |")
    assert rows[2][2].written <= 5  # its page, the feed/board/rfds.json at most
    assert index < 200 * 1024  # a page of the board, not every RFD


HISTORY_RFDS = 2_000
WORDS = {
    "list": ("Draft", "Discussion", "Accepted", "Implemented"),
    "yaml": ("prediscussion", "discussion", "published", "committed"),
}


def history_text(n: int, form: str, state: str, example: str) -> str:
    """RFD ``n`` in a field list or in front matter, with a template in a code block whose
    status line is an example, not its state."""
    body = f"## Template\n\n```markdown\n- **Status**: {example}\nstate: {example}\n```\n"
    if form == "list":
        head = f"# RFD {n:03d}: History {n}\n\n- **Status**: {state}\n- **Authors**: Bench\n\n"
    else:
        head = f"---\nstate: {state}\nauthors: Bench\n---\n\n# RFD {n} History {n}\n\n"
    return head + "## Summary\n\nGenerated for the feed's benchmark.\n\n" + body


def history_repo(repo: Path, count: int) -> Path:
    """``count`` RFDs (every other one in front matter, ``docs/rfd/NNNN/README.md``), each
    added in a commit of its own and moved three times, a commit a move; every other move
    changes the template's example too.  Written with one ``git fast-import``."""
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    stream: list[bytes] = []
    stamp = 1_700_000_000

    def commit(message: str, path: str, text: str) -> None:
        nonlocal stamp
        stamp += 60
        data, content = message.encode(), text.encode()
        stream.append(
            b"commit refs/heads/main\n"
            + f"committer Bench <bench@example.com> {stamp} +0000\n".encode()
            + f"data {len(data)}\n".encode()
            + data
            + f"\nM 100644 inline {path}\ndata {len(content)}\n".encode()
            + content
            + b"\n"
        )

    def path(n: int) -> str:
        return f"docs/rfd/{n:04d}/README.md" if n % 2 else f"docs/rfd/{n:03d}-history-{n}.md"

    def form(n: int) -> str:
        return "yaml" if n % 2 else "list"

    for n in range(1, count + 1):
        words = WORDS[form(n)]
        commit(f"RFD {n}", path(n), history_text(n, form(n), words[0], words[0]))
    for move in (1, 2, 3):
        for n in range(1, count + 1):
            words = WORDS[form(n)]
            example = words[move - (n + move) % 2]
            commit(
                f"RFD {n}: {words[move]}", path(n), history_text(n, form(n), words[move], example)
            )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=repo, check=True)
    return repo


def test_feed_history_of_two_thousand_rfds(tmp_path: Path) -> None:
    repo = history_repo(tmp_path / "history", HISTORY_RFDS)
    rounds = []
    for _ in range(3):
        start = time.perf_counter()
        history = read_history(repo, "docs/rfd", "docs/rfd/.state")
        rounds.append(time.perf_counter() - start)
    moves = [c for c in history.changes if c.kind == "status"]
    print(
        f"\nthe feed's history of {HISTORY_RFDS:,} RFDs ({4 * HISTORY_RFDS:,} commits, "
        f"{len(moves):,} status changes): {min(rounds):.2f} s (best of 3)"
    )
    assert len(moves) == 3 * HISTORY_RFDS  # the examples' lines are no moves


ADOC_COUNT = 1_000


def _adoc_repo(root: Path) -> Path:
    """An Oxide-style corpus of ``ADOC_COUNT`` AsciiDoc RFDs (a directory each), each the
    fixture's document with its sections, listing, table and admonitions written four times."""
    from bot.cli.main import main
    from tests.conftest import git
    from tests.dialect_corpora import _asciidoc

    for n in range(1, ADOC_COUNT + 1):
        text = _asciidoc(n, "published")
        body = text[text.index("== Background") :]
        folder = root / "rfd" / f"{n:04d}"
        folder.mkdir(parents=True)
        (folder / "README.adoc").write_text(text + "\n" + body * 3, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "RFDs")
    assert main(["-C", str(root), "init"]) == 0
    return root


def test_site_of_asciidoc_rfds_rendered_against_shown_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.site import asciidoc, markdown

    repo = _adoc_repo(tmp_path / "adoc")
    rendered = build_site(repo, tmp_path / "rendered", search_index=False)

    def as_text(path: str, text: str, links: markdown.LinkContext) -> markdown.Rendered:
        return markdown.render(asciidoc.fence(text.strip("\n"), "asciidoc"), links)

    monkeypatch.setattr(markdown, "render_document", as_text)  # what the site did before
    shown = build_site(repo, tmp_path / "text", search_index=False)
    print(f"\n{ADOC_COUNT:,} AsciiDoc RFDs, first build without search, seconds")
    print("| bodies | markdown stage | whole build |")
    print("| --- | ---: | ---: |")
    for name, built in (("shown as text (before)", shown), ("rendered (now)", rendered)):
        print(f"| {name} | {built.seconds['markdown']:.2f} | {sum(built.seconds.values()):.2f} |")
    ratio = sum(rendered.seconds.values()) / sum(shown.seconds.values())
    print(f"whole build, rendered / as text: {ratio:.2f}x")
    texts = [p.read_text(encoding="utf-8") for p in sorted(repo.glob("rfd/*/README.adoc"))]
    start = time.perf_counter()
    for text in texts:
        asciidoc.to_markdown(text, markdown.slug)
    translated = time.perf_counter() - start
    print(f"of the markdown stage, translating AsciiDoc into Markdown: {translated:.2f} s")
    assert "<table>" in (tmp_path / "rendered/rfd/0500.html").read_text(encoding="utf-8")
