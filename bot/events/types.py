"""The event types: the base of every event (a dotted name, a timestamp, and a payload as
JSON-ready data), what happens in a model call (its turns, the tools it calls,
interceptable, and the result a step is about to hand back), and what happens to an RFD
(created, renumbered, its status changing, reviews, plans, phases, its tracking issue,
comments, notices).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event: a dotted ``name``, a timestamp, and a typed payload."""

    name: ClassVar[str] = "event"
    interceptable: ClassVar[bool] = False
    rfd_id: str = ""
    at: float = field(default_factory=time.time)

    def payload(self) -> dict[str, Any]:
        """The event as JSON-ready data (for logs and webhooks); hooks are left out."""
        out: dict[str, Any] = {"event": self.name}
        for f in fields(self):
            if f.metadata.get("payload", True):
                out[f.name] = _jsonable(getattr(self, f.name))
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "value") and hasattr(value, "name"):  # enums
        return value.value
    return str(value)


if TYPE_CHECKING:
    pass

# --------------------------------------------------------------- LLM turns (informational)


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    name: ClassVar[str] = "turn.started"
    step: str
    model: str


@dataclass(frozen=True, kw_only=True)
class TurnCycleComplete(Event):
    name: ClassVar[str] = "turn.cycle_complete"
    step: str
    stop_reason: str


@dataclass(frozen=True, kw_only=True)
class TurnComplete(Event):
    name: ClassVar[str] = "turn.complete"
    step: str
    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0


@dataclass(frozen=True, kw_only=True)
class TurnAborted(Event):
    name: ClassVar[str] = "turn.aborted"
    step: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class ConversationSaved(Event):
    name: ClassVar[str] = "conversation.saved"
    step: str
    path: str


# ------------------------------------------------------------- queries and responses


@dataclass(frozen=True, kw_only=True)
class QueryBefore(Event):
    """Before a step's conversation (or single call) is sent to the model: interceptors
    may change ``prompt`` — the person's message, the task after the documents — or raise
    Aborted.  A change is shown to the user (a warning naming the plugin), never silent."""

    name: ClassVar[str] = "query.before"
    interceptable: ClassVar[bool] = True
    step: str
    model: str
    prompt: str


@dataclass(frozen=True, kw_only=True)
class ResponseChunk(Event):
    """A copy of each piece of text as it streams in (steps that stream: the authoring
    conversations and implement; single-call steps answer in one piece)."""

    name: ClassVar[str] = "response.chunk"
    step: str
    text: str


@dataclass(frozen=True, kw_only=True)
class ResponseComplete(Event):
    """The whole response of one model call, once it has arrived."""

    name: ClassVar[str] = "response.complete"
    step: str
    model: str
    text: str
    stop_reason: str
    tool_calls: tuple[str, ...] = ()
    """The names of the tools the model asked for, in order."""


# --------------------------------------------------------------------------- tool calls


@dataclass(frozen=True, kw_only=True)
class ToolCallIntercept(Event):
    """Before the permission prompt: modify ``arguments``, raise Aborted(reason), or answer
    the call with a ``result`` of its own (a cache, a policy's canned answer): the tool then
    does not run and nobody is asked; the user is told which plugin answered."""

    name: ClassVar[str] = "tool_call.intercept"
    interceptable: ClassVar[bool] = True
    step: str
    tool: str
    arguments: Mapping[str, Any]
    paths: tuple[str, ...] = ()
    """Repository paths the call writes that its arguments do not name (the dedicated RFD
    tools write the RFD file or its state files): what policies check besides arguments."""
    result: str | None = None
    """Set by an interceptor: what the model gets instead of running the tool."""


@dataclass(frozen=True, kw_only=True)
class ToolCallModified(Event):
    """A plugin changed a tool call's arguments at ``tool_call.intercept``: the record of it."""

    name: ClassVar[str] = "tool_call.modified"
    step: str
    tool: str
    plugin: str
    changes: tuple[str, ...]
    """One line per argument: ``path: "a" → "b"`` (values cut, see bot.agent.toolbox.calls)."""


@dataclass(frozen=True, kw_only=True)
class ToolCallAfter(Event):
    """After execution, before the model sees the result: transform or redact ``result``."""

    name: ClassVar[str] = "tool_call.after"
    interceptable: ClassVar[bool] = True
    step: str
    tool: str
    arguments: Mapping[str, Any]
    result: str
    is_error: bool = False


@dataclass(frozen=True, kw_only=True)
class ToolCallComplete(Event):
    name: ClassVar[str] = "tool_call.complete"
    step: str
    tool: str
    is_error: bool
    seconds: float


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True, kw_only=True)
class ResultReady(Event):
    """A unit of work is done (an implement item, a refine pass): judges may answer it.

    Interceptors return the event with messages appended to ``feedback``; the step adds
    each one to the conversation as a user message and lets the model answer before it
    moves on.  No feedback means nothing to add.
    """

    name: ClassVar[str] = "result.ready"
    interceptable: ClassVar[bool] = True
    step: str
    item: str
    """What was done: the item's label, or ``refine pass 2``."""
    result: str
    """What the model said it did (its closing summary or notes)."""
    phase: str = ""
    """What the work was asked to do: the phase's description (implement), the pass's focus
    (refine)."""
    document: str = ""
    """The RFD text the work answers to."""
    diff: str = ""
    """What the work changed: a unified diff of the files it wrote (capped)."""
    reviews: str = ""
    """The reviews a refine pass addresses (empty otherwise)."""
    feedback: tuple[str, ...] = ()
    charge: Callable[[str, Any], None] | None = field(
        default=None, compare=False, repr=False, metadata={"payload": False}
    )
    """``charge(model, usage)``: a judge's model call goes into the usage ledger and budget
    of the step whose work it judges (raises BudgetExceeded past that budget)."""


if TYPE_CHECKING:
    from bot.forge.base import Issue

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
