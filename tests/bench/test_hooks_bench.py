"""Wall time of each hook on a one-RFD commit: 2,000 RFDs vs 20, and vs pre-commit-hooks'
``check-yaml`` on the same commit.  Prints a markdown table; run with
``python -m pytest tests/bench/test_hooks_bench.py -s``
or ``python -m tests.bench.test_hooks_bench``.

Both repositories are set up by ``rfd init`` (``.github/rfd.toml`` included, as in any
real one).  Every command runs as a console script in a fresh interpreter, as pre-commit runs it,
from a normal install: the project's wheel, built here and installed with its bytecode
compiled (:func:`installed`; no index is asked), as pre-commit installs a hook repository.
Runs are interleaved so that load on the machine hits every command alike.  Timings are
reported, not asserted.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bot.config.load import CONFIG_PATH
from tests.bench.genrepo import git, make_repo, one_rfd_commit

CHECKOUT = Path(__file__).resolve().parents[2]
HOOKS = ("rfd-lint", "rfd-status", "rfd-state", "rfd-sync")
SIZES = {"small": 20, "big": 2000}
RUNS = 21

pytestmark = pytest.mark.bench


def console_scripts(bin_dir: Path) -> dict[str, Path]:
    """What ``pip install`` would generate for each hook (plus the installed check-yaml)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    scripts = {}
    for hook in HOOKS:
        script = bin_dir / hook
        module = hook.replace("-", "_")
        script.write_text(
            f"#!{sys.executable}\nimport sys\nfrom hooks.{module} import main\nsys.exit(main())\n"
        )
        script.chmod(0o755)
        scripts[hook] = script
    check_yaml = shutil.which("check-yaml", path=str(Path(sys.executable).parent))
    if check_yaml is None:
        pytest.skip("pre-commit-hooks is not installed (pip install pre-commit-hooks)")
    scripts["check-yaml"] = Path(check_yaml)
    return scripts


def installed(workdir: Path) -> Path:
    """The project installed as pip installs it for a hook user (wheel built from this
    checkout, bytecode compiled), in ``workdir``; the site directory it went to."""
    site = workdir / "site"
    if not site.is_dir():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--no-index",
                "--no-build-isolation",
                "--target",
                str(site),
                str(CHECKOUT),
            ],
            check=True,
            capture_output=True,
        )
    return site


def environment(workdir: Path) -> dict[str, str]:
    """The environment of the measured commands: the project installed in ``workdir`` first
    on the path, its bytecode (and the standard library's) read as compiled at install."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    env.update(PYTHONPATH=str(installed(workdir)))
    for name in ("GITHUB_TOKEN", "RFD_GITHUB_TOKEN", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF"):
        env.pop(name, None)
    return env


def run_once(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system, the command and its git children) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 0, (argv, proc.stdout, proc.stderr)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


Timing = tuple[float, float]
"""Median wall and CPU milliseconds."""


def measure(jobs: dict[str, tuple[list[str], Path]], env: dict[str, str]) -> dict[str, Timing]:
    """Median wall and CPU ms of each job, runs interleaved, after one warm-up run each."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in jobs}
    for round_ in range(RUNS + 1):
        for name, (argv, cwd) in jobs.items():
            timing = run_once(argv, cwd, env)
            if round_:
                times[name].append(timing)
    return {
        name: (
            statistics.median(t[0] for t in ts) * 1000,
            statistics.median(t[1] for t in ts) * 1000,
        )
        for name, ts in times.items()
    }


def bench(workdir: Path) -> dict[str, dict[str, Timing]]:
    """``{size: {command: median ms}}`` for a one-RFD commit in each repository."""
    scripts = console_scripts(workdir / "bin")
    env = environment(workdir)
    staged_jobs: dict[str, tuple[list[str], Path]] = {}
    commits: dict[str, Path] = {}
    for size, count in SIZES.items():
        repo = make_repo(workdir / size, count)
        assert (repo / CONFIG_PATH).is_file(), "hooks must be measured reading the config"
        files = one_rfd_commit(repo, count)
        yaml = [f for f in files if f.endswith(".json")]
        commits[size] = repo
        for hook in ("rfd-lint", "rfd-status", "rfd-state"):
            staged_jobs[f"{size}:{hook}"] = ([str(scripts[hook]), *files], repo)
        staged_jobs[f"{size}:check-yaml"] = ([str(scripts["check-yaml"]), *yaml], repo)
    results = measure(staged_jobs, env)
    for repo in commits.values():
        git(repo, "commit", "-q", "-m", "accept")  # rfd-sync runs after the commit
    sync_jobs = {f"{s}:rfd-sync": ([str(scripts["rfd-sync"])], r) for s, r in commits.items()}
    results.update(measure(sync_jobs, env))
    table: dict[str, dict[str, Timing]] = {size: {} for size in SIZES}
    for key, ms in results.items():
        size, command = key.split(":")
        table[size][command] = ms
    return table


def markdown(table: dict[str, dict[str, Timing]]) -> str:
    yaml_big = table["big"]["check-yaml"]
    lines = [
        "| command | 20 RFDs: wall (cpu) ms | 2,000 RFDs: wall (cpu) ms | big / small (wall) "
        "| vs check-yaml (wall, cpu) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for command in (*HOOKS, "check-yaml"):
        (small, small_cpu), (big, big_cpu) = table["small"][command], table["big"][command]
        lines.append(
            f"| {command} | {small:.0f} ({small_cpu:.0f}) | {big:.0f} ({big_cpu:.0f}) "
            f"| {big / small:.2f}× | {big / yaml_big[0]:.2f}×, {big_cpu / yaml_big[1]:.2f}× |"
        )
    return "\n".join(lines)


def test_hooks_against_check_yaml_and_repository_size(tmp_path: Path) -> None:
    """Prints the table (ratios to check-yaml and big / small); timings are not asserted."""
    print("\n" + markdown(bench(tmp_path)))


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        print(markdown(bench(Path(tmp))))
