"""``rfd list`` and ``rfd status`` on a repository of 2,000 RFDs and 20,000 state files,
and ``rfd list`` on the adopter's repository (its templates skipped, ids padded).

Run with ``./.ci/bench -k cli``; prints a markdown table for the README.
Targets: ``rfd list`` ≤ 0.4 s; ``rfd status <id>`` independent of the repository size.

Each command runs in a fresh interpreter with bytecode cached, as an installed ``rfd``
runs; runs are interleaved (every command once per round, after a warm-up round that is
not counted) so that load on the machine hits all of them alike, and both wall and CPU
(user + system) time are reported: on a shared machine the CPU time is the steadier one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.bench.genrepo import make_repo
from tests.bench.test_hooks_bench import Timing, environment, measure

CLI = "from bot.cli.main import main; raise SystemExit(main())"
COMMANDS = (("--version",), ("list",), ("status", "1"), ("status", "1", "--json"))

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    base = tmp_path_factory.mktemp("bench")
    return {n: make_repo(base / f"r{n}", n) for n in (20, 2000)}


def test_list_and_status(repos: dict[int, Path]) -> None:
    jobs = {
        f"{n}:{' '.join(argv)}": ([sys.executable, "-c", CLI, "-C", str(repo), *argv], repo)
        for argv in COMMANDS
        for n, repo in repos.items()
    }
    table = measure(jobs, environment(repos[20].parent))
    print("\n| command | 20 RFDs: wall (cpu) ms | 2,000 RFDs: wall (cpu) ms |")
    print("| --- | ---: | ---: |")
    for argv in COMMANDS:
        name = " ".join(argv)
        small, big = table[f"20:{name}"], table[f"2000:{name}"]
        print(f"| `rfd {name}` | {cell(small)} | {cell(big)} |")


def cell(timing: Timing) -> str:
    wall, cpu = timing
    return f"{wall:.0f} ({cpu:.0f})"


def test_list_on_an_adopted_repository(tmp_path: Path) -> None:
    from bot.lifecycle import repo_setup
    from tests.adopt_repo import build_adopt_repo

    repo = build_adopt_repo(tmp_path / "jp")
    detected = build_adopt_repo(tmp_path / "jp-init")
    repo_setup.init(detected)
    jobs = {
        name: ([sys.executable, "-c", CLI, "-C", str(where), "list"], where)
        for name, where in (("as it is", repo), ("after rfd init", detected))
    }
    table = measure(jobs, environment(tmp_path))
    print("\n| `rfd list` on the adopter's repository (38 RFDs, 4 templates) | wall (cpu) ms |")
    print("| --- | ---: |")
    for name, timing in table.items():
        print(f"| {name} | {cell(timing)} |")
