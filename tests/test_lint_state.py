"""``rfd lint`` finds in the state directories what the ``rfd-state`` hook finds in a commit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import main as rfd
from hooks.rfd_state import main as rfd_state
from tests.hooks_support import STATE, commit, plan_json, run_hook, staged, write
from tests.hooks_support import rfd as rfd_file

A = "docs/rfd/001-alpha.md"
S = f"{STATE}/001"
KEY = "sk-ant-api03-" + "Q" * 40
PLANTED = {
    f"{S}/plan.json": plan_json(2),
    f"{S}/phases/9.md": "Phase nine.\n",  # no such phase
    f"{S}/reviews/my-notes.md": "# notes\n",  # not named by its timestamp
    f"{S}/consensus.json": "{not json\n",
    f"{S}/decisions.md": "# Decisions for RFD 001: Alpha\n\n## Locked\n\nno list here\n",
    f"{S}/explore.md": f"# Research\n\nthe key: {KEY}\n",
    f"{STATE}/077/explore.md": "# Research of an RFD that does not exist\n",
}


def _problems(output: str) -> set[str]:
    """The ``path[:line]`` of every problem reported."""
    return {
        m.group(1).rstrip("/")
        for m in re.finditer(r"^(docs/rfd/\S+?)(?::\d+)?:", output, re.MULTILINE)
    }


def test_lint_reports_every_state_problem_the_hook_reports(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd_file(status="Accepted")})
    write(git_repo, PLANTED)
    code, hooked = run_hook(rfd_state, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert rfd(["-C", str(git_repo), "lint"]) == 1
    linted = capsys.readouterr().out
    found = _problems(hooked)
    assert len(found) >= 6, hooked
    assert found <= _problems(linted), (hooked, linted)
    assert f"{S}/explore.md:3: error: looks like an Anthropic API key" in linted
    assert KEY not in linted and KEY[13:30] not in linted


def test_lint_finds_credentials_in_nested_state_files_in_path_order_not_past_links(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd_file(status="Accepted")})
    write(
        git_repo,
        {
            f"{S}/reviews/1721500000.md": f"# Review\n\nok\ntoken: {KEY}\n",
            f"{S}/phases/1.md": f"Phase one.\n{KEY}\n",
            f"{S}/explore.md": f"{KEY}\n",
        },
    )
    outside = git_repo / "elsewhere"
    write(git_repo, {"elsewhere/notes.md": f"{KEY}\n"})
    (git_repo / S / "linked").symlink_to(outside, target_is_directory=True)
    assert rfd(["-C", str(git_repo), "lint"]) == 1
    linted = capsys.readouterr().out
    lines = [line.split(": error:")[0] for line in linted.splitlines() if "looks like" in line]
    assert lines == [f"{S}/explore.md:1", f"{S}/phases/1.md:2", f"{S}/reviews/1721500000.md:4"]
    assert KEY not in linted


def test_lint_reads_state_files_through_a_link_as_the_store_does(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A state directory holding a symbolic link is checked by reading the paths themselves
    (a linked decisions.md is parsed, as the store reads it); only the credential scan
    skips links."""
    commit(git_repo, {A: rfd_file(status="Accepted")})
    broken = PLANTED[f"{S}/decisions.md"]
    write(git_repo, {"elsewhere/decisions.md": broken, f"{S}/plan.json": plan_json(1)})
    (git_repo / S / "decisions.md").symlink_to(git_repo / "elsewhere" / "decisions.md")
    assert rfd(["-C", str(git_repo), "lint"]) == 1
    linted = capsys.readouterr().out
    assert re.search(rf"^{S}/decisions.md(:\d+)?: error: ", linted, re.MULTILINE), linted
