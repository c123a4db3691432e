"""A background outbox: informational work is handed to it and the caller returns at once.

Used by the event bus (plugin listeners of informational events) and by the notify
plugin (webhook posts).

One daemon thread per outbox delivers queued items in order through ``deliver``.  The
queue is bounded: when it is full the newest item is dropped and logged, never waited
for.  At process exit :func:`flush_all` waits a short, bounded time for what is still
queued and logs what it had to drop — so a slow endpoint never holds up a step, and the
last message of a short CLI run still has a chance to go out.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

QUEUE_SIZE = 100
EXIT_WAIT_SECONDS = 5.0
QUEUE_FULL = "%s: queue full, dropped one: %s"
NOT_DELIVERED = "%s: %d not delivered before exit, dropped: %s"

T = TypeVar("T")

_live: weakref.WeakSet[Outbox[Any]] = weakref.WeakSet()


class Outbox(Generic[T]):
    """Delivers items with ``deliver`` on a daemon thread; :meth:`put` never blocks."""

    def __init__(
        self,
        name: str,
        deliver: Callable[[T], object],
        *,
        size: int = QUEUE_SIZE,
        label: Callable[[T], str] = lambda _item: "item",
    ) -> None:
        self.name = name
        self._deliver = deliver
        self.label = label
        """What a warning may say about an item (an event's name): never the item itself,
        which can hold conversation text."""
        self._queue: queue.Queue[T] = queue.Queue(maxsize=size)
        self._current: T | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        _live.add(self)

    def put(self, item: T) -> bool:
        """Queue ``item``; False (and a warning) when the queue is full and it is dropped."""
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            log.warning(QUEUE_FULL, self.name, self.label(item))
            return False
        self._start()
        return True

    def flush(self, timeout: float) -> list[T]:
        """Wait at most ``timeout`` seconds for the queue to empty; what is still undelivered."""
        deadline = time.monotonic() + timeout
        done = self._queue.all_tasks_done
        with done:
            while self._queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                done.wait(left)
            pending = list(self._queue.queue)
            if self._current is not None:
                pending.insert(0, self._current)
        return pending

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            self._current = item
            try:
                self._deliver(item)
            except Exception:  # a delivery bug must not kill the worker or reach the step
                log.warning("%s: delivery failed", self.name, exc_info=True)
            finally:
                self._current = None
                self._queue.task_done()


def flush_all(timeout: float = EXIT_WAIT_SECONDS) -> int:
    """Give every outbox at most ``timeout`` seconds in all; log and count what is dropped."""
    deadline = time.monotonic() + timeout
    dropped = 0
    for box in list(_live):
        pending = box.flush(max(0.0, deadline - time.monotonic()))
        if pending:
            labels = Counter(box.label(item) for item in pending)
            named = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in labels.items())
            log.warning(NOT_DELIVERED, box.name, len(pending), named)
        dropped += len(pending)
    return dropped


atexit.register(flush_all)
