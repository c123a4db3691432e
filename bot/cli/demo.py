"""``rfd demo``: a fresh example repository walked through a whole RFD life, offline.

Every step is the real ``rfd`` command run in-process against a temporary git
repository, with the offline provider and the local forge: what it prints is what
the code did.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import click

from bot.cli.common import run
from bot.cli.output import Output

PHASE_NOTES = {
    1: "Added the delivery table and the enqueue call; existing senders write to it.",
    2: "The worker retries with exponential backoff and jitter; attempts are recorded.",
    3: "Dead-lettered deliveries show in the admin page with a replay button.",
}


Rfd = Callable[[list[str]], int]
"""``rfd`` itself: arguments in, exit code out."""


@click.command()
@click.option("--keep", is_flag=True, help="Keep the example repository and print its path.")
@click.pass_context
def demo(ctx: click.Context, keep: bool) -> None:
    """Walk an example RFD through review → dismiss → accept → phases → done, offline."""
    rfd = ctx.find_root().command  # each step runs as `rfd …` would

    def main(argv: list[str]) -> int:
        return run(rfd, argv)

    out = Output()
    os.environ["RFD_PROVIDER"] = "offline"  # the embedded defaults: no key, no token
    tmp = Path(tempfile.mkdtemp(prefix="rfd-demo-"))
    repo = tmp / "example"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    steps: list[list[str]] = [
        ["init", "--example"],
        ["list"],
        ["status", "D1"],
        ["promote", "D1"],
        ["status", "1"],
        ["review", "1"],
        ["status", "1"],
        ["dismiss", "1", "all"],
        ["plan", "1"],
        ["accept", "1"],
        ["status", "1"],
    ]
    try:
        _walk(out, main, repo, tmp, steps)
    finally:
        if not keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    if keep:
        out.line(f"\nexample repository: {repo}")


def _walk(out: Output, main: Rfd, repo: Path, tmp: Path, steps: list[list[str]]) -> None:
    for argv in steps:
        _run(out, main, repo, argv)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Accept RFD 001")
    for n, note in PHASE_NOTES.items():
        summary = tmp / f"phase-{n}.md"
        summary.write_text(f"# Phase {n}\n\n{note}\n", encoding="utf-8")
        _run(out, main, repo, ["phase", "1", "done", str(n), "--summary", str(summary)])
    for argv in (["review", "1"], ["done", "1"], ["list"]):
        _run(out, main, repo, argv)
    _show_tracking_issue(out, repo)


def _run(out: Output, main: Rfd, repo: Path, argv: list[str]) -> None:
    out.line(f"\n$ rfd {' '.join(argv)}", style="bold cyan")
    code = main(["-C", str(repo), *argv])
    if code != 0:
        raise click.ClickException(f"`rfd {' '.join(argv)}` exited with {code}")


def _show_tracking_issue(out: Output, repo: Path) -> None:
    issues = sorted((repo / "docs/rfd/.state/.forge/issues").glob("*.md"))
    for issue in issues:
        out.line(f"\n$ cat {issue.relative_to(repo)}", style="bold cyan")
        out.line(issue.read_text(encoding="utf-8"))


DEMO_IDENTITY = ("-c", "user.name=rfd demo", "-c", "user.email=demo@rfd-bot.invalid")


def _git(repo: Path, *args: str) -> None:
    """git in the example repository; works on a machine with no git identity set."""
    subprocess.run(["git", *DEMO_IDENTITY, *args], cwd=repo, check=True, capture_output=True)
