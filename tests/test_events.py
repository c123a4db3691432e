from __future__ import annotations

import dataclasses
import logging

import pytest

from bot.core.errors import Aborted
from bot.events import (
    EventBus,
    Notice,
    ResultReady,
    StatusChanged,
    ToolCallIntercept,
    all_event_types,
)


def changed() -> StatusChanged:
    return StatusChanged(rfd_id="045", old="Discussion", new="Accepted", path="docs/rfd/045-x.md")


def test_listeners_get_their_events_in_registration_order() -> None:
    bus, seen = EventBus(), []
    bus.subscribe(StatusChanged, lambda e: seen.append(("a", e.new)))
    bus.subscribe("*", lambda e: seen.append(("star", e.name)))
    bus.subscribe(Notice, lambda e: seen.append(("notice", e.message)))
    bus.emit(changed())
    assert seen == [("a", "Accepted"), ("star", "status.changed")]


def test_a_failing_informational_listener_is_logged_not_fatal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus, seen = EventBus(), []

    def broken(_: object) -> None:
        raise RuntimeError("boom")

    bus.subscribe(StatusChanged, broken, owner="broken-plugin")
    bus.subscribe(StatusChanged, seen.append)
    with caplog.at_level(logging.WARNING):
        bus.emit(changed())
    assert len(seen) == 1
    assert "broken-plugin" in caplog.text


def call() -> ToolCallIntercept:
    return ToolCallIntercept(step="implement", tool="write_file", arguments={"path": "a.py"})


def test_interceptors_modify_in_order() -> None:
    bus = EventBus()
    bus.subscribe(ToolCallIntercept, lambda e: dataclasses.replace(e, arguments={"path": "b.py"}))
    bus.subscribe(ToolCallIntercept, lambda e: None)  # observes, keeps
    assert bus.intercept(call()).arguments == {"path": "b.py"}


def test_an_interceptor_can_abort() -> None:
    bus = EventBus()

    def deny(_: ToolCallIntercept) -> None:
        raise Aborted("writes are not allowed during review")

    bus.subscribe(ToolCallIntercept, deny)
    with pytest.raises(Aborted, match="not allowed during review"):
        bus.intercept(call())


def test_tool_filter_limits_an_interceptor_to_its_declared_tools() -> None:
    bus, seen = EventBus(), []
    bus.subscribe(ToolCallIntercept, seen.append, tools=frozenset({"run_command"}))
    bus.intercept(call())
    assert seen == []


def test_kinds_cannot_be_mixed_up() -> None:
    bus = EventBus()
    with pytest.raises(TypeError):
        bus.emit(call())
    with pytest.raises(TypeError):
        bus.intercept(changed())


def test_payload_is_json_ready() -> None:
    payload = changed().payload()
    assert payload["event"] == "status.changed"
    assert payload["new"] == "Accepted"
    assert {t.name for t in all_event_types()} >= {"tool_call.after", "turn.complete"}


def test_star_listeners_run_in_place_among_named_ones() -> None:
    bus, seen = EventBus(), []
    bus.subscribe("*", lambda e: seen.append("star"))
    bus.subscribe("status.changed", lambda e: seen.append("named"))
    bus.subscribe("*", lambda e: seen.append("star again"))
    bus.emit(changed())
    assert seen == ["star", "named", "star again"]


def test_an_abort_stops_the_interceptors_after_it() -> None:
    bus, later = EventBus(), []

    def deny(_: ToolCallIntercept) -> None:
        raise Aborted("no")

    bus.subscribe(ToolCallIntercept, deny, owner="policy")
    bus.subscribe(ToolCallIntercept, later.append)
    with pytest.raises(Aborted):
        bus.intercept(call())
    assert later == []


@pytest.mark.parametrize(
    ("tools", "sees"),
    [
        (None, True),
        (frozenset({"write_file"}), True),
        (frozenset(), False),
        (frozenset({"run_command"}), False),
    ],
)
def test_tool_filter_table(tools: frozenset[str] | None, sees: bool) -> None:
    bus, seen = EventBus(), []
    bus.subscribe(ToolCallIntercept, seen.append, tools=tools)
    bus.intercept(call())
    assert bool(seen) is sees


def test_an_interceptor_returning_another_type_is_named() -> None:
    bus = EventBus()
    bus.subscribe(ToolCallIntercept, lambda e: changed(), owner="sloppy")
    with pytest.raises(TypeError, match="sloppy"):
        bus.intercept(call())


def test_result_ready_collects_feedback_from_every_judge() -> None:
    bus = EventBus()
    for verdict in ("FAIL: tests missing", "FAIL: wrong name"):
        bus.subscribe(
            ResultReady, lambda e, v=verdict: dataclasses.replace(e, feedback=(*e.feedback, v))
        )
    event = bus.intercept(ResultReady(step="implement", item="Add parser", result="done"))
    assert event.feedback == ("FAIL: tests missing", "FAIL: wrong name")
    assert ResultReady in all_event_types()


def test_a_slow_background_listener_does_not_hold_up_the_step() -> None:
    import threading

    bus, seen, gate = EventBus(), [], threading.Event()

    def slow(event: StatusChanged) -> None:
        gate.wait(10)  # were emit synchronous, it would return only after this
        seen.append(event.new)

    bus.subscribe(StatusChanged, slow, owner="plugin", inline=False)
    bus.emit(changed())
    assert seen == []  # emit returned while the listener still waits
    gate.set()
    assert bus.drain(10) == 0
    assert seen == ["Accepted"]


def test_background_listeners_see_events_in_emission_order_and_failures_are_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus, seen = EventBus(), []

    def picky(event: StatusChanged) -> None:
        if event.new == "Abandoned":
            raise RuntimeError("boom")
        seen.append(event.new)

    bus.subscribe(StatusChanged, picky, owner="plugin", inline=False)
    for new in ("Discussion", "Abandoned", "Accepted"):
        bus.emit(dataclasses.replace(changed(), new=new))
    assert bus.drain(10) == 0
    assert seen == ["Discussion", "Accepted"]
    assert "listener plugin failed on status.changed" in caplog.text
