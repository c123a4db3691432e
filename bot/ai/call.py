"""What every single-call AI step does around ``llm.complete``.

1. render the step's template through the override chain;
2. put the documents first, as data, with cache breakpoints after the stable ones
   (system prompt + RFD + reviews), so a second call reads them from the cache;
3. fit everything into ``provider.context_tokens`` (visible truncation, notices);
4. refuse to start past the step's budget, retry an empty reply, record the usage
   in the RFD's ledger and return the reply with its cost;
5. put the call on the bus as the loops do (``turn.started``, ``turn.cycle_complete``,
   ``turn.complete`` — or ``turn.aborted`` with the reason), so the spinner, the event
   log and plugins see every model call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core.errors import BudgetExceeded, ProviderError
from bot.llm import outgoing
from bot.llm.base import Message, PaidError, Reply, Request, ToolSpec, Usage
from bot.llm.guard import CUT_OFF, Budget, Part, estimate_tokens, fit, is_cut_off, retry_empty

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace

RESERVED_TOKENS = 1024
"""Room kept for the reply when the step's budget also caps ``max_tokens``."""


@dataclass(frozen=True)
class Doc:
    """A document given to the model; ``cache``: a cache breakpoint follows it."""

    label: str
    text: str
    cache: bool = False


@dataclass(frozen=True)
class Called:
    reply: Reply
    model: str
    cost_usd: float | None


def build(
    ws: Workspace,
    *,
    step: str,
    template: str,
    context: dict[str, Any],
    docs: Sequence[Doc],
    model: str,
    tool: ToolSpec | None = None,
) -> tuple[Request, tuple[str, ...]]:
    """The request of one step, and the notices of what had to be cut to fit."""
    prompts = ws.prompts()
    rendered = prompts.render(template, **context)
    parts = [Part("system prompt", rendered.system, cuttable=False)]
    parts += [Part(d.label, d.text) for d in docs]
    parts.append(Part("task", rendered.task, cuttable=False))
    texts, notices = fit(parts, ws.config.provider.context_tokens)
    messages = [
        Message("user", prompts.document(d.label, text), cache=d.cache)
        for d, text in zip(docs, texts[1:-1], strict=True)
    ]
    messages.append(Message("user", rendered.task))
    request = Request(
        model=model,
        system=rendered.system,
        messages=tuple(messages),
        tools=(tool,) if tool else (),
        tool_choice=tool.name if tool else None,
        max_tokens=getattr(ws.config.steps, step).max_tokens,
    )
    return request, notices


def call(ws: Workspace, request: Request, *, step: str, rfd_id: Any) -> Called:
    """Run ``request`` within the step's budget and record its usage in the ledger."""
    from bot.ai.query import before_request
    from bot.events import TurnAborted, TurnStarted

    request = within_budget(request, Budget.from_config(ws.config, step))
    key = "" if rfd_id is None else str(rfd_id)
    request = before_request(ws.bus, request, step=step, rfd_id=key)
    ws.bus.emit(TurnStarted(rfd_id=key, step=step, model=request.model))
    try:
        return _complete(ws, request, step=step, rfd_id=rfd_id)
    except BaseException as exc:  # provider, empty reply, Ctrl-C...: observers hear why
        reason = str(exc) or type(exc).__name__
        ws.bus.emit(TurnAborted(rfd_id=key, step=step, reason=reason))
        raise


def _complete(ws: Workspace, request: Request, *, step: str, rfd_id: Any) -> Called:
    from bot.ai.query import complete
    from bot.events import Notice, TurnComplete, TurnCycleComplete
    from bot.llm.usage import LEDGER, entry, record

    key = "" if rfd_id is None else str(rfd_id)
    llm = ws.llm_for(step, request.model)

    def ledger(model: str, spent: Usage) -> Any:
        item = entry(step, model, spent, at=ws.clock())
        if rfd_id is not None:
            record(lambda line: ws.store.append_line(str(rfd_id), LEDGER, line), item)
        return item

    outgoing.check(request)
    try:
        reply = retry_empty(lambda: complete(ws.bus, llm, request, step=step, rfd_id=key))
    except PaidError as exc:  # billed, but no usable answer: the ledger still counts it
        ledger(exc.model or request.model, exc.usage)
        raise
    model = reply.model or request.model
    item = ledger(model, reply.usage)
    if is_cut_off(reply):
        ws.bus.emit(Notice(rfd_id=key, message=_cut_off(step, request), level="warning"))
    ws.bus.emit(TurnCycleComplete(rfd_id=key, step=step, stop_reason=reply.stop_reason))
    u = reply.usage
    ws.bus.emit(
        TurnComplete(
            rfd_id=key,
            step=step,
            text=reply.text,
            input_tokens=u.input_tokens,
            output_tokens=u.output_tokens,
            cost_usd=item.cost_usd or 0.0,
        )
    )
    return Called(reply=reply, model=model, cost_usd=item.cost_usd)


def _cut_off(step: str, request: Request) -> str:
    return CUT_OFF.format(step=step, limit=request.max_tokens, key=step)


def within_budget(request: Request, budget: Budget) -> Request:
    """``request`` with ``max_tokens`` capped by the token budget; BudgetExceeded up front
    (ConfigError when a dollar budget cannot be counted: the model has no price)."""
    from bot.llm.pricing import cost

    budget.require_price(request.model)
    texts = [request.system, *(m.text for m in request.messages)]
    prompt = sum(estimate_tokens(t) for t in texts)
    estimate = Usage(input_tokens=prompt)
    try:
        budget.check(estimate, cost(request.model, estimate))
    except BudgetExceeded as exc:
        raise BudgetExceeded(
            f"not started: the prompt alone (~{prompt:,} tokens) is over budget — {exc.message}",
            hint=exc.hint,
        ) from None
    if budget.tokens:
        room = max(budget.tokens - prompt, RESERVED_TOKENS)
        request = dataclasses.replace(request, max_tokens=min(request.max_tokens, room))
    return request


def tool_input(reply: Reply, tool: str) -> dict[str, Any]:
    """The arguments of the forced tool call, or ProviderError when the model did not call it."""
    for c in reply.tool_calls:
        if c.name == tool:
            return dict(c.arguments)
    got = ", ".join(c.name for c in reply.tool_calls) or "text only"
    raise ProviderError(
        f"the model did not call `{tool}` (got {got}, stop reason {reply.stop_reason or '?'})",
        hint="retry, or choose another model with --model",
    )
