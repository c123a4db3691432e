"""The event bus: delivery order, interception semantics, failing listeners."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import pytest

from bot.errors import Aborted
from bot.events import (
    Event,
    EventBus,
    Notice,
    ResultReady,
    StatusChanged,
    ToolCallIntercept,
    all_event_types,
)


def changed() -> StatusChanged:
    return StatusChanged(rfd_id="045", old="Draft", new="Discussion", path="docs/rfd/045-x.md")


def call(tool: str = "write_file", **arguments: Any) -> ToolCallIntercept:
    return ToolCallIntercept(rfd_id="045", step="implement", tool=tool, arguments=arguments)


def test_listeners_run_in_registration_order_with_star_listeners_in_place() -> None:
    bus, seen = EventBus(), []
    bus.subscribe(StatusChanged, lambda ev: seen.append("first"))
    bus.subscribe("*", lambda ev: seen.append(f"star:{ev.name}"))
    bus.subscribe("status.changed", lambda ev: seen.append("third"))
    bus.subscribe(Notice, lambda ev: seen.append("notice only"))
    bus.emit(changed())
    assert seen == ["first", "star:status.changed", "third"]


def test_a_failing_informational_listener_is_logged_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus, seen = EventBus(), []

    def broken(ev: Event) -> None:
        raise RuntimeError("disk full")

    bus.subscribe(StatusChanged, broken, owner="broken-plugin")
    bus.subscribe(StatusChanged, seen.append)
    with caplog.at_level(logging.WARNING):
        bus.emit(changed())  # does not raise: the step goes on
    assert [ev.name for ev in seen] == ["status.changed"]
    assert "broken-plugin failed on status.changed" in caplog.text
    assert "disk full" in caplog.text


def test_interceptors_chain_modifications_in_order() -> None:
    bus = EventBus()
    bus.subscribe(ToolCallIntercept, lambda ev: dataclasses.replace(ev, arguments={"path": "a"}))
    bus.subscribe(ToolCallIntercept, lambda ev: None)  # looks, changes nothing
    bus.subscribe(
        ToolCallIntercept,
        lambda ev: dataclasses.replace(ev, arguments={**ev.arguments, "mode": "w"}),
    )
    final = bus.intercept(call(path="original"))
    assert final.arguments == {"path": "a", "mode": "w"}


def test_an_aborting_interceptor_stops_the_call_and_later_interceptors() -> None:
    bus, later = EventBus(), []

    def veto(ev: ToolCallIntercept) -> None:
        raise Aborted("no writes during review")

    bus.subscribe(ToolCallIntercept, veto, owner="policy")
    bus.subscribe(ToolCallIntercept, later.append)
    with pytest.raises(Aborted, match="no writes during review"):
        bus.intercept(call())
    assert later == []


@pytest.mark.parametrize(
    ("tools", "tool", "sees"),
    [
        (None, "write_file", True),
        (frozenset({"write_file"}), "write_file", True),
        (frozenset({"write_file"}), "run_command", False),
        (frozenset(), "write_file", False),
    ],
)
def test_interceptors_only_see_the_tools_they_declared(
    tools: frozenset[str] | None, tool: str, sees: bool
) -> None:
    bus, seen = EventBus(), []
    bus.subscribe(ToolCallIntercept, seen.append, owner="p", tools=tools)
    bus.intercept(call(tool))
    assert bool(seen) is sees


def test_an_interceptor_returning_another_type_is_a_bug_named_after_its_owner() -> None:
    bus = EventBus()
    bus.subscribe(ToolCallIntercept, lambda ev: changed(), owner="sloppy")
    with pytest.raises(TypeError, match="sloppy"):
        bus.intercept(call())


@pytest.mark.parametrize(
    ("method", "event"),
    [("emit", call()), ("intercept", changed())],
)
def test_informational_and_interceptable_events_are_not_interchangeable(
    method: str, event: Event
) -> None:
    with pytest.raises(TypeError):
        getattr(EventBus(), method)(event)


def test_result_ready_collects_feedback_from_every_judge() -> None:
    bus = EventBus()
    for verdict in ("FAIL: tests missing", "FAIL: wrong name"):
        bus.subscribe(
            ResultReady,
            lambda ev, v=verdict: dataclasses.replace(ev, feedback=(*ev.feedback, v)),
        )
    ev = bus.intercept(ResultReady(step="implement", item="Add parser", result="done"))
    assert ev.feedback == ("FAIL: tests missing", "FAIL: wrong name")
    assert ResultReady in all_event_types()
