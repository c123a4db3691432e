"""The notify plugin: Slack-compatible webhook posts, replayed from cassettes."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from vcr.cassette import Cassette

from bot.config.load import Config, PluginsSection, Resolved
from bot.core.outbox import Outbox, flush_all
from bot.events import EventBus, Notice, PhaseFailed, StatusChanged
from bot.plugins import load_plugins
from bot.plugins.notify import retry_delay, text_of

URL = "https://hooks.slack.com/services/T0000000000/B0000000000/XXXXXXXXXXXXXXXXXXXXXXXX"


def notify_bus(tmp_path: Path, sleeps: list[float], **options: Any) -> EventBus:
    options = {"url": URL, **options}
    config = Config(plugins=PluginsSection(enabled=("notify",), options={"notify": options}))
    bus = EventBus()
    load_plugins(bus, Resolved(config, {}), root=tmp_path, sleep=sleeps.append)
    return bus


def accepted() -> StatusChanged:
    return StatusChanged(rfd_id="045", old="Discussion", new="Accepted", path="docs/rfd/045-x.md")


@pytest.mark.vcr
def test_a_status_change_is_posted_to_the_webhook(
    tmp_path: Path, vcr: Cassette, caplog: pytest.LogCaptureFixture
) -> None:
    bus = notify_bus(tmp_path, [])
    with caplog.at_level(logging.WARNING):
        bus.emit(accepted())
        bus.emit(Notice(rfd_id="045", message="not selected: never posted"))
        assert flush_all(5) == 0
    assert vcr.play_count == 1 and vcr.all_played
    assert caplog.text == ""


@pytest.mark.vcr
def test_a_500_is_retried_and_then_delivered(
    tmp_path: Path, vcr: Cassette, caplog: pytest.LogCaptureFixture
) -> None:
    sleeps: list[float] = []
    bus = notify_bus(tmp_path, sleeps)
    with caplog.at_level(logging.WARNING):
        bus.emit(accepted())
        assert flush_all(5) == 0
    assert vcr.play_count == 2 and vcr.all_played
    assert sleeps == [1.0]
    assert "webhook answered 500" in caplog.text


def test_a_webhook_that_times_out_does_not_fail_the_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    attempts: list[float] = []

    def hang(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        attempts.append(request.extensions["timeout"]["read"])
        raise httpx.ReadTimeout("timed out", request=request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", hang)
    sleeps: list[float] = []
    bus = notify_bus(tmp_path, sleeps, timeout_seconds=2.5, retries=2)
    with caplog.at_level(logging.WARNING):
        bus.emit(accepted())  # returns: the step goes on
        assert flush_all(5) == 0
    assert attempts == [2.5, 2.5, 2.5]
    assert sleeps == [1.0, 2.0]
    assert "still failing after 3 attempts" in caplog.text
    assert URL not in caplog.text  # the URL is a secret


def stuck_webhook(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list[str]]:
    """A webhook that hangs until the returned gate opens, then times out."""
    gate, finished = threading.Event(), []

    def hang(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        gate.wait(3)
        finished.append(request.content.decode())
        raise httpx.ReadTimeout("timed out", request=request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", hang)
    return gate, finished


def test_the_step_goes_on_while_a_delivery_is_still_pending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gate, finished = stuck_webhook(monkeypatch)
    bus = notify_bus(tmp_path, [], retries=0)
    with caplog.at_level(logging.WARNING):
        bus.emit(accepted())
        assert finished == []  # the step has its answer before the webhook has one
        gate.set()
        assert flush_all(5) == 0
    assert len(finished) == 1
    assert "still failing after 1 attempts" in caplog.text


def test_at_exit_the_wait_is_bounded_and_what_is_dropped_is_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gate, _ = stuck_webhook(monkeypatch)
    bus = notify_bus(tmp_path, [], retries=0)
    failed = PhaseFailed(rfd_id="045", number=2, title="Parser", reason="tests fail")
    with caplog.at_level(logging.WARNING):
        bus.emit(accepted())
        bus.emit(failed)
        assert flush_all(0.2) == 2  # gave up waiting instead of hanging the exit
    warning = "notify: 2 not delivered before exit, dropped: status.changed, phase.failed"
    assert warning in caplog.text
    assert "Parser" not in caplog.text and "Accepted" not in caplog.text  # never the text
    gate.set()
    assert flush_all(10) == 0


def test_a_full_queue_drops_the_newest_message_without_waiting(
    caplog: pytest.LogCaptureFixture,
) -> None:
    gate, delivered = threading.Event(), []
    box = Outbox(
        "test-outbox",
        lambda text: (gate.wait(3), delivered.append(text)),
        size=1,
        label=lambda text: f"{len(text)} chars",
    )
    with caplog.at_level(logging.WARNING):
        results = [box.put(text) for text in ("one", "two", "three")]
    gate.set()
    assert box.flush(5) == []
    assert results.count(False) >= 1 and "queue full, dropped one: 5 chars" in caplog.text
    assert "three" not in caplog.text
    assert delivered[0] == "one"


def test_without_a_url_nothing_is_subscribed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = Config(plugins=PluginsSection(enabled=("notify",)))
    bus = EventBus()
    with caplog.at_level(logging.WARNING):
        load_plugins(bus, Resolved(config, {}), root=tmp_path, environ={})
    assert bus.listeners() == []
    assert "set RFD_WEBHOOK_URL" in caplog.text


def test_the_url_can_come_from_the_environment(tmp_path: Path) -> None:
    config = Config(plugins=PluginsSection(enabled=("notify",)))
    bus = EventBus()
    load_plugins(bus, Resolved(config, {}), root=tmp_path, environ={"RFD_WEBHOOK_URL": URL})
    assert {owner for _, owner in bus.listeners()} == {"notify"}


@pytest.mark.parametrize(
    ("headers", "attempt", "seconds"),
    [
        ({"retry-after": "7"}, 0, 7.0),
        ({"retry-after": "0"}, 3, 0.0),
        ({"retry-after": "Thu, 01 Jan 1970 00:00:00 GMT"}, 0, 0.0),
        ({"retry-after": "soon"}, 1, 2.0),
        ({}, 2, 4.0),
    ],
)
def test_retry_after_is_honoured(headers: dict[str, str], attempt: int, seconds: float) -> None:
    assert retry_delay(headers, attempt) == seconds


def test_messages_read_well_and_are_escaped_for_slack() -> None:
    failed = PhaseFailed(rfd_id="045", number=2, title="Parser <v2>", reason="tests & lint")
    assert text_of(accepted()) == "RFD 045: Discussion → Accepted"
    assert text_of(failed) == "RFD 045: phase 2 failed — Parser &lt;v2&gt;: tests &amp; lint"
