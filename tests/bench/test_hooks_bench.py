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
Rounds = list[tuple[float, float]]
"""Wall and CPU seconds of one command, one pair per round."""


def interleaved(jobs: dict[str, tuple[list[str], Path]], env: dict[str, str]) -> dict[str, Rounds]:
    """Each job's wall and CPU seconds in every round (one run of each job per round, in
    order), after a first round that is not counted."""
    times: dict[str, Rounds] = {name: [] for name in jobs}
    for round_ in range(RUNS + 1):
        for name, (argv, cwd) in jobs.items():
            timing = run_once(argv, cwd, env)
            if round_:
                times[name].append(timing)
    return times


def medians(rounds: Rounds) -> Timing:
    return (
        statistics.median(t[0] for t in rounds) * 1000,
        statistics.median(t[1] for t in rounds) * 1000,
    )


def measure(jobs: dict[str, tuple[list[str], Path]], env: dict[str, str]) -> dict[str, Timing]:
    """Median wall and CPU ms of each job, runs interleaved, after one warm-up run each."""
    return {name: medians(rounds) for name, rounds in interleaved(jobs, env).items()}


def bench(workdir: Path) -> dict[str, dict[str, Rounds]]:
    """``{size: {command: rounds}}`` for a one-RFD commit in each repository; ``yaml-after``
    is check-yaml again, in the rounds of rfd-sync (which runs after the commit)."""
    scripts = console_scripts(workdir / "bin")
    env = environment(workdir)
    staged_jobs: dict[str, tuple[list[str], Path]] = {}
    commits: dict[str, tuple[Path, list[str]]] = {}
    for size, count in SIZES.items():
        repo = make_repo(workdir / size, count)
        assert (repo / CONFIG_PATH).is_file(), "hooks must be measured reading the config"
        files = one_rfd_commit(repo, count)
        yaml = [f for f in files if f.endswith(".json")]
        commits[size] = repo, yaml
        for hook in ("rfd-lint", "rfd-status", "rfd-state"):
            staged_jobs[f"{size}:{hook}"] = ([str(scripts[hook]), *files], repo)
        staged_jobs[f"{size}:check-yaml"] = ([str(scripts["check-yaml"]), *yaml], repo)
    results = interleaved(staged_jobs, env)
    sync_jobs: dict[str, tuple[list[str], Path]] = {}
    for size, (repo, yaml) in commits.items():
        git(repo, "commit", "-q", "-m", "accept")  # rfd-sync runs after the commit
        sync_jobs[f"{size}:rfd-sync"] = ([str(scripts["rfd-sync"])], repo)
        sync_jobs[f"{size}:yaml-after"] = ([str(scripts["check-yaml"]), *yaml], repo)
    results.update(interleaved(sync_jobs, env))
    table: dict[str, dict[str, Rounds]] = {size: {} for size in SIZES}
    for key, rounds in results.items():
        size, command = key.split(":")
        table[size][command] = rounds
    return table


def paired(rounds: Rounds, against: Rounds) -> tuple[str, str]:
    """``min / median`` of the per-round ratios, wall and CPU."""
    out = []
    for i in (0, 1):
        ratios = [a[i] / b[i] for a, b in zip(rounds, against, strict=True)]
        out.append(f"{min(ratios):.2f}× / {statistics.median(ratios):.2f}×")
    return out[0], out[1]


def markdown(table: dict[str, dict[str, Rounds]]) -> str:
    """Medians per repository size, and each hook against check-yaml run in the same rounds
    on the 2,000-RFD repository (min / median of the per-round ratios)."""
    lines = [
        "| command | 20 RFDs: wall (cpu) ms | 2,000 RFDs: wall (cpu) ms | big / small (wall) "
        "| vs check-yaml, wall: min / median | cpu: min / median |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for command in (*HOOKS, "check-yaml"):
        (small, small_cpu) = medians(table["small"][command])
        (big, big_cpu) = medians(table["big"][command])
        yaml = table["big"]["yaml-after" if command == "rfd-sync" else "check-yaml"]
        wall, cpu = paired(table["big"][command], yaml)
        lines.append(
            f"| {command} | {small:.0f} ({small_cpu:.0f}) | {big:.0f} ({big_cpu:.0f}) "
            f"| {big / small:.2f}× | {wall} | {cpu} |"
        )
    return "\n".join(lines)


def test_hooks_against_check_yaml_and_repository_size(tmp_path: Path) -> None:
    """Prints the table (ratios to check-yaml and big / small) and the load average;
    timings are not asserted."""
    table = markdown(bench(tmp_path))
    print(f"\n{table}\nload average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        print(markdown(bench(Path(tmp))))
        print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
