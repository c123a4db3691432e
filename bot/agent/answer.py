"""One forced answer inside an agent step: a single model call that answers with data.

Steps whose model proposes rather than acts (refine answers ``submit_revision``) make
one call instead of a tool loop, with the loop's bookkeeping: the ``turn.*`` events,
an empty reply asked again (at most twice), every attempt charged to the step's
ledger and budget (:func:`bot.agent.loop.charge`).  The answer is data (JSON), so it is
not streamed to the terminal: the step shows what it made of it.
"""

from __future__ import annotations

from bot.agent.loop import Conversation, charge, paid, say_cut_off
from bot.ai.query import before_request, complete
from bot.events import TurnAborted, TurnComplete, TurnCycleComplete, TurnStarted
from bot.llm import outgoing
from bot.llm.base import Reply, Request
from bot.llm.guard import is_cut_off, retry_empty
from bot.llm.pricing import cost


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
