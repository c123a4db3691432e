"""RFD statuses, the transitions between them, and the promotion gates.

    Draft → Discussion → Accepted → Implemented
      └──────────┴───────────┴──→ Abandoned          (anything not yet Implemented)
                             Accepted, Implemented → Superseded

Gates: an RFD may become Accepted only when every RFD it ``Requires`` is at least
Accepted, and Implemented only when every one of them is Implemented.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.core.errors import GateError, ParseError, TransitionError
from bot.core.text import plural

if TYPE_CHECKING:
    from bot.model.ids import RfdId


class Status(enum.Enum):
    """The status written in an RFD's ``- **Status**:`` line."""

    DRAFT = "Draft"
    DISCUSSION = "Discussion"
    ACCEPTED = "Accepted"
    IMPLEMENTED = "Implemented"
    ABANDONED = "Abandoned"
    SUPERSEDED = "Superseded"

    @classmethod
    def parse(cls, text: str, *, path: str | None = None, line: int | None = None) -> Status:
        """``" accepted "`` → ACCEPTED; ParseError listing the valid statuses otherwise."""
        found = _BY_FOLDED_VALUE.get(text.strip().casefold())
        if found is not None:
            return found
        raise ParseError(
            f"unknown status {text.strip()!r}",
            path=path,
            line=line,
            hint=f"use one of: {', '.join(s.value for s in cls)}",
        )

    @property
    def rank(self) -> int:
        """Position on the main path (Draft 0 … Implemented 3); -1 when off it."""
        return _RANK.get(self, -1)

    @property
    def is_terminal(self) -> bool:
        return not _NEXT[self]

    def __str__(self) -> str:
        return self.value


_BY_FOLDED_VALUE = {s.value.casefold(): s for s in Status}
"""``Status.parse``'s table: one lookup per RFD read, not a loop over the members."""
_RANK = {Status.DRAFT: 0, Status.DISCUSSION: 1, Status.ACCEPTED: 2, Status.IMPLEMENTED: 3}

_NEXT: dict[Status, tuple[Status, ...]] = {
    Status.DRAFT: (Status.DISCUSSION, Status.ABANDONED),
    Status.DISCUSSION: (Status.ACCEPTED, Status.ABANDONED),
    Status.ACCEPTED: (Status.IMPLEMENTED, Status.ABANDONED, Status.SUPERSEDED),
    Status.IMPLEMENTED: (Status.SUPERSEDED,),
    Status.ABANDONED: (),
    Status.SUPERSEDED: (),
}


def allowed_next(status: Status) -> tuple[Status, ...]:
    """The statuses an RFD in ``status`` may move to, main path first."""
    return _NEXT[status]


def check_transition(old: Status, new: Status, *, path: str | None = None) -> None:
    """Raise TransitionError, naming the allowed next steps, unless ``old → new`` is legal."""
    allowed = allowed_next(old)
    if new in allowed:
        return
    if allowed:
        hint = f"from {old} the next step is: {' or '.join(s.value for s in allowed)}"
    else:
        hint = f"{old} is final; write a new RFD instead"
    raise TransitionError(f"cannot move from {old} to {new}", path=path, hint=hint)


def check_gates(
    new: Status, requires: Mapping[RfdId, Status | None], *, path: str | None = None
) -> None:
    """Raise GateError when a required RFD is not far enough along for ``new``."""
    needed = _GATES.get(new)
    if needed is None:
        return
    blocking = tuple(
        _blocker(rfd_id, status, needed)
        for rfd_id, status in sorted(requires.items())
        if status is None or status.rank < needed.rank
    )
    if blocking:
        raise GateError(
            f"cannot move to {new}: {plural(len(blocking), 'required RFD')} not {needed} yet",
            path=path,
            hint=f"promote the RFDs below to {needed} first, or remove them from Requires",
            alternatives=blocking,
        )


_GATES = {Status.ACCEPTED: Status.ACCEPTED, Status.IMPLEMENTED: Status.IMPLEMENTED}


def _blocker(rfd_id: RfdId, status: Status | None, needed: Status) -> str:
    if status is None:
        return f"RFD {rfd_id} does not exist"
    if status is Status.SUPERSEDED:
        return f"RFD {rfd_id} is Superseded: require the RFD that replaced it"
    return f"RFD {rfd_id} is {status} (needs {needed})"
