"""What happens in a model call: its turns, the tools it calls (interceptable), and the
result a step is about to hand back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    pass

from bot.events.base import Event

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
