"""The decisions of one RFD as values: each decision (numbered, never renumbered), the
rejected ones with their reasons, and the actions and statuses that change them.

The format of ``decisions.md`` and the edits are in :mod:`bot.model.decisions`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Action(Enum):
    ADD = "add"
    UPDATE = "update"
    REJECT = "reject"


class DecisionStatus(Enum):
    LOCKED = "locked"
    DISCUSSING = "discussing"


@dataclass(frozen=True)
class Decision:
    number: int
    text: str


@dataclass(frozen=True)
class Rejected:
    text: str
    reason: str
    number: int | None = None


@dataclass(frozen=True)
class Decisions:
    title: str = ""
    locked: tuple[Decision, ...] = ()
    discussing: tuple[Decision, ...] = ()
    rejected: tuple[Rejected, ...] = ()
    rfd: str = ""
    """The RFD id shown in the heading (``D32``, ``045``)."""

    @property
    def next_number(self) -> int:
        numbers = [d.number for d in (*self.locked, *self.discussing)]
        numbers += [r.number for r in self.rejected if r.number is not None]
        return max(numbers, default=0) + 1
