"""``rfd approve`` / ``concern`` / ``resolve`` / ``fcp`` and the accept gate, locally."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import git, rfd_text, write_rfd

CONSENSUS = '[consensus]\nreviewers = ["alice", "bob", "carol"]\napprovals = 2\n'


def run(repo: Path, *argv: str, who: str = "alice") -> int:
    git(repo, "config", "user.name", who)
    return main(["-C", str(repo), *argv])


@pytest.fixture
def repo(git_repo: Path) -> Path:
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(CONSENSUS)
    write_rfd(git_repo, "001-queue.md", rfd_text("001", "Queue"))
    return git_repo


def ledger(repo: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((repo / "docs/rfd/.state/001/consensus.json").read_text())
    return data


def test_the_same_flow_works_locally(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(repo, "approve", "001", who="alice") == 0
    assert run(repo, "approve", "001", who="bob") == 0
    assert run(repo, "concern", "001", "the queue loses jobs on restart", who="carol") == 0
    capsys.readouterr()

    assert run(repo, "accept", "001", who="alice") == 1
    refusal = capsys.readouterr().err
    assert "concern 1 by carol is open: the queue loses jobs on restart" in refusal
    assert "Accepted" not in (repo / "docs/rfd/001-queue.md").read_text().split("## ")[0]

    assert run(repo, "resolve", "001", "1", who="carol") == 0
    assert run(repo, "accept", "001", who="alice") == 0
    assert "Accepted" in (repo / "docs/rfd/001-queue.md").read_text()
    (issue,) = (repo / "docs/rfd/.state/.forge").rglob("*.json")
    decided = "[these sign-offs and concerns](docs/rfd/.state/001/consensus.json)"
    assert decided in json.loads(issue.read_text())["body"]  # the tracking issue links it


def test_status_shows_who_approved_and_who_it_waits_on(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(repo, "approve", "001", who="bob") == 0
    capsys.readouterr()
    assert run(repo, "status", "001") == 0
    out = capsys.readouterr().out
    assert re.search(r"^ bob +✅ at `[0-9a-f]{7}`$", out, re.M)  # a table, not Markdown pipes
    assert re.search(r"^ alice +waiting$", out, re.M) and "|" not in out
    assert "Not ready to accept yet: sign-offs 1 of 2 (`rfd approve 001`)." in out


def test_an_edit_after_an_approval_shows_it_as_of_an_older_revision(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(repo, "approve", "001", who="bob") == 0
    rfd = repo / "docs/rfd/001-queue.md"
    rfd.write_text(rfd.read_text() + "\nOne more line.\n")
    capsys.readouterr()
    assert run(repo, "status", "001") == 0
    assert "✅ at " in (out := capsys.readouterr().out) and "of an older revision" in out


def test_older_approvals_do_not_count_when_configured(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / ".github/rfd.toml").write_text(CONSENSUS + "count_older = false\n")
    assert run(repo, "approve", "001", who="alice") == 0
    assert run(repo, "approve", "001", who="bob") == 0
    rfd = repo / "docs/rfd/001-queue.md"
    rfd.write_text(rfd.read_text() + "\nOne more line.\n")
    capsys.readouterr()
    assert run(repo, "accept", "001") == 1
    assert "approvals: 0 of 2, waiting on alice, bob, carol" in capsys.readouterr().err


def test_only_reviewers_approve_and_never_their_own_rfd(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(repo, "approve", "001", who="mallory") == 1
    assert "mallory is not a reviewer" in capsys.readouterr().err
    (repo / ".github/rfd.toml").write_text(CONSENSUS.replace('"carol"', '"A"'))
    assert run(repo, "approve", "001", who="A") == 1
    assert "is an author of RFD 001 and cannot approve it" in capsys.readouterr().err


def test_a_concern_pauses_the_final_comment_period(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / ".github/rfd.toml").write_text(CONSENSUS + "fcp_days = 7\n")
    assert run(repo, "fcp", "001") == 1
    assert "approvals: 0 of 2" in capsys.readouterr().err  # too early
    assert run(repo, "approve", "001", who="alice") == 0
    assert run(repo, "approve", "001", who="bob") == 0
    assert run(repo, "fcp", "001", who="bob") == 0
    assert run(repo, "accept", "001") == 1
    assert "the final comment period runs until" in capsys.readouterr().err
    assert run(repo, "concern", "001", "wait", who="carol") == 0
    fcp = ledger(repo)["fcp"]
    assert isinstance(fcp, dict) and fcp["paused"] is True


def test_without_a_consensus_table_nothing_changes(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-queue.md", rfd_text("001", "Queue"))
    assert run(git_repo, "approve", "001") == 1
    assert "no [consensus] table" in capsys.readouterr().err
    assert run(git_repo, "accept", "001") == 0
