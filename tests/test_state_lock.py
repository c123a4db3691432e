"""One run of a step at a time: a live holder refuses the second run, a dead one's lock expires."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from bot.core.errors import GateError
from bot.state.files import STALE_SECONDS, held

WHAT = "implement of phase 1 of RFD 045"


def taken(path: Path, pid: int, host: str = "", started: float = 1_000.0) -> None:
    holder = {"pid": pid, "host": host or socket.gethostname(), "started": started}
    path.write_text(json.dumps(holder))


def test_a_live_run_refuses_the_second_and_keeps_its_lock(tmp_path: Path) -> None:
    lock = tmp_path / "1.lock"
    refused = rf"{WHAT} is already running \(process {os.getpid()}"
    with held(lock, WHAT):
        with pytest.raises(GateError, match=refused), held(lock, WHAT):
            pass
        assert lock.is_file()
    assert not lock.exists()  # released when the block ends


def test_the_lock_is_released_when_the_run_fails(tmp_path: Path) -> None:
    lock = tmp_path / "1.lock"
    with pytest.raises(RuntimeError), held(lock, WHAT):
        raise RuntimeError("boom")
    assert not lock.exists()


@pytest.mark.parametrize(
    ("holder", "live"),
    [
        ({"pid": 4242}, False),  # this host, its process gone
        ({"pid": 4242, "host": "runner-7"}, True),  # elsewhere, recent
        ({"pid": 4242, "host": "runner-7", "started": -STALE_SECONDS}, False),  # old
        (None, False),  # garbled
    ],
)
def test_a_dead_runs_lock_is_taken_over(
    tmp_path: Path, holder: dict[str, object] | None, live: bool
) -> None:
    lock = tmp_path / "1.lock"
    if holder is None:
        lock.write_text("{not json")
    else:
        taken(lock, **holder)  # type: ignore[arg-type]
    now = 1_000.0 + STALE_SECONDS / 2
    entered = []
    try:
        with held(lock, WHAT, clock=lambda: now, alive=lambda pid: False):
            entered.append(True)
    except GateError as exc:
        assert "runner-7" in exc.message and str(lock) in (exc.hint or "")
    assert entered == ([] if live else [True])
