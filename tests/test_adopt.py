"""rfd on an adopter's repository as it is (tests/data/adopt_repo): its ids, its templates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.adopt_repo import RFD_COUNT, build_adopt_repo


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    return build_adopt_repo(tmp_path / "jp")


def run_json(repo: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object]:
    capsys.readouterr()
    code = main(["-C", str(repo), *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_list_shows_every_rfd_with_its_padding_and_no_template(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_json(adopted, capsys, "list")
    assert code == 0
    assert isinstance(data, dict)
    ids = [row["id"] for row in data["rfds"]]
    assert len(ids) == RFD_COUNT
    assert ids[-7:] == ["D05", "D12", "D18", "D23", "D31", "D48", "D55"]
    assert not [row for row in data["rfds"] if "template" in row["path"]]
    assert data["errors"] == []


def test_list_exits_0_when_it_lists_despite_a_broken_file(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (adopted / "docs/rfd/032-half-written.md").write_text("just some notes\n")
    assert main(["-C", str(adopted), "list"]) == 0
    captured = capsys.readouterr()
    assert "D05  Draft" in captured.out
    assert "032-half-written.md" in captured.err


def test_a_heading_naming_another_draft_never_redirects_a_command(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """D55's heading says "RFD D48": commands still go by the file name."""
    code, d55 = run_json(adopted, capsys, "status", "D55")
    assert code == 0 and isinstance(d55, dict)
    assert (d55["rfd_id"], d55["path"]) == (
        "D55",
        "docs/rfd/drafts/D55-inline-image-attachments.md",
    )
    commands = [action["command"] for action in d55["actions"]]
    assert commands and all(command.endswith(" D55") for command in commands)
    code, d48 = run_json(adopted, capsys, "status", "D48")
    assert code == 0 and isinstance(d48, dict)
    assert d48["path"] == "docs/rfd/drafts/D48-keyboard-shortcuts.md"
