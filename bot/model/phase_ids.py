"""Which phase of a plan a name means: the one rule every entry point shares.

A phase is known by its label in the RFD (``0``, ``1``, ``3a``, ``B``); a plan written
without labels numbers its phases 1..N by position.  Its summary is ``phases/<label>.md``;
leading zeros do not matter (``phases/01.md`` is phase ``1``).  What a user types names a
phase by its label only (:func:`named`); for summary files a position number that is no
phase's label still names the phase at that position, so summaries written before plans
kept their labels (``phases/5.md`` for the fifth phase) keep counting.  A phase
titled ``… (optional)`` or ``… (deferred)`` never blocks →Implemented.  Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from bot.core.patterns import lazy

_KEY = lazy(r"^(?:0*(?P<number>[0-9]+)(?P<suffix>[a-z]?)|(?P<letter>[a-z]))$", re.I)
_OPTIONAL = lazy(r"\((?:optional|deferred)\)\s*$", re.I)
SUMMARY_SUFFIX = ".md"


class Phase(Protocol):
    """What this module needs of a phase (``bot.model.plan.PlanPhase``)."""

    @property
    def title(self) -> str: ...

    @property
    def label(self) -> str: ...


def normalize(key: str) -> str | None:
    """The canonical form of a phase name (``01`` → ``1``, ``3A`` → ``3a``, ``b`` → ``B``),
    None when it cannot name a phase."""
    match = _KEY.match(key.strip())
    if match is None:
        return None
    if match["letter"]:
        return match["letter"].upper()
    return match["number"] + match["suffix"].lower()


def file_key(name: str) -> str | None:
    """The phase a summary file name stands for (``01.md`` → ``1``), None for other files."""
    if not name.endswith(SUMMARY_SUFFIX):
        return None
    return normalize(name[: -len(SUMMARY_SUFFIX)])


def label(phase: Phase, position: int) -> str:
    """How users name the phase at ``position`` (1-based): its label, else the position."""
    return normalize(phase.label) or str(position) if phase.label else str(position)


def labels(phases: Sequence[Phase]) -> list[str]:
    return [label(p, n) for n, p in enumerate(phases, start=1)]


def named(phases: Sequence[Phase], key: str) -> int | None:
    """The 1-based position of the phase whose label a user typed (``rfd phase … done 3a``),
    None when no phase has that label: a number that is no label is never a position, so
    ``4`` on a plan labelled ``1, 2, 3a, 3b, 4a`` names nothing."""
    wanted = normalize(key)
    names = labels(phases)
    return names.index(wanted) + 1 if wanted in names else None


def position(phases: Sequence[Phase], key: str) -> int | None:
    """The 1-based position of the phase a summary file ``key`` names, None when it names
    none (a position number that is no label still counts: summaries from before labels)."""
    wanted = normalize(key)
    if wanted is None:
        return None
    names = labels(phases)
    if wanted in names:
        return names.index(wanted) + 1
    if wanted.isdigit() and 1 <= int(wanted) <= len(phases):
        return int(wanted)  # a position that is no label: summaries from before labels
    return None


def done(phases: Sequence[Phase], keys: Iterable[str]) -> set[int]:
    """Positions of the phases named by ``keys`` (e.g. summary file keys); others ignored."""
    found = (position(phases, key) for key in keys)
    return {n for n in found if n is not None}


def optional(phase: Phase) -> bool:
    """An ``(optional)`` or ``(deferred)`` phase: shown, ticked, but never blocking."""
    return bool(_OPTIONAL.search(phase.title))


def missing(phases: Sequence[Phase], completed: Iterable[int]) -> list[int]:
    """Positions of the required phases that are not done yet."""
    have = set(completed)
    return [n for n, p in enumerate(phases, start=1) if n not in have and not optional(p)]
