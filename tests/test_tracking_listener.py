"""The forge is a listener: it answers ``tracking.due`` and its failures are the step's."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.core.errors import ForgeUnreachable
from bot.events import Event, EventBus, PhaseCompleted, TrackingDue, TrackingIssueUpdated
from bot.lifecycle import accept, phases
from bot.lifecycle.lifecycle import abandon
from bot.lifecycle.workspace import Workspace
from tests.conftest import rfd_text, write_rfd


def accepted(git_repo: Path) -> tuple[Workspace, list[Event]]:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue"))
    bus, seen = EventBus(), []
    bus.subscribe("*", seen.append, owner="test")
    ws = Workspace.open(git_repo, bus=bus)
    accept.accept(ws, "1")
    return ws, seen


def test_the_forge_answers_tracking_due_on_the_bus(git_repo: Path) -> None:
    ws, seen = accepted(git_repo)
    assert ("tracking.due", "forge") in ws.bus.listeners()
    later: list[TrackingDue] = []
    ws.bus.subscribe(TrackingDue, later.append, owner="a-plugin")  # runs after the forge
    phases.phase_done(ws, "1", 1, "schema added")
    abandon(ws, "1", "replaced by a vendor queue")
    assert [(e.cause, e.issue and e.issue.state) for e in later] == [
        ("phase.completed", "open"),
        ("Abandoned", "closed"),
    ]
    due = [e for e in seen if isinstance(e, TrackingDue)]
    assert [e.cause for e in due] == ["accepted", "phase.completed", "Abandoned"]
    updates = [e for e in seen if isinstance(e, TrackingIssueUpdated)]
    assert [(u.created, u.closed) for u in updates] == [
        (True, False),
        (False, False),
        (False, True),
    ]


def test_a_forge_failure_fails_the_step_while_a_broken_observer_does_not(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ws, _ = accepted(git_repo)

    def broken(event: PhaseCompleted) -> None:
        raise RuntimeError("observer bug")

    ws.bus.subscribe(PhaseCompleted, broken, owner="broken-plugin")
    with caplog.at_level(logging.WARNING):
        phases.phase_done(ws, "1", 1, "schema added")  # the observer's bug is only logged
    assert "listener broken-plugin failed on phase.completed" in caplog.text

    def unreachable(*args: Any, **kwargs: Any) -> None:
        raise ForgeUnreachable("could not reach GitHub to edit issue #1: ConnectionError")

    monkeypatch.setattr(ws.forge, "edit_issue", unreachable)
    with pytest.raises(ForgeUnreachable, match="could not reach GitHub to edit issue #1"):
        phases.phase_done(ws, "1", 2, "worker added")
    assert ws.store.phase_summaries("001")  # what was written stays; rerunning syncs again


def test_tracking_due_is_interceptable_and_hidden_fields_stay_out_of_logs() -> None:
    event = TrackingDue(rfd_id="001", cause="accepted")
    assert event.interceptable
    assert event.payload() == {
        "event": "tracking.due",
        "rfd_id": "001",
        "at": event.at,
        "cause": "accepted",
    }
