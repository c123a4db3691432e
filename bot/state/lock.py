"""A lock file in a state directory: one run of a step at a time, and a dead run's lock expires.

The file is created exclusively (``O_EXCL``) and holds who took it: process id, host and
time.  Another run that finds it refuses, naming the holder — unless the holder is dead:
on the same host its process is gone, elsewhere (a shared checkout) it is older than
:data:`STALE_SECONDS`; a garbled file counts as dead too.  A dead run's lock is taken
over; the holder removes its own lock when it ends, however it ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from bot.core.errors import GateError

STALE_SECONDS = 6 * 3600
"""Older than the longest run (a GitHub job's limit): its run has died."""
HELD = "{what} is already running (process {pid} on {host}, since {since}): wait for it to end"
HINT = "if that run is gone, delete {path} and run it again"


class Holder(NamedTuple):
    pid: int
    host: str
    started: float


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def held(
    path: Path,
    what: str,
    *,
    clock: Callable[[], float] = time.time,
    alive: Callable[[int], bool] = _alive,
) -> Iterator[None]:
    """Hold the lock ``path`` for the block; GateError when a live run holds it."""
    mine = json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": clock()})
    path.parent.mkdir(parents=True, exist_ok=True)
    if not _create(path, mine):
        holder = _holder(path)
        if holder is not None and _live(holder, clock, alive):
            since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(holder.started))
            message = HELD.format(what=what, pid=holder.pid, host=holder.host, since=since)
            raise GateError(message, hint=HINT.format(path=path))
        path.unlink(missing_ok=True)  # a dead run's lock
        if not _create(path, mine):
            raise GateError(HELD.format(what=what, pid="?", host="?", since="now"))
    try:
        yield
    finally:
        if path.is_file() and path.read_text(encoding="utf-8") == mine:
            path.unlink()


def _create(path: Path, text: str) -> bool:
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    return True


def _holder(path: Path) -> Holder | None:
    """Who holds the lock; None when the file is gone or garbled (a dead run's)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Holder(int(data["pid"]), str(data["host"]), float(data["started"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _live(holder: Holder, clock: Callable[[], float], alive: Callable[[int], bool]) -> bool:
    if holder.host == socket.gethostname():
        return alive(holder.pid)
    return clock() - holder.started < STALE_SECONDS
