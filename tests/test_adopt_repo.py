"""The adopter fixture itself: what the other tests rely on it holding."""

from __future__ import annotations

import re
from pathlib import Path

from tests.adopt_repo import FIXTURE, PLANTED, RFD_COUNT, TEMPLATES, build_adopt_repo
from tests.conftest import git

HEADING_RE = re.compile(r"^# RFD (\S+):", re.MULTILINE)


def test_the_repository_is_committed_in_a_few_realistic_steps(tmp_path: Path) -> None:
    repo = build_adopt_repo(tmp_path / "jp")
    log = git(repo, "log", "--format=%s").splitlines()
    assert log == [
        "RFD D05: internal dev plugin",
        "Drafts",
        "RFDs 020-031",
        "RFDs 002-019",
        "RFD 001: the RFD process and templates",
    ]
    assert git(repo, "status", "--porcelain") == ""
    assert not (repo / "PLANTED.md").exists()


def test_it_holds_enough_rfds_templates_and_two_digit_drafts() -> None:
    rfds = [p for p in (FIXTURE / "docs/rfd").rglob("[0-9D]*.md") if "template" not in p.name]
    assert len(rfds) == RFD_COUNT >= 30
    drafts = sorted(p.name[:3] for p in (FIXTURE / "docs/rfd/drafts").glob("D*.md"))
    assert drafts == ["D05", "D12", "D18", "D23", "D31", "D48", "D55"]
    assert all((FIXTURE / t).read_text().count("RFD NNN: TITLE") == 1 for t in TEMPLATES)


def test_the_only_heading_mismatch_is_the_planted_one() -> None:
    mismatched = []
    for path in (FIXTURE / "docs/rfd").rglob("[0-9D]*.md"):
        heading = HEADING_RE.search(path.read_text())
        if heading and heading[1] not in (path.name[:3], "NNN"):
            mismatched.append(path.relative_to(FIXTURE).as_posix())
    assert mismatched == [p.path for p in PLANTED if p.kind == "heading-mismatch"]
