"""Writes to GitHub are paced only between writes, and only past a run's first few."""

from __future__ import annotations

import pytest

from bot.forge.github import WritePacer


class Clock:
    """Time that moves only when the pacer sleeps or the test says a request took time."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


def run(pacer: WritePacer, clock: Clock, writes: int, between: float = 0.0) -> list[float]:
    """Make ``writes`` writes, ``between`` seconds of other work apart; the pauses taken."""
    for _ in range(writes):
        with pacer.write():
            clock.now += 0.1  # the request itself
        clock.now += between
    return clock.sleeps


def pacer(clock: Clock, interval: float = 1.0, burst: int = 4) -> WritePacer:
    return WritePacer(interval, burst, clock=clock, sleep=clock.sleep)


def test_an_event_of_four_writes_never_pauses() -> None:
    clock = Clock()
    assert run(pacer(clock), clock, 4) == []


@pytest.mark.parametrize("burst", [0, 1])
def test_the_first_write_never_waits_and_the_last_is_not_followed_by_a_pause(burst: int) -> None:
    clock = Clock()
    assert run(pacer(clock, burst=burst), clock, 3) == [1.0, 1.0]  # between 1–2 and 2–3 only


def test_past_the_burst_writes_are_spaced_from_the_end_of_the_previous_one() -> None:
    clock = Clock()
    paced = pacer(clock, burst=2)
    assert run(paced, clock, 5, between=0.3) == [0.7, 0.7, 0.7]
    assert paced.slept == pytest.approx(2.1)


def test_a_long_run_stays_under_githubs_content_creation_limit() -> None:
    clock, starts = Clock(), []
    paced = pacer(clock)
    for _ in range(200):
        with paced.write():
            starts.append(clock.now)
            clock.now += 0.05
    busiest = max(sum(1 for s in starts if t <= s < t + 60) for t in starts)
    assert busiest < 80  # GitHub: at most 80 content-creating requests a minute


def test_zero_interval_never_pauses() -> None:
    clock = Clock()
    assert run(pacer(clock, interval=0, burst=0), clock, 10) == []


def test_a_failed_write_counts_as_a_write() -> None:
    clock = Clock()
    paced = pacer(clock, burst=1)
    with pytest.raises(RuntimeError), paced.write():
        raise RuntimeError("502")
    with paced.write():
        pass
    assert clock.sleeps == [1.0]
