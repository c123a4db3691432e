"""``rfd status`` as a person reads it: tables as tables, lines wrapped at word boundaries at
any width, and never an action the command would refuse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import git, rfd_text, write_rfd

CONSENSUS = '[consensus]\nreviewers = ["alice", "bob", "carol"]\napprovals = 2\n'
CONCERN = "the queue loses jobs on restart when the worker is killed in the middle of a batch"
BOX = set("─│┃━┏┓┗┛┡┩└┘┌┐├┤┬┴┼•")


def run(repo: Path, *argv: str, who: str = "alice") -> int:
    git(repo, "config", "user.name", who)
    return main(["-C", str(repo), *argv])


@pytest.fixture
def repo(git_repo: Path) -> Path:
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(CONSENSUS)
    write_rfd(git_repo, "001-queue.md", rfd_text("001", "Queue"))
    return git_repo


def words(text: str) -> list[str]:
    return [w for w in text.split() if not set(w) <= BOX]


def said(repo: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(repo, *argv)
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("columns", [80, 60])
def test_status_wraps_at_word_boundaries_and_shows_a_table(
    repo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    columns: int,
) -> None:
    assert run(repo, "approve", "001", who="bob") == 0
    assert run(repo, "concern", "001", CONCERN, who="carol") == 0
    capsys.readouterr()
    _, whole, _ = said(repo, capsys, "status", "001")  # piped, no COLUMNS: never wrapped
    monkeypatch.setenv("COLUMNS", str(columns))
    _, out, _ = said(repo, capsys, "status", "001")
    assert max(len(line) for line in out.splitlines()) <= columns
    assert words(out) == words(whole)  # the same words in the same order: none split
    assert f"Concern 1 by carol: {CONCERN}" in " ".join(out.split())
    assert "|" not in out and re.search(r"^ bob +✅ at `[0-9a-f]{7}`$", out, re.M)
    assert re.search(r"^ reviewer +sign-off$", out, re.M)
    assert len(out.splitlines()) > len(whole.splitlines())  # it did wrap


@pytest.mark.parametrize("columns", [80, 60])
def test_a_refusal_wraps_at_word_boundaries(
    repo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    columns: int,
) -> None:
    assert run(repo, "concern", "001", CONCERN, who="carol") == 0
    capsys.readouterr()
    _, _, whole = said(repo, capsys, "accept", "001")
    monkeypatch.setenv("COLUMNS", str(columns))
    code, _, err = said(repo, capsys, "accept", "001")
    assert code == 1
    assert words(err) == words(whole)
    assert all(len(line) <= columns or " " not in line.strip() for line in err.splitlines())
    assert "lacks its sign-offs" in err and len(err.splitlines()) > len(whole.splitlines())


def offered(out: str) -> bool:
    return bool(re.search(r"^  rfd accept 001\b", out, re.M))


def test_accept_is_offered_exactly_when_it_would_be_done(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each step of the sign-offs: status offers `rfd accept` iff accept then works."""
    steps = [("approve", "bob"), ("concern", "carol"), ("approve", "alice"), ("resolve", "carol")]
    for verb, who in steps:
        args = {"approve": (), "concern": (CONCERN,), "resolve": ("1",)}[verb]
        assert run(repo, verb, "001", *args, who=who) == 0
        capsys.readouterr()
        _, out, _ = said(repo, capsys, "status", "001")
        if verb != "resolve":
            assert not offered(out), out
            assert "Accept:  not yet: it waits for the sign-offs (Decision, below)" in out
            assert "Not ready to accept" in out
            assert run(repo, "accept", "001") == 1
        else:
            assert offered(out) and "Accept:" not in out
            assert "Ready to accept." in out
    assert run(repo, "accept", "001") == 0


def test_an_unmet_requires_gate_is_said_instead_of_offering_accept(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base"))
    write_rfd(git_repo, "002-top.md", rfd_text("002", "Top", requires="RFD 001"))
    _, out, _ = said(git_repo, capsys, "status", "002")
    assert not re.search(r"^  rfd accept 002\b", out, re.M)
    line = next(line for line in out.splitlines() if line.startswith("Accept:"))
    code, _, err = said(git_repo, capsys, "accept", "002")
    assert code == 1
    reason = line.split("not yet: ", 1)[1]
    assert reason in " ".join(err.split())  # the very refusal accept gives
    _, out, _ = said(git_repo, capsys, "status", "001")
    assert re.search(r"^  rfd accept 001\b", out, re.M)


def test_status_lays_its_tables_out_without_a_markdown_parser_or_the_promotions(
    repo: Path,
) -> None:
    """rfd status stays small: rich's table and text, not rich.markdown's parser, and the
    accept check without the promotion code it would never run."""
    import json
    import os
    import subprocess
    import sys

    from tests.test_cli_imports import CHECKOUT, CHILD

    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, "-C", str(repo), "status", "001"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    *printed, report = proc.stdout.splitlines()
    modules = json.loads(report)["modules"]
    assert "Actions:" in printed and "rich.table" in modules
    heavy = {"rich.markdown", "markdown_it", "bot.lifecycle.lifecycle", "bot.lifecycle.accept"}
    assert heavy.isdisjoint(modules)


def test_a_command_to_copy_is_never_split_across_lines() -> None:
    from bot.cli.output import wrapped

    text = "error: pin it: `git ls-remote https://github.com/acme/rfd-bot refs/tags/v1` shows it"
    lines = wrapped(text, 40).splitlines()
    assert "  `git ls-remote https://github.com/acme/rfd-bot refs/tags/v1`" in lines
    assert " ".join(" ".join(lines).split()) == text
