"""The lifecycle labels: an RFD's status as a label on its PR and its tracking issue.

``rfd: discussion``, ``rfd: accepted``, … say where an RFD stands in any list of
issues or pull requests.  They are separate from the trigger labels
(``rfd:review``, ``rfd:accept``), which start a run and are taken off after it.
Pure: which labels to add and which to take off; the forge does the writing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.model.status import Status

PREFIX = "rfd: "
AUTO_COLOR = "ededed"
"""The grey GitHub gives a label it creates because an issue was labelled with it."""

COLORS = {
    Status.DRAFT: "c5def5",
    Status.DISCUSSION: "fbca04",
    Status.ACCEPTED: "0e8a16",
    Status.IMPLEMENTED: "5319e7",
    Status.ABANDONED: "6a737d",
    Status.SUPERSEDED: "bfd4f2",
}
DESCRIPTION = "RFD status, kept by rfd-bot: {status}"


def label_of(status: Status) -> str:
    """``rfd: accepted`` — in the repository's word when it has one (``rfd: published``)."""
    from bot.model.status import word_for

    return f"{PREFIX}{word_for(status, None, lower=True).lower()}"


def status_of(label: str) -> Status | None:
    """The status a lifecycle label names (None for any other label); rfd's own names are
    still read in a repository with its own words, so their labels are replaced."""
    if not label.startswith(PREFIX):
        return None
    found = next((s for s in Status if label_of(s) == label), None)
    return found or next((s for s in Status if f"{PREFIX}{s.value.lower()}" == label), None)


@dataclass(frozen=True)
class LabelChanges:
    add: tuple[str, ...]
    remove: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.add or self.remove)


def changes(current: Iterable[str], statuses: Iterable[Status]) -> LabelChanges:
    """What makes ``current`` carry exactly the labels of ``statuses`` (others untouched)."""
    have = {name for name in current if status_of(name) is not None}
    want = {label_of(s) for s in statuses}
    return LabelChanges(tuple(sorted(want - have)), tuple(sorted(have - want)))


def style(label: str) -> tuple[str, str] | None:
    """``(color, description)`` the bot gives a lifecycle label it created."""
    status = status_of(label)
    if status is None:
        return None
    return COLORS[status], DESCRIPTION.format(status=status.value)
