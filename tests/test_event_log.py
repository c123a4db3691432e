"""The event-log plugin: every event as a JSON line, in the RFD's state directory."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.config.load import Config, PluginsSection, Resolved
from bot.events import (
    EventBus,
    Notice,
    ResultReady,
    RfdCreated,
    StatusChanged,
    ToolCallComplete,
    ToolCallIntercept,
)
from bot.plugins import load_plugins
from bot.state import StateStore


def logged_bus(root: Path, **options: Any) -> EventBus:
    config = Config(plugins=PluginsSection(enabled=("event-log",), options={"event-log": options}))
    bus = EventBus()
    load_plugins(bus, Resolved(config, {}), root=root, store=StateStore(root, config))
    return bus


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_event_of_an_rfd_is_appended_to_its_events_jsonl(tmp_path: Path) -> None:
    bus = logged_bus(tmp_path)
    bus.emit(StatusChanged(rfd_id="045", old="Draft", new="Discussion", path="docs/rfd/045-x.md"))
    bus.intercept(
        ToolCallIntercept(
            rfd_id="045", step="implement", tool="write_file", arguments={"path": "a.py"}
        )
    )
    bus.emit(
        ToolCallComplete(
            rfd_id="045", step="implement", tool="write_file", is_error=False, seconds=0.25
        )
    )
    bus.emit(Notice(rfd_id="D32", message="Working on step 1 of 3"))
    log = lines(tmp_path / "docs/rfd/.state/045/events.jsonl")
    assert [e["event"] for e in log] == [
        "status.changed",
        "tool_call.intercept",
        "tool_call.complete",
    ]
    assert log[0]["old"] == "Draft" and log[0]["new"] == "Discussion"
    assert log[1]["arguments"] == {"path": "a.py"}
    assert isinstance(log[2]["at"], float)
    assert lines(tmp_path / "docs/rfd/.state/D32/events.jsonl")[0]["message"] == (
        "Working on step 1 of 3"
    )


def test_events_about_no_rfd_go_to_the_repository_log(tmp_path: Path) -> None:
    bus = logged_bus(tmp_path)
    bus.emit(Notice(message="Reconciling 3 RFDs"))
    (entry,) = lines(tmp_path / "docs/rfd/.state/.repo/events.jsonl")
    assert entry["event"] == "notice" and entry["rfd_id"] == ""


def test_excluded_events_are_not_logged(tmp_path: Path) -> None:
    bus = logged_bus(tmp_path, exclude=["notice"])
    bus.emit(Notice(rfd_id="045", message="chatter"))
    bus.emit(RfdCreated(rfd_id="045", path="docs/rfd/045-x.md", title="Café ☕"))
    (entry,) = lines(tmp_path / "docs/rfd/.state/045/events.jsonl")
    assert entry["title"] == "Café ☕"


def test_without_a_store_there_is_no_log_and_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = Config(plugins=PluginsSection(enabled=("event-log",)))
    bus = EventBus()
    with caplog.at_level(logging.WARNING):
        load_plugins(bus, Resolved(config, {}), root=tmp_path)
    assert bus.listeners() == []
    assert "events are not logged" in caplog.text


def test_long_text_fields_are_cut_visibly(tmp_path: Path) -> None:
    bus = logged_bus(tmp_path, max_field_chars=10)
    bus.intercept(ResultReady(rfd_id="045", step="implement", item="Parser", result="x" * 25))
    (entry,) = lines(tmp_path / "docs/rfd/.state/045/events.jsonl")
    assert entry["result"] == "x" * 10 + "… (15 more characters)"
    assert entry["item"] == "Parser"
