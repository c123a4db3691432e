from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.errors import AlreadyExists, GateError, TransitionError, ValidationError
from bot.events import EventBus, StatusChanged
from bot.lifecycle import lifecycle
from bot.lifecycle.workspace import Workspace
from bot.model.status import Status
from bot.state import OnExists
from tests.conftest import git, rfd_text, write_rfd


def open_ws(repo: Path) -> tuple[Workspace, list[object]]:
    bus, seen = EventBus(), []
    bus.subscribe("*", seen.append)
    return Workspace.open(repo, bus=bus, clock=lambda: 1_767_225_600.0), seen


def test_publishing_a_draft_takes_the_next_number_and_rewrites_references(git_repo: Path) -> None:
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base"))
    write_rfd(git_repo, "D7-queue.md", rfd_text("D7", "Queue", "Draft", requires="[RFD 001]"))
    write_rfd(git_repo, "002-user.md", rfd_text("002", "User", requires="[RFD D7](D7-queue.md)"))
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "rfds")
    ws, seen = open_ws(git_repo)
    out = lifecycle.promote(ws, "d7")
    assert (out.rfd_id, out.new) == ("003", Status.DISCUSSION)
    new = git_repo / "docs/rfd/003-queue.md"
    text = new.read_text()
    assert text.startswith("# RFD 003: Queue\n") and "- **Status**: Discussion" in text
    assert not (git_repo / "docs/rfd/D7-queue.md").exists()
    assert "[RFD 003](003-queue.md)" in (git_repo / "docs/rfd/002-user.md").read_text()
    assert "RM docs/rfd/D7-queue.md -> docs/rfd/003-queue.md" in git(git_repo, "status", "--short")
    assert any(isinstance(e, StatusChanged) and e.new == "Discussion" for e in seen)


def test_draft_state_directory_moves_with_it(git_repo: Path) -> None:
    write_rfd(git_repo, "D2-x.md", rfd_text("D2", "X", "Draft"))
    ws, _ = open_ws(git_repo)
    ws.store.write_explore("D2", "research")
    lifecycle.promote(ws, "D2")
    assert ws.store.read_explore("001") == "research"
    assert not ws.store.dir("D2").exists()


@pytest.mark.parametrize(
    ("status", "target", "error"),
    [
        ("Draft", "Implemented", TransitionError),
        ("Implemented", "Discussion", TransitionError),
        ("Abandoned", "Discussion", TransitionError),
        ("Discussion", "Accepted", GateError),  # no plan extracted yet
    ],
)
def test_illegal_or_ungated_promotions_change_nothing(
    git_repo: Path, status: str, target: str, error: type[Exception]
) -> None:
    path = write_rfd(git_repo, "005-x.md", rfd_text("005", "X", status))
    before = path.read_bytes()
    ws, seen = open_ws(git_repo)
    with pytest.raises(error) as exc:
        lifecycle.promote(ws, "5", Status.parse(target))
    assert path.read_bytes() == before and seen == []
    assert "005-x.md" in str(exc.value)


def test_requires_gate_names_the_blocking_rfd(git_repo: Path) -> None:
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base", "Discussion"))
    write_rfd(git_repo, "002-top.md", rfd_text("002", "Top", requires="RFD 001"))
    ws, _ = open_ws(git_repo)
    ws.store.write_plan("002", ())  # even with a plan, Requires must be Accepted
    with pytest.raises(GateError, match="001"):
        lifecycle.promote(ws, "2", Status.ACCEPTED)


def test_implemented_needs_every_phase(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", "Accepted"))
    ws, _ = open_ws(git_repo)
    from bot.model.plan import PlanPhase

    ws.store.write_plan("001", (PlanPhase("Schema", "d"), PlanPhase("Worker", "d")))
    ws.store.write_phase_summary("001", 1, "done")
    with pytest.raises(GateError, match=r"2\. Worker"):
        lifecycle.promote(ws, "1")


def test_abandon_records_the_reason(git_repo: Path) -> None:
    path = write_rfd(git_repo, "004-a.md", rfd_text("004", "A"))
    ws, _ = open_ws(git_repo)
    with pytest.raises(ValidationError):
        lifecycle.abandon(ws, "4", "  ")
    lifecycle.abandon(ws, "4", "superseded by events")
    text = path.read_text()
    assert "- **Status**: Abandoned" in text
    assert "- **Abandoned**: superseded by events (2026-01-01)" in text


def test_supersede_links_both_documents(git_repo: Path) -> None:
    old = write_rfd(git_repo, "001-old.md", rfd_text("001", "Old", "Accepted"))
    new = write_rfd(git_repo, "002-new.md", rfd_text("002", "New"))
    ws, _ = open_ws(git_repo)
    lifecycle.supersede(ws, "1", "2")
    assert "- **Superseded by**: [RFD 002](002-new.md)" in old.read_text()
    assert "- **Status**: Superseded" in old.read_text()
    assert "- **Supersedes**: [RFD 001](001-old.md)" in new.read_text()
    with pytest.raises(TransitionError):
        lifecycle.supersede(ws, "2", "1")  # 002 is only in Discussion


def test_new_rfd_from_template_and_existing_name_choices(git_repo: Path) -> None:
    ws, _ = open_ws(git_repo)
    first = lifecycle.new_rfd(ws, "design", "Better Tracing!", authors="Ada")
    assert first.path.name == "D1-better-tracing.md"
    assert "# RFD D1: Better Tracing!" in first.path.read_text()
    with pytest.raises(AlreadyExists) as exc:
        lifecycle.new_rfd(ws, "design", "better tracing")
    assert len(exc.value.alternatives) == 3
    use = lifecycle.new_rfd(ws, "design", "better tracing", on_exists=OnExists.USE)
    assert not use.created and use.path == first.path
    suffixed = lifecycle.new_rfd(ws, "guide", "better tracing", on_exists=OnExists.SUFFIX)
    assert suffixed.path.name == "D2-better-tracing-2.md"
    with pytest.raises(ValidationError, match="unknown category"):
        lifecycle.new_rfd(ws, "essay", "x")


def test_publishing_a_draft_from_drafts_dir_fixes_links(git_repo: Path) -> None:
    write_rfd(git_repo, "drafts/D3-x.md", rfd_text("D3", "X", "Draft"))
    user = write_rfd(
        git_repo, "001-u.md", rfd_text("001", "U", requires="[RFD D3](drafts/D3-x.md)")
    )
    ws, _ = open_ws(git_repo)
    lifecycle.promote(ws, "D3")
    assert (git_repo / "docs/rfd/002-x.md").exists()
    assert "[RFD 002](002-x.md)" in user.read_text()
