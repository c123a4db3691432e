"""``rfd list`` and ``rfd status`` on a repository of 2,000 RFDs and 20,000 state files.

Run with ``./.ci/bench -k cli``; prints a markdown table for the README.
Targets: ``rfd list`` ≤ 0.4 s; ``rfd status <id>`` independent of the repository size.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bench.genrepo import make_repo

RUNS = 5
CLI = "from bot.cli.main import main; raise SystemExit(main())"


def env(cache: Path) -> dict[str, str]:
    """Bytecode cached as on a user's machine (this one sets PYTHONDONTWRITEBYTECODE)."""
    out = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**out, "PYTHONPYCACHEPREFIX": str(cache)}


def wall(repo: Path, *argv: str) -> float:
    command = [sys.executable, "-c", CLI, "-C", str(repo), *argv]
    cache = repo.parent / "pycache"
    subprocess.run(command, check=True, capture_output=True, env=env(cache))  # warm-up
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env(cache))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    base = tmp_path_factory.mktemp("bench")
    return {n: make_repo(base / f"r{n}", n) for n in (20, 2000)}


def test_list_and_status(repos: dict[int, Path]) -> None:
    bare = wall(repos[20], "--version")
    rows = [("`rfd --version` (start-up)", bare, bare)]
    for argv in (("list",), ("status", "1"), ("status", "1", "--json")):
        rows.append((f"`rfd {' '.join(argv)}`", wall(repos[20], *argv), wall(repos[2000], *argv)))
    print("\n| command | 20 RFDs | 2,000 RFDs |\n| --- | ---: | ---: |")
    for name, small, big in rows:
        print(f"| {name} | {small * 1000:.0f} ms | {big * 1000:.0f} ms |")
