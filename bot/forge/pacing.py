"""Spacing of one run's writes to GitHub, for its secondary rate limits.

GitHub asks clients that make *many* mutative requests to wait about a second
between them, and counts content-creating requests per minute (80).  One event
makes a handful: the first ``burst`` writes of a run go out at once, and only
past them is each write spaced ``interval`` seconds after the end of the
previous one.  The pause therefore falls only *between* writes — never before
the first, never after the last — and a long run (``reconcile``) stays under
60 writes a minute.  ``Retry-After`` on a secondary limit is honoured apart
from this, by PyGithub's retry.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

DEFAULT_INTERVAL = 1.0
DEFAULT_BURST = 4


@dataclass
class WritePacer:
    interval: float = DEFAULT_INTERVAL
    """Seconds between two writes once the burst is spent (0: no pause at all)."""
    burst: int = DEFAULT_BURST
    """Writes of a run sent without pausing."""
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] | None = None
    """``time.sleep`` unless given (looked up when pausing)."""
    writes: int = field(default=0, init=False)
    slept: float = field(default=0.0, init=False)
    """Seconds paused so far (reported in the job summary)."""
    _last_end: float | None = field(default=None, init=False)

    def wait_before_write(self) -> float:
        """How long the next write must wait (0 within the burst)."""
        if self.interval <= 0 or self._last_end is None or self.writes < self.burst:
            return 0.0
        return max(self._last_end + self.interval - self.clock(), 0.0)

    @contextmanager
    def write(self) -> Iterator[None]:
        """Wrap one write request: pause if needed, then record when it ended."""
        pause = self.wait_before_write()
        if pause > 0:
            (self.sleep or time.sleep)(pause)
            self.slept += pause
        try:
            yield
        finally:
            self.writes += 1
            self._last_end = self.clock()
