"""Adopting a repository with a history: `rfd adopt` records the baseline and the process
its history shows; `rfd track` makes a legacy Accepted RFD trackable; afterwards the hooks
pass the untouched corpus.  Real git repositories, the real `rfd` entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.model.process_detect import History, RfdFacts, detect, render
from bot.model.status import Status
from hooks import rfd_status
from tests.conftest import git
from tests.hooks_support import commit, rfd, run_hook

A, B, C, D = (
    f"docs/rfd/00{n}-{name}.md"
    for n, name in ((1, "alpha"), (2, "beta"), (3, "gamma"), (4, "delta"))
)
LIST_PLAN = "1. **Widen the parser** so it reads both.\n2. **Switch the writers** — all of them.\n"
TEMPLATE = "docs/rfd/000-design-template.md"
BASELINE = "docs/rfd/.state/baseline.json"


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


@pytest.fixture
def legacy(git_repo: Path) -> Path:
    """Accepted/Implemented RFDs older than the tool, one added directly as Accepted, a
    template, and a published RFD deleted once."""
    commit(git_repo, {A: rfd(status="Discussion", phases=0), D: rfd("004", title="Delta")})
    commit(git_repo, {A: rfd(status="Implemented", phases=0), D: None})
    beta = rfd("002", "Accepted", title="Beta", phases=0).replace(
        "Nothing planned yet.\n", LIST_PLAN
    )
    commit(
        git_repo,
        {
            B: beta,
            C: rfd("003", "Draft", title="Gamma"),
            TEMPLATE: "# RFD 000: TITLE\n\n- **Date**: DATE\n",
        },
    )
    return git_repo


def test_adopt_records_the_baseline_and_the_process_the_history_shows(
    legacy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(legacy, "adopt", "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["process"] == {
        "new_statuses": ["Draft", "Discussion", "Accepted"],
        "implemented_needs_phases": False,
        "accepted_needs_plan": False,
        "extends_gates": True,
        "delete_published": True,
    }
    recorded = json.loads((legacy / BASELINE).read_text())
    head = git(legacy, "rev-parse", "HEAD").strip()
    assert recorded == {
        "commit": head,
        "statuses": {"001": "Implemented", "002": "Accepted", "003": "Draft"},
        "findings": [],
    }
    config = (legacy / ".github/rfd.toml").read_text()
    assert "[process]" in config
    assert (
        "accepted_needs_plan = false  # Accepted/Implemented RFDs without a plan: 1 of 2" in config
    )
    assert "new_statuses" in config and "RFDs were added 1 as Accepted" in config
    assert "delete_published = true  # 1 published RFD deleted (docs/rfd/004-delta.md)" in config
    git(legacy, "add", "-A")
    files = git(legacy, "ls-files").split()
    assert run_hook(rfd_status.main, legacy, files, monkeypatch, capsys)[0] == 0  # day one


def test_adopt_keeps_a_process_table_that_exists(
    legacy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = legacy / ".github/rfd.toml"
    config.parent.mkdir()
    config.write_text("[process]\nextends_gates = false\n")
    assert run(legacy, "adopt") == 0
    assert config.read_text() == "[process]\nextends_gates = false\n"
    assert "kept the [process] table" in capsys.readouterr().out


def test_the_baseline_grandfathers_history_only(
    legacy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the detected process, the legacy statuses pass only thanks to the baseline."""
    files = git(legacy, "ls-files").split()
    assert run_hook(rfd_status.main, legacy, files, monkeypatch, capsys)[0] == 1
    assert run(legacy, "adopt") == 0
    (legacy / ".github/rfd.toml").unlink()  # strict rules again
    git(legacy, "add", "-A")
    git(legacy, "commit", "-qm", "Adopt rfd-bot")
    assert run_hook(rfd_status.main, legacy, files, monkeypatch, capsys)[0] == 0


def test_track_extracts_a_numbered_list_plan(
    legacy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(legacy, "track", "2") == 0
    out = capsys.readouterr().out
    assert "holds its 2 phases (1, 2)" in out and "rfd phase 002 done <label>" in out
    plan = json.loads((legacy / "docs/rfd/.state/002/plan.json").read_text())
    assert [(p["label"], p["title"]) for p in plan] == [
        ("1", "Widen the parser"),
        ("2", "Switch the writers"),
    ]
    assert run(legacy, "track", "2") == 1
    assert "tracked already" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rfd_id", "error"),
    [
        ("3", "RFD 003 is Draft: `rfd track` takes an RFD that is Accepted or Implemented"),
        ("1", "no plan to extract"),
    ],
)
def test_track_refuses_what_it_cannot_track(
    legacy: Path, capsys: pytest.CaptureFixture[str], rfd_id: str, error: str
) -> None:
    assert run(legacy, "track", rfd_id) == 1
    assert error in capsys.readouterr().err


def test_a_strict_process_when_the_history_shows_nothing_else() -> None:
    facts = [RfdFacts(Status.IMPLEMENTED, True, True, False)]
    settings = detect(facts, History([Status.DRAFT, Status.DISCUSSION], []))
    assert render(settings) == (
        "[process]  # detected by `rfd adopt` from the repository's history\n"
        'new_statuses = ["Draft", "Discussion"]  '
        "# none of 2 RFDs was added as Accepted or Implemented\n"
        "implemented_needs_phases = true  # Implemented RFDs without recorded phases: 0 of 1\n"
        "accepted_needs_plan = true  # Accepted/Implemented RFDs without a plan: 0 of 1\n"
        "extends_gates = true  # accepted RFDs that Extend one not as far along: 0\n"
        "delete_published = false  # 0 published RFDs deleted\n"
    )
