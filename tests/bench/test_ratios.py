"""The figures of "fast where users wait" as ratios, each from interleaved runs (A B A B …):
``rfd lint`` against ``rfd list`` on 2,000 and 10,000 RFDs, and the action's install step
(uv, only what the bot imports, the bot copied) against the same requirements installed with
pip into a venv, and the step against the step before it (pip fetching uv by its wheel's URL).
Each pair of runs gives one ratio; min and median are printed, wall and CPU
(user + system: on a shared machine the steadier one).

    python -m pytest tests/bench/test_ratios.py -o addopts="" -s -q      # or ./.ci/bench -k ratios

The install needs PyPI (nothing is cached: a fresh venv and no wheel cache each run).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.bench.genrepo import make_repo
from tests.bench.test_hooks_bench import environment, run_once

CHECKOUT = Path(__file__).resolve().parents[2]
ACTION = CHECKOUT / ".github" / "actions" / "rfd"
CLI = "from bot.cli.main import main; raise SystemExit(main())"
RUNS = 5

pytestmark = pytest.mark.bench

Run = Callable[[], tuple[float, float]]
"""One run of a command: its wall and CPU seconds."""


def ratios(a: Run, b: Run, runs: int = RUNS) -> dict[str, list[float]]:
    """A/B of wall and CPU seconds, pair by pair, after one warm-up pair; raw seconds too."""
    a(), b()
    found: dict[str, list[float]] = {"a": [], "b": [], "wall": [], "cpu": []}
    for _ in range(runs):
        (wall_a, cpu_a), (wall_b, cpu_b) = a(), b()
        found["a"].append(wall_a)
        found["b"].append(wall_b)
        found["wall"].append(wall_a / wall_b)
        found["cpu"].append(cpu_a / cpu_b)
    return found


def row(name: str, found: dict[str, list[float]]) -> str:
    med = statistics.median
    return (
        f"| {name} | {min(found['wall']):.2f}× / {med(found['wall']):.2f}× "
        f"| {min(found['cpu']):.2f}× / {med(found['cpu']):.2f}× "
        f"| {med(found['a']):.2f} s vs {med(found['b']):.2f} s |"
    )


HEADER = (
    "| A vs B | wall: min / median | CPU: min / median | median wall seconds |\n"
    "| --- | ---: | ---: | ---: |"
)


def cli(repo: Path, env: dict[str, str], *argv: str) -> Run:
    return lambda: run_once([sys.executable, "-c", CLI, "-C", str(repo), *argv], repo, env)


def first_lint(repo: Path, env: dict[str, str]) -> Run:
    """``rfd lint`` with no kept results yet (the cache removed before each run, untimed)."""
    lint = cli(repo, env, "lint")

    def once() -> tuple[float, float]:
        (repo / ".git" / "rfd-bot" / "lint-cache.json").unlink(missing_ok=True)
        return lint()

    return once


def test_lint_against_list_and_its_growth(tmp_path: Path) -> None:
    """``rfd lint`` as a user runs it again (its results kept from the last run, checking
    what changed), from cold (``--no-cache``: every file read and checked) and on its
    first run (checking everything and keeping it), each against ``rfd list``."""
    env = environment(tmp_path)
    repos = {n: make_repo(tmp_path / f"r{n}", n) for n in (2000, 10000)}
    print(f"\n{HEADER}")
    for n, repo in repos.items():
        found = ratios(cli(repo, env, "lint"), cli(repo, env, "list"))
        print(row(f"`rfd lint` (results kept) vs `rfd list`, {n:,} RFDs", found))
        found = ratios(cli(repo, env, "lint", "--no-cache"), cli(repo, env, "list"))
        print(row(f"`rfd lint --no-cache` vs `rfd list`, {n:,} RFDs", found))
    big, small = repos[10000], repos[2000]
    found = ratios(first_lint(small, env), cli(small, env, "list"), runs=3)
    print(row("`rfd lint`, first run (nothing kept yet) vs `rfd list`, 2,000 RFDs", found))
    growth = ratios(cli(big, env, "lint"), cli(small, env, "lint"), runs=3)
    print(row("`rfd lint` (results kept), 10,000 vs 2,000 RFDs (linear: 5×)", growth))
    growth = ratios(cli(big, env, "lint", "--no-cache"), cli(small, env, "lint", "--no-cache"), 3)
    print(row("`rfd lint --no-cache`, 10,000 vs 2,000 RFDs (linear: 5×)", growth))


def action_install_step() -> list[str]:
    """The action's install step as a bash command (its environment names the venv)."""
    steps = yaml.safe_load((ACTION / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]
    (step,) = [s for s in steps if "uv" in s.get("run", "")]
    return ["bash", "-euo", "pipefail", "-c", step["run"]]


def _pip_install(work: Path) -> list[str]:
    """The yardstick: a venv and pip, the same hash-pinned requirements, wheels only."""
    venv = work / "rfd-bot-venv"
    script = (
        f'python -m venv "{venv}" && "{venv}/bin/python" -I -m pip install --quiet '
        "--disable-pip-version-check --require-hashes --no-deps --only-binary=:all: "
        f'-r "{ACTION}/requirements.txt"'
    )
    return ["bash", "-c", script]


def install(command: Callable[[Path], list[str]]) -> Run:
    def once() -> tuple[float, float]:
        work = Path(tempfile.mkdtemp(prefix="rfd-install-"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
        env.update(
            PIP_CONFIG_FILE=os.devnull,
            PIP_NO_CACHE_DIR="1",
            UV_NO_CACHE="1",
            UV_NO_CONFIG="1",
            UV_PYTHON_DOWNLOADS="never",
            GITHUB_ACTION_PATH=str(ACTION),
            RFD_BOT_VENV=str(work / "rfd-bot-venv"),
            RFD_BOT_UV=str(work / "rfd-bot-uv"),
            PATH=f"{Path(sys.executable).parent}:/usr/bin:/bin",
        )
        try:
            return run_once(command(work), work, env)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    return once


def test_the_action_installs_faster_than_pip(tmp_path: Path) -> None:
    if subprocess.run(["bash", "-c", "command -v python"], capture_output=True).returncode:
        pytest.skip("no python on PATH")
    found = ratios(install(lambda work: action_install_step()), install(_pip_install), runs=3)
    print(f"\n{HEADER}\n{row('action install (uv, 39 wheels) vs pip (same requirements)', found)}")


PIP_UV = (
    "python -I -m pip install --disable-pip-version-check --quiet --no-deps --only-binary=:all: "
    '--require-hashes --target "$RFD_BOT_UV" -r "$GITHUB_ACTION_PATH/uv-requirements.txt"'
)
"""How the step fetched uv before fetch_uv.py: pip, the same wheel by its URL and hash."""
FETCH_UV = (
    'python -I "$GITHUB_ACTION_PATH/fetch_uv.py" "$GITHUB_ACTION_PATH/uv-requirements.txt" \\\n'
    '  "$RFD_BOT_UV/bin"'
)


def _previous_step() -> list[str]:
    """The install step as it was with pip fetching uv (everything after it the same)."""
    *argv, script = action_install_step()
    assert FETCH_UV in script, "the step no longer starts with fetch_uv.py: update the bench"
    return [*argv, script.replace(FETCH_UV, PIP_UV)]


def _fetch_uv_alone(work: Path) -> list[str]:
    return ["bash", "-c", FETCH_UV]


def _pip_uv_alone(work: Path) -> list[str]:
    return ["bash", "-c", PIP_UV]


def test_the_install_step_against_the_step_with_pip_fetching_uv(tmp_path: Path) -> None:
    """What fetch_uv.py saves: the whole step (fresh venv, no cache) and its first command
    alone, each against pip fetching the same uv wheel (its URL and hash), interleaved."""
    step = ratios(
        install(lambda work: action_install_step()), install(lambda work: _previous_step())
    )
    alone = ratios(install(_fetch_uv_alone), install(_pip_uv_alone))
    print(f"\n{HEADER}")
    print(row("install step: fetch_uv.py vs pip fetching uv (5 pairs)", step))
    print(row("uv alone: fetch_uv.py (curl, sha256, unzip) vs pip, same wheel (5 pairs)", alone))


def test_the_action_install_step_in_seconds() -> None:
    """The figure the goal names: the install step alone (fresh venv, no cache), against
    its 5 s budget — min and median of 5 runs, reported, not asserted."""
    if subprocess.run(["bash", "-c", "command -v python"], capture_output=True).returncode:
        pytest.skip("no python on PATH")
    once = install(lambda work: action_install_step())
    once()  # warm-up: the interpreter and the page cache, as on a runner's image
    runs = [once() for _ in range(RUNS)]
    wall, cpu = [w for w, _ in runs], [c for _, c in runs]
    med = statistics.median
    print(
        f"\n| action install step, fresh venv, no cache | wall min / median: {min(wall):.2f} s / "
        f"{med(wall):.2f} s ({med(wall) / 5:.2f}× the 5 s budget) | CPU median "
        f"{med(cpu):.2f} s |"
    )
