"""Wall time and peak memory of the ``rfd:review`` event on a one-RFD PR, end to end.

The bot runs in a fresh interpreter (as the action runs it) on a real origin, checkout
and PR branch, its GitHub exchanges replayed from the review event's cassette, with
the default configuration (so the default write pacing).  Run with
``python -m pytest tests/bench/test_github_bench.py -s`` (or ``./.ci/bench -k github``).
The numbers include importing vcrpy, which the action does not.

``test_review_event_against_pr_agent`` runs pr-agent's ``review`` of the same one-RFD PR,
interleaved with the bot's event, both as they are run in Actions and both talking to the
same HTTP stand-ins (``tests/bench/standins.py``) for GitHub's REST API and for the model:
the bot installed by the action's own install step (``python -I -m bot`` on the label
event's payload file, the action's environment, the anthropic SDK pointed at the stand-in
by ``ANTHROPIC_BASE_URL``), pr-agent from PyPI.  Each venv is cached under the temp dir
(keyed by pr-agent's version, by the action's requirements); the first run installs them,
which needs PyPI.  The checkout's ``bot/`` is copied into the bot's venv on every run.
"""

from __future__ import annotations

import hashlib
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

from tests.bench.standins import Recorded, standins
from tests.bench.test_ratios import ACTION, action_install_step
from tests.github_world import NOW, RFD_PATH, RFD_TEXT, event_env, make_world, payload

CHECKOUT = Path(__file__).resolve().parents[2]
CASSETTE = CHECKOUT / "cassettes" / "test_github_review_label"
CASSETTE = CASSETTE / "test_review_is_committed_posted_and_label_removed.yaml"
RUNS = 5
TARGET_SECONDS, TARGET_MB = 1.5, 120

CHILD = f"""
import sys, vcr
from pathlib import Path
from bot.github.router import main
recorder = vcr.VCR(record_mode="none", decode_compressed_response=True,
                   match_on=["method", "scheme", "host", "port", "path", "query", "body"])
with recorder.use_cassette(sys.argv[1]) as cassette:
    code = main(dict(__import__("os").environ), root=Path(sys.argv[2]), clock=lambda: {NOW})
    assert cassette.all_played, "requests not made"
sys.exit(code)
"""

pytestmark = pytest.mark.bench


def timed(
    argv: list[str], env: dict[str, str], log: Path, cwd: Path | None = None
) -> tuple[float, float, int]:
    """Wall seconds, peak RSS (MB) and exit code of one child process, its output in ``log``."""
    with log.open("w", encoding="utf-8") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, proc.returncode


def bot_env(workdir: Path) -> dict[str, str]:
    """The environment of one review event in a fresh world under ``workdir``."""
    dates = {
        "GIT_AUTHOR_DATE": "2026-11-22T02:00:00+00:00",
        "GIT_COMMITTER_DATE": "2026-11-22T02:00:00+00:00",
    }
    os.environ.update(dates)  # the cassette's shas need the world's fixed commit dates
    workdir.mkdir()
    _, checkout = make_world(workdir, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})
    (checkout / ".github" / "rfd.toml").write_text("", encoding="utf-8")  # the defaults
    env = {
        **os.environ,
        **event_env(workdir, "pull_request_target", payload("pull_request.labeled.review")),
    }
    env.update(
        PYTHONPATH=str(CHECKOUT),
        GITHUB_STEP_SUMMARY=str(workdir / "summary.md"),
        PYTHONPYCACHEPREFIX=str(workdir.parent / "pycache"),
    )
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)  # offline review; bytecode cached as in an installed action
    return env


def one_run(workdir: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one review event in a fresh world."""
    env = bot_env(workdir)
    checkout = workdir / "checkout"
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(CASSETTE), str(checkout)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # largest child so far
    return wall, peak_kb / 1024


def test_review_event_against_its_targets(tmp_path: Path) -> None:
    """Reports wall time and peak memory as fractions of the targets (≤ 1 meets them): a
    benchmark reports numbers, it does not fail on a slow machine."""
    runs = [one_run(tmp_path / str(n)) for n in range(RUNS + 1)][1:]  # after one warm-up
    walls = [w for w, _ in runs]
    peak = max(m for _, m in runs)
    med = statistics.median(walls)
    print(
        f"\n| `rfd:review`, one-RFD PR | wall min / median: {min(walls):.2f} s / {med:.2f} s "
        f"({min(walls) / TARGET_SECONDS:.2f}× / {med / TARGET_SECONDS:.2f}× of "
        f"{TARGET_SECONDS} s) | peak {peak:.0f} MB ({peak / TARGET_MB:.2f}× of {TARGET_MB} MB) |"
    )


PR_AGENT = "0.2.4"  # the newest pr-agent on the package index here
PR_AGENT_PINS = {"litellm==1.43.13": "litellm==1.53.1", "openai==1.40.6": "openai>=1.40.6"}
"""pr-agent 0.2.4 pins litellm 1.43.13, which the index here lacks: the nearest later litellm,
and an openai it accepts; every other pin as pr-agent declares it."""


def pr_agent_python() -> Path:
    """The Python of a venv with pr-agent, installed once per version under the temp dir."""
    venv = Path(tempfile.gettempdir()) / "rfd-bench-cache" / f"pr-agent-{PR_AGENT}"
    python = venv / "bin" / "python"
    if (venv / "installed").exists():
        return python
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", f"pr-agent=={PR_AGENT}"], check=True)
    probe = "import importlib.metadata as m; print(*m.requires('pr-agent'), sep='\\n')"
    declared = (
        subprocess.run([str(python), "-c", probe], check=True, text=True, capture_output=True)
        .stdout.replace(" ", "")
        .split()
    )
    requirements = [PR_AGENT_PINS.get(pin, pin) for pin in declared]
    subprocess.run([*pip, *requirements], check=True)
    (venv / "installed").write_text(PR_AGENT, encoding="utf-8")
    return python


def pr_agent_run(python: Path, base: str, recorded: Recorded, log: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of pr-agent's review of PR #1 on the stand-ins; fails
    unless its review reached the stand-in GitHub."""
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(log.parent),
        "LANG": "C.UTF-8",
        "GITHUB__USER_TOKEN": "standin",
        "GITHUB__BASE_URL": base,
        "GITHUB__DEPLOYMENT_TYPE": "user",
        "OPENAI__KEY": "standin",
        "OPENAI__API_BASE": f"{base}/v1",
        "CONFIG__MODEL": "gpt-4o",
        "CONFIG__FALLBACK_MODELS": "[]",
    }
    before = len(recorded.posted("/issues/1/comments"))
    pr_url = f"{base}/repos/Codertocat/Hello-World/pulls/1"
    wall, peak, code = timed(
        [str(python), "-m", "pr_agent.cli", "--pr_url", pr_url, "review"], env, log
    )
    posted = recorded.posted("/issues/1/comments")[before:]
    assert code == 0 and any("PR Reviewer Guide" in body for body in posted), log.read_text()
    return wall, peak


def action_python() -> Path:
    """The Python of the bot's venv as the action's install step makes it (uv, the action's
        requirements, the bot copied), made once per requirements under the temp dir; this
        checkout's ``bot/`` is copied in afresh and every ``__pycache__`` removed: the first event
    compiles what it imports, as the action's only event on a fresh runner does."""
    pins = b"".join((ACTION / n).read_bytes() for n in ("requirements.txt", "uv-requirements.txt"))
    root = Path(tempfile.gettempdir()) / "rfd-bench-cache"
    root /= f"rfd-bot-{hashlib.sha256(pins).hexdigest()[:12]}"
    python = root / "rfd-bot-venv" / "bin" / "python"
    if not (root / "installed").exists():
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
        env |= {
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "PIP_CONFIG_FILE": os.devnull,
            "GITHUB_ACTION_PATH": str(ACTION),
            "RFD_BOT_VENV": str(root / "rfd-bot-venv"),
            "RFD_BOT_UV": str(root / "rfd-bot-uv"),
            "UV_NO_CONFIG": "1",
            "UV_PYTHON_DOWNLOADS": "never",
        }
        subprocess.run(action_install_step(), cwd=root, env=env, check=True)
        (root / "installed").write_text("", encoding="utf-8")
    probe = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(
        subprocess.run(
            [str(python), "-I", "-c", probe], check=True, text=True, capture_output=True
        ).stdout.strip()
    )
    shutil.rmtree(site / "bot", ignore_errors=True)
    shutil.copytree(CHECKOUT / "bot", site / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    for cache in list(site.rglob("__pycache__")):  # the first event compiles, as on a runner
        shutil.rmtree(cache)
    return python


def action_env(workdir: Path, base: str) -> dict[str, str]:
    """The environment of the action's "Handle the event" step for an ``rfd:review`` label on
    PR #1 of a fresh world under ``workdir`` (the runner's temp dir), GitHub and the model
    served by the stand-ins at ``base``."""
    os.environ.update(  # the payload's head sha needs the world's fixed commit dates
        GIT_AUTHOR_DATE="2026-11-22T02:00:00+00:00", GIT_COMMITTER_DATE="2026-11-22T02:00:00+00:00"
    )
    workdir.mkdir()
    _, checkout = make_world(workdir, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})
    (checkout / ".github" / "rfd.toml").write_text("", encoding="utf-8")  # the defaults
    labeled = payload("pull_request.labeled.review", number=1, **{"pull_request.number": 1})
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(workdir),
        "LANG": "C.UTF-8",
        **event_env(workdir, "pull_request_target", labeled),
        "GITHUB_API_URL": base,
        "GITHUB_WORKSPACE": str(checkout),
        "GITHUB_STEP_SUMMARY": str(workdir / "summary.md"),
        "GITHUB_TOKEN": "ghs_standin",
        "ANTHROPIC_API_KEY": "sk-ant-standin",
        "ANTHROPIC_BASE_URL": base,  # read by the SDK: the one setting the action lacks
        "OPENAI_API_KEY": "",
        "RFD_BASE_URL": "",
        "RFD_BOT_STAGE": "all",
        "RFD_BOT_ARTIFACT": str(workdir / "rfd-phase"),
    }


def bot_run(python: Path, workdir: Path, base: str, recorded: Recorded) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of the bot's ``rfd:review`` event as the action runs it;
    fails unless it called the model and its review reached the stand-in GitHub."""
    env = action_env(workdir, base)
    before = len(recorded.requests)
    log = workdir / "out.log"
    wall, peak, code = timed([str(python), "-I", "-m", "bot"], env, log, cwd=workdir)
    requests = recorded.requests[before:]
    called = [p for m, p, _ in requests if m == "POST" and p == "/v1/messages"]
    posted = [b for m, p, b in requests if m == "POST" and p.endswith("/issues/1/comments")]
    reviewed = any("Review 1 of RFD 045" in b and "X-Accel-Buffering" in b for b in posted)
    assert code == 0 and called and reviewed, log.read_text()
    return wall, peak


def test_review_event_against_pr_agent(tmp_path: Path) -> None:
    """pr-agent's review and the bot's event, interleaved (bot, pr-agent, …) after one warm-up
    pair: min and median of wall time and peak RSS of each, and pr-agent / bot ratios."""
    agent_python, bot_python = pr_agent_python(), action_python()
    bot: list[tuple[float, float]] = []
    agent: list[tuple[float, float]] = []
    with standins() as (base, recorded):
        for n in range(RUNS + 1):
            ours = bot_run(bot_python, tmp_path / f"bot{n}", base, recorded)
            (tmp_path / f"agent{n}").mkdir()
            other = pr_agent_run(agent_python, base, recorded, tmp_path / f"agent{n}" / "out.log")
            if n:  # the first pair warms caches (and compiles the bot's bytecode)
                bot.append(ours)
                agent.append(other)
            else:
                first = ours
    med = statistics.median
    walls = [a[0] / b[0] for a, b in zip(agent, bot, strict=True)]
    peaks = [a[1] / b[1] for a, b in zip(agent, bot, strict=True)]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"\n| `rfd:review` (anthropic SDK, model call) vs pr-agent {PR_AGENT} `review`, one-RFD "
        f"PR, same stand-ins ({RUNS} pairs, load {load}) "
        f"| faster: {min(walls):.2f}× / {med(walls):.2f}× (goal ≥ 5×) "
        f"| leaner: {min(peaks):.2f}× / {med(peaks):.2f}× (goal ≥ 3×) "
        f"| wall {med(w for w, _ in bot):.2f} s vs {med(w for w, _ in agent):.2f} s, "
        f"peak {med(m for _, m in bot):.0f} MB vs {med(m for _, m in agent):.0f} MB |"
        f"\n| the bot's first event after the install (compiles the bytecode it imports, as on "
        f"a fresh runner) | {first[0]:.2f} s, peak {first[1]:.0f} MB |"
    )
