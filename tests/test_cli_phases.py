"""Phases named as the plan names them (``0``, ``3a``, ``(optional)``), and empty plans,
through the real ``rfd`` entry point on a real repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import rfd_text, write_rfd

PLAN = (
    "### Phase 0: Groundwork\n\nLay it.\n\n### Phase 3a: Split\n\nSplit it.\n\n"
    "### Phase 3b (optional): Polish\n\nShine it.\n\n### Phase 4: Ship (deferred)\n\nLater.\n"
)
STATE = "docs/rfd/.state/007"


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


@pytest.fixture
def accepted(rfd_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    write_rfd(rfd_repo, "007-layers.md", rfd_text("007", "Layers", plan=PLAN))
    assert run(rfd_repo, "accept", "7") == 0
    (tmp_path / "summary.md").write_text("Done.\n")
    capsys.readouterr()
    return rfd_repo


def issue_body(repo: Path) -> str:
    issues = sorted((repo / "docs/rfd/.state/.forge/issues").glob("*.json"))
    bodies = [json.loads(p.read_text())["body"] for p in issues]
    return next(b for b in bodies if "rfd-bot:tracking:007" in b)


def test_accept_lists_the_phases_by_their_labels(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(rfd_repo, "007-layers.md", rfd_text("007", "Layers", plan=PLAN))
    assert run(rfd_repo, "accept", "7") == 0
    out = capsys.readouterr().out
    assert "  0. Groundwork\n  3a. Split\n  3b. Polish (optional)\n" in out


def test_labels_are_what_status_list_and_the_tracking_issue_show(
    accepted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(accepted, "status", "7") == 0
    out = " ".join(capsys.readouterr().out.split())  # the phases are aligned in a grid
    assert "[ ] 0. Groundwork" in out and "[ ] 3a. Split" in out
    assert "[ ] 3b. Polish (optional)" in out and "[ ] 4. Ship (deferred)" in out
    assert "rfd phase 007 done 0 --summary FILE" in out
    body = issue_body(accepted)
    assert "- [ ] 0. Groundwork\n- [ ] 3a. Split\n- [ ] 3b. Polish (optional)\n" in body


def test_phase_done_by_label_then_done_without_optional_phases(
    accepted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = str(tmp_path / "summary.md")
    assert run(accepted, "phase", "7", "done", "3A", "--summary", summary) == 0
    assert "phase 3a (Split) done — 1/4 phases" in capsys.readouterr().out
    assert (accepted / STATE / "phases/3a.md").is_file()
    assert "- [x] 3a. Split" in issue_body(accepted)
    assert run(accepted, "done", "7") == 1
    err = capsys.readouterr().err
    assert "still has phases to do: 0. Groundwork" in err and "Polish" not in err
    assert run(accepted, "phase", "7", "done", "0", "--summary", summary) == 0
    assert run(accepted, "list") == 0
    assert "2/4 phases" in capsys.readouterr().out
    assert run(accepted, "status", "7") == 0
    assert "rfd done 007" in capsys.readouterr().out
    assert run(accepted, "done", "7") == 0
    assert "Status**: Implemented" in (accepted / "docs/rfd/007-layers.md").read_text()


def test_an_optional_phase_is_ticked_when_recorded(
    accepted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = str(tmp_path / "summary.md")
    assert run(accepted, "phase", "7", "done", "3b", "--summary", summary, "--json") == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "3b"
    assert "- [x] 3b. Polish (optional)" in issue_body(accepted)


def test_a_phase_the_plan_does_not_have_names_the_ones_it_has(
    accepted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = str(tmp_path / "summary.md")
    assert run(accepted, "phase", "7", "done", "3c", "--summary", summary) == 1
    assert "no phase 3c (its phases: 0, 3a, 3b, 4)" in capsys.readouterr().err
    assert not (accepted / STATE / "phases").exists()


def test_a_number_that_is_no_label_is_not_taken_as_a_position(
    accepted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = str(tmp_path / "summary.md")
    assert run(accepted, "phase", "7", "done", "2", "--summary", summary) == 1  # 2nd is 3a
    assert "no phase 2 (its phases: 0, 3a, 3b, 4)" in capsys.readouterr().err
    assert not (accepted / STATE / "phases").exists()


def test_plan_shows_the_labels(rfd_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_rfd(rfd_repo, "007-layers.md", rfd_text("007", "Layers", plan=PLAN))
    assert run(rfd_repo, "plan", "7") == 0
    out = capsys.readouterr().out
    assert "\n0. Groundwork\n" in out and "\n3a. Split\n" in out and "\n4. Ship" in out


def test_plans_without_labels_and_zero_padded_summaries(
    rfd_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(rfd_repo, "007-layers.md", rfd_text("007", "Layers"))
    assert run(rfd_repo, "accept", "7") == 0
    plan = rfd_repo / STATE / "plan.json"
    plan.write_text(
        json.dumps(
            [{k: v for k, v in p.items() if k != "label"} for p in json.loads(plan.read_text())]
        )
    )
    (rfd_repo / STATE / "phases").mkdir()
    (rfd_repo / STATE / "phases/01.md").write_text("Done.\n")
    capsys.readouterr()
    assert run(rfd_repo, "list") == 0
    assert "1/2 phases" in capsys.readouterr().out
    assert run(rfd_repo, "status", "7") == 0
    out = capsys.readouterr().out
    assert "[x] 1. Schema" in out and "rfd phase 007 done 2 --summary FILE" in out


def test_an_empty_plan_blocks_accepted_and_implemented(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(rfd_repo, "007-layers.md", rfd_text("007", "Layers"))
    (rfd_repo / STATE).mkdir(parents=True)
    (rfd_repo / STATE / "plan.json").write_text("[]\n")
    capsys.readouterr()
    assert run(rfd_repo, "promote", "7", "--to", "Accepted") == 1
    err = capsys.readouterr().err
    assert "has no phases, so it cannot become Accepted" in err and "rfd plan 007" in err
    doc = rfd_repo / "docs/rfd/007-layers.md"
    doc.write_text(doc.read_text().replace("Discussion", "Accepted"))
    assert run(rfd_repo, "done", "7") == 1
    assert "has no phases, so it cannot become Implemented" in capsys.readouterr().err


def test_done_without_any_plan_is_refused(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(rfd_repo, "007-layers.md", rfd_text("007", "Layers", "Accepted"))
    capsys.readouterr()
    assert run(rfd_repo, "done", "7") == 1
    err = capsys.readouterr().err
    assert "has no extracted plan, so it cannot become Implemented" in err and "rfd plan 007" in err
