"""``rfd site`` on 10,000 RFDs (100,000 state files): a first build, a rebuild with nothing
changed, and a rebuild after one RFD changed.  Prints a markdown table for the README.

Run with ``./.ci/bench -k site``.  Target: a first build under a minute; a rebuild after one
change re-renders one document (the cache keeps the others) and writes a handful of files.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.site.build import Built, build_site
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
