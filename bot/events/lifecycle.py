"""What happens to an RFD: created, renumbered, its status changing, reviews, plans, phases,
its tracking issue, comments, notices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from bot.forge.base import Issue

from bot.events.base import Event

# ----------------------------------------------------------------- lifecycle (informational)


@dataclass(frozen=True, kw_only=True)
class RfdCreated(Event):
    name: ClassVar[str] = "rfd.created"
    path: str
    title: str


@dataclass(frozen=True, kw_only=True)
class RfdRenumbered(Event):
    name: ClassVar[str] = "rfd.renumbered"
    old_id: str
    old_path: str
    new_path: str


@dataclass(frozen=True, kw_only=True)
class StatusChanging(Event):
    """Before a status change is written: interceptors may veto it (raise Aborted)."""

    name: ClassVar[str] = "status.changing"
    interceptable: ClassVar[bool] = True
    old: str
    new: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class StatusChanged(Event):
    name: ClassVar[str] = "status.changed"
    old: str
    new: str
    path: str
    reason: str = ""
    old_word: str = ""
    """The status as the file wrote it (``discussion``), when the repository has its own words."""
    new_word: str = ""


@dataclass(frozen=True, kw_only=True)
class ReviewSaved(Event):
    name: ClassVar[str] = "review.saved"
    path: str
    kind: str  # "design" | "implementation"
    provider: str
    findings: int
    body: str = ""


@dataclass(frozen=True, kw_only=True)
class ReviewsDismissed(Event):
    name: ClassVar[str] = "review.dismissed"
    paths: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class PlanExtracted(Event):
    name: ClassVar[str] = "plan.extracted"
    phases: tuple[str, ...]
    method: str  # "deterministic" | "model"


@dataclass(frozen=True, kw_only=True)
class PhaseCompleted(Event):
    name: ClassVar[str] = "phase.completed"
    number: int
    title: str
    label: str = ""
    """The phase's label in the RFD (``3a``); its position when it has none."""
    summary_path: str
    done: int
    total: int


@dataclass(frozen=True, kw_only=True)
class PhaseFailed(Event):
    name: ClassVar[str] = "phase.failed"
    number: int
    title: str
    label: str = ""
    """The phase's label in the RFD (``3a``); its position when it has none."""
    reason: str


@dataclass(frozen=True, kw_only=True)
class TrackingDue(Event):
    """The RFD's tracking issue must follow what just happened (accept, a phase, the end).

    Interceptable, because the update is part of the step, not an observation of it: the
    forge answers it synchronously (returning the event with ``issue`` set), and what the
    forge raises is the step's error — reported, never swallowed.
    """

    name: ClassVar[str] = "tracking.due"
    interceptable: ClassVar[bool] = True
    cause: str
    """What calls for the update: ``accepted``, ``phase.completed``, ``Implemented``…"""
    issue: Issue | None = field(default=None, metadata={"payload": False})
    """The issue as the forge left it (``tracking.updated`` reports it to observers)."""


@dataclass(frozen=True, kw_only=True)
class TrackingIssueUpdated(Event):
    name: ClassVar[str] = "tracking.updated"
    number: int
    url: str
    created: bool
    closed: bool = False


@dataclass(frozen=True, kw_only=True)
class CommentPosted(Event):
    name: ClassVar[str] = "comment.posted"
    target: int
    url: str
    created: bool


@dataclass(frozen=True, kw_only=True)
class Notice(Event):
    """A line of progress for the user ("Working on step 3 of 12: ...")."""

    name: ClassVar[str] = "notice"
    message: str
    level: str = "info"  # "info" | "warning" | "success"
