"""One conversation with a model: send, run the tools it asks for, repeat until it answers.

:func:`run` is the tool loop.  The result is the text of the last assistant message that
has any (seed 000's response extraction, :func:`final_text`).  Turn events go on the
bus; every call's usage goes to the ledger hook and to the step's
:class:`~bot.llm.guard.Meter`, which stops the step cleanly past its budget
(:func:`charge`).  An empty first reply is asked again (at most twice); an empty reply
after tool calls simply ends the turn.

:func:`answer` is the forced answer, for steps whose model proposes rather than acts
(refine answers ``submit_revision``): one call instead of a tool loop, with the loop's
bookkeeping — the ``turn.*`` events, an empty reply asked again (at most twice), every
attempt charged to the step's ledger and budget.  The answer is data (JSON), so it is
not streamed to the terminal: the step shows what it made of it.

:func:`material` builds a step's opening messages: documents as data, then the task.
Instructions live in the prompt templates (system prompt and task).  The documents (the
RFD, reviews, research...) come first, each wrapped as data by the templates, with a
cache breakpoint after the last one: every later call of the step — the next tool
cycle, the next pass — reads that prefix from the prompt cache.

:func:`answered` offers finished work to the ``result.ready`` interceptors (judges)
before the step moves on.  Each message an interceptor appends to ``feedback`` goes back
into the same conversation as a user message, and the model answers it (it may fix
things with its tools) before the step goes to the next item or pass.  A judge's own
model calls are recorded in the step's usage ledger and count against the step's budget.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.agent.toolbox.calls import CallRunner
from bot.agent.toolbox.catalog import spec
from bot.ai.query import before_query, before_request, complete
from bot.core.redact import SecretValues
from bot.events import (
    EventBus,
    Notice,
    ResultReady,
    TurnAborted,
    TurnComplete,
    TurnCycleComplete,
    TurnStarted,
)
from bot.llm import outgoing
from bot.llm.base import (
    LLM,
    Message,
    PaidError,
    Reply,
    Request,
    ToolResult,
    Usage,
    assistant_message,
)
from bot.llm.guard import CUT_OFF, EMPTY_RETRIES, Budget, Meter, is_cut_off, is_empty, retry_empty
from bot.llm.pricing import cost

UsageHook = Callable[[str, Usage], None]
"""Called with (model, usage) after every model call (the usage ledger)."""


class Stop(enum.Enum):
    END = "end"
    """The model answered without asking for a tool."""
    MAX_TURNS = "max_turns"
    EMPTY = "empty"
    """Only empty replies, even after the retries."""


@dataclass(frozen=True)
class Conversation:
    """How to run one conversation: model, system prompt, tools, limits."""

    llm: LLM
    bus: EventBus
    calls: CallRunner
    model: str
    system: str
    max_turns: int = 30
    max_tokens: int = 8192
    meter: Meter = field(default_factory=lambda: Meter(Budget("agent")))
    on_text: Callable[[str], None] | None = None
    on_usage: UsageHook | None = None
    final_tool: str = ""
    """A tool that ends the conversation once it ran without error (implement's
    ``submit_item_result``): the model is not asked again after it."""
    secrets: SecretValues | None = None
    """The secret values no request may hold (:mod:`bot.llm.outgoing`; default: the
    process environment's)."""

    @property
    def step(self) -> str:
        return self.calls.step.value


@dataclass(frozen=True)
class LoopResult:
    text: str
    """The final assistant message."""
    messages: tuple[Message, ...]
    """The whole exchange, to continue it with the person's next message."""
    usage: Usage
    cycles: int
    tool_calls: int
    stop: Stop
    cut_off: bool = False
    """The last answer stopped at ``max_tokens``: it is incomplete."""


def run(
    conv: Conversation, messages: Sequence[Message], *, progress: list[Message] | None = None
) -> LoopResult:
    """Run the conversation from ``messages`` until the model answers (or a limit).

    ``progress``, when given, is kept equal to the exchange so far: what a caller can
    still save when the run is cut short (a timeout, Ctrl-C)."""
    rfd_id = conv.calls.rfd_id
    work = [] if progress is None else progress
    work[:] = before_query(conv.bus, messages, step=conv.step, model=conv.model, rfd_id=rfd_id)
    conv.bus.emit(TurnStarted(rfd_id=rfd_id, step=conv.step, model=conv.model))
    try:
        return _cycles(conv, work)
    except BaseException as exc:  # budget, provider, Ctrl-C...: observers hear why, then it goes on
        reason = str(exc) or type(exc).__name__
        conv.bus.emit(TurnAborted(rfd_id=rfd_id, step=conv.step, reason=reason))
        raise


def _cycles(conv: Conversation, messages: list[Message]) -> LoopResult:
    usage, calls, spent = Usage(), 0, Spent()
    for cycle in range(1, conv.max_turns + 1):
        reply = _ask_model(conv, messages, retry=calls == 0)
        usage = usage + reply.usage
        spent.add(reply.model or conv.model, reply.usage)
        messages.append(assistant_message(reply))
        conv.bus.emit(
            TurnCycleComplete(
                rfd_id=conv.calls.rfd_id, step=conv.step, stop_reason=reply.stop_reason
            )
        )
        if is_cut_off(reply):
            say_cut_off(conv)
        if not reply.tool_calls:
            stop = Stop.EMPTY if is_empty(reply) and calls == 0 else Stop.END
            return _finish(conv, messages, usage, spent, cycle, calls, stop, is_cut_off(reply))
        results = tuple(conv.calls.run(call, reply.text) for call in reply.tool_calls)
        calls += len(results)
        messages.append(Message("user", tool_results=results, cache=True))
        if _ended(conv, reply, results):
            return _finish(conv, messages, usage, spent, cycle, calls, Stop.END)
    reason = f"stopped after {conv.max_turns} model calls without a final answer"
    conv.bus.emit(TurnAborted(rfd_id=conv.calls.rfd_id, step=conv.step, reason=reason))
    return _finish(conv, messages, usage, spent, conv.max_turns, calls, Stop.MAX_TURNS)


def _ended(conv: Conversation, reply: Reply, results: Sequence[ToolResult]) -> bool:
    """Did the model call the conversation's final tool, and did the call go through?"""
    ids = {c.id for c in reply.tool_calls if conv.final_tool and c.name == conv.final_tool}
    return any(r.call_id in ids and not r.is_error for r in results)


def say_cut_off(conv: Conversation) -> None:
    key = conv.calls.step.config_key
    message = CUT_OFF.format(step=conv.step, limit=conv.max_tokens, key=key)
    conv.bus.emit(Notice(rfd_id=conv.calls.rfd_id, message=message, level="warning"))


def _ask_model(conv: Conversation, messages: list[Message], *, retry: bool) -> Reply:
    request = Request(
        model=conv.model,
        system=conv.system,
        messages=tuple(messages),
        tools=tuple(spec(t) for t in conv.calls.tools),
        max_tokens=conv.max_tokens,
    )
    spent = Usage()  # every attempt is paid for: the result counts them as the ledger does
    for _ in range(EMPTY_RETRIES if retry else 0):
        reply = _complete(conv, request)
        spent = spent + reply.usage
        if not is_empty(reply):
            return replace(reply, usage=spent)
    reply = _complete(conv, request)
    return replace(reply, usage=spent + reply.usage)


def _complete(conv: Conversation, request: Request) -> Reply:
    outgoing.check(request, conv.secrets)
    reply = paid(conv, lambda: complete(conv.bus, conv.llm, request, **_told(conv)))
    charge(conv, reply.model or conv.model, reply.usage)
    return reply


def _told(conv: Conversation) -> dict[str, Any]:
    return {"step": conv.step, "rfd_id": conv.calls.rfd_id, "on_text": conv.on_text}


def paid(conv: Conversation, call: Callable[[], Reply]) -> Reply:
    """``call()``; a billed reply that cannot be used is charged before its error goes on."""
    try:
        return call()
    except PaidError as exc:
        charge(conv, exc.model or conv.model, exc.usage)
        raise


def charge(conv: Conversation, model: str, usage: Usage) -> None:
    """Record one model call of this conversation's step in the ledger and its budget."""
    if conv.on_usage is not None:
        conv.on_usage(model, usage)  # recorded even when it ends the step
    conv.meter.charge(usage, cost(model, usage))


@dataclass
class Spent:
    """The cost of a conversation's calls, each priced as the model that answered it."""

    usd: float = 0.0

    def add(self, model: str, usage: Usage) -> None:
        self.usd += cost(model, usage) or 0.0


def _finish(
    conv: Conversation,
    messages: list[Message],
    usage: Usage,
    spent: Spent,
    cycles: int,
    calls: int,
    stop: Stop,
    cut_off: bool = False,
) -> LoopResult:
    text = final_text(messages)
    conv.bus.emit(
        TurnComplete(
            rfd_id=conv.calls.rfd_id,
            step=conv.step,
            text=text,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cost_usd=spent.usd,
        )
    )
    return LoopResult(text, tuple(messages), usage, cycles, calls, stop, cut_off)


def final_text(messages: Sequence[Message]) -> str:
    """The text of the last assistant message that has any."""
    for message in reversed(messages):
        if message.role == "assistant" and message.text.strip():
            return message.text.strip()
    return ""


def answer(conv: Conversation, request: Request) -> Reply:
    """The model's reply to ``request``, sent on ``conv``'s model, bus and budget."""
    rfd_id = conv.calls.rfd_id
    request = before_request(conv.bus, request, step=conv.step, rfd_id=rfd_id)
    conv.bus.emit(TurnStarted(rfd_id=rfd_id, step=conv.step, model=conv.model))
    try:
        reply = retry_empty(lambda: _complete_answer(conv, request))
    except BaseException as exc:  # budget, provider, Ctrl-C...: observers hear why
        reason = str(exc) or type(exc).__name__
        conv.bus.emit(TurnAborted(rfd_id=rfd_id, step=conv.step, reason=reason))
        raise
    conv.bus.emit(TurnCycleComplete(rfd_id=rfd_id, step=conv.step, stop_reason=reply.stop_reason))
    if is_cut_off(reply):
        say_cut_off(conv)
    u = reply.usage
    conv.bus.emit(
        TurnComplete(
            rfd_id=rfd_id,
            step=conv.step,
            text=reply.text,
            input_tokens=u.input_tokens,
            output_tokens=u.output_tokens,
            cost_usd=cost(reply.model or conv.model, u) or 0.0,
        )
    )
    return reply


def _complete_answer(conv: Conversation, request: Request) -> Reply:
    outgoing.check(request, conv.secrets)
    reply = paid(
        conv,
        lambda: complete(conv.bus, conv.llm, request, step=conv.step, rfd_id=conv.calls.rfd_id),
    )
    charge(conv, reply.model or conv.model, reply.usage)
    return reply


def material(
    documents: Sequence[str],
    task: str,
    notes: str = "",
    *,
    shared: int = 0,
    task_cached: bool = False,
) -> tuple[Message, ...]:
    """One user message per document (cached prefix), then the task and the person's words.

    ``shared``: the first ``shared`` documents end a prefix an earlier conversation
    cached; a breakpoint after them too lets this one read it.  ``task_cached``: a
    breakpoint after the task as well (staged prompts carry their instructions there, and
    the next tool cycle should read them from the cache)."""
    docs = [Message("user", d.rstrip()) for d in documents if d]
    for end in {shared, len(docs)} - {0}:
        docs[end - 1] = Message("user", docs[end - 1].text, cache=True)
    request = "\n\n".join(t.strip() for t in (task, notes) if t.strip())
    return (*docs, Message("user", request, cache=task_cached))


def answered(conv: Conversation, result: LoopResult, event: ResultReady) -> LoopResult:
    """``result``, or the model's answer to the feedback the interceptors gave on it.

    What a judge spends on its own model calls is charged to this conversation's step.
    """
    event = dataclasses.replace(event, charge=functools.partial(charge, conv))
    feedback = conv.bus.intercept(event).feedback
    if not feedback:
        return result
    return run(conv, (*result.messages, *(Message("user", text) for text in feedback)))
