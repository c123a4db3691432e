"""Refine during implementation: the code changes the implementation reviews ask for.

Seed 000 lets ``refine`` follow the RFD's stage: in Discussion it revises the document
(:mod:`bot.agent.authoring.refine`); once the RFD is Accepted the design is settled and refine works
on the implementation, driven by the reviews in ``impl-reviews/``.  That is one
conversation with implement's tool set (read, write, edit, allowed commands), seeing
the RFD, the summaries of the phases done, the diff since acceptance and the reviews; it
ends with ``submit_item_result`` like an implement item.  Its result has the shape of a
refine pass, so the CLI reports it (and offers to dismiss the reviews) the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.agent.authoring.refine import Focus, RefinePass, RefineResult, ReviewText, StopReason
from bot.agent.conversation.loop import Conversation, LoopResult, Stop, run
from bot.agent.conversation.session import Session, Staged
from bot.agent.implementation import item_result
from bot.agent.implementation.item import STOPS
from bot.agent.toolbox.base import Step
from bot.agent.toolbox.files import recorded_diff
from bot.ai.steer import steered_text
from bot.core.errors import BudgetExceeded, ProviderError, ValidationError
from bot.events import Notice
from bot.llm.guard import Meter, require_input

NO_REVIEWS = "RFD {rid} has no active implementation review to refine from"
NO_REVIEWS_HINT = "review the implementation first: `rfd review {rid}`"
UNFINISHED = "the implementation refine did not finish ({why}); the files it changed are kept"


def refine_implementation(
    session: Session,
    rfd_text: str,
    reviews: Sequence[ReviewText],
    context: Sequence[tuple[str, str]] = (),
) -> RefineResult:
    """Address ``reviews`` in the code; ``context``: phase summaries and the diff, as
    ``(label, text)`` documents shown between the RFD and the reviews."""
    if not reviews:
        rid = session.event_id
        raise ValidationError(NO_REVIEWS.format(rid=rid), hint=NO_REVIEWS_HINT.format(rid=rid))
    require_input(rfd_text, f"RFD {session.rfd_path or session.event_id}")
    meter = session.meter(Step.REFINE)
    prompt = session.prompt("refine_impl", review_count=len(reviews))
    if session.steer is not None:  # --edit: the task as the person saved it
        prompt = Staged(prompt.system, steered_text(prompt.task, session.steer))
    docs = [(f"RFD {session.rfd_path}", rfd_text), *context]
    docs += [(f"implementation review {r.path}", r.text) for r in reviews]
    conversation = _conversation(session, prompt.system, meter)
    stop, reply, warning = StopReason.CONVERGED, "", ""
    try:
        result = run(conversation, session.opening(prompt, docs))
        reply, why = _verdict(result)
    except (ProviderError, TimeoutError, KeyboardInterrupt) as exc:
        why = str(exc) or type(exc).__name__
    except BudgetExceeded:
        stop, why = StopReason.BUDGET, meter.reached()
    if why:
        stop = stop if stop is StopReason.BUDGET else StopReason.INTERRUPTED
        warning = UNFINISHED.format(why=why)
        session.bus.emit(Notice(rfd_id=session.event_id, message=warning, level="warning"))
    ctx = conversation.calls.ctx
    diff = recorded_diff(ctx, ctx.originals)
    files = tuple(sorted(ctx.originals))
    step = RefinePass(1, Focus.IMPLEMENTATION, diff, files, reply, meter.usage)
    names = tuple(r.path for r in reviews)
    return RefineResult((step,), names, stop, meter.usage, meter.cost_usd, warning)


def _conversation(session: Session, system: str, meter: Meter) -> Conversation:
    """Implement's tools and limits, on refine's model, budget and ledger line."""
    conversation = session.conversation(Step.IMPLEMENT, system, meter)
    key = Step.REFINE.config_key
    route = session.llm_for
    model = session.config.model_for(key, session.model)
    return dataclasses.replace(
        conversation,
        model=model,
        llm=session.llm if route is None else route(key, session.model),
        on_usage=session.record_usage(Step.REFINE),
    )


def _verdict(result: LoopResult) -> tuple[str, str]:
    """(what the model says it did, why it is not finished — ``""`` when it is)."""
    text = result.text
    if result.stop is not Stop.END:
        return text, STOPS[result.stop]
    if result.cut_off:
        return text, item_result.CUT_OFF
    claim = item_result.claim(result.messages)
    if claim is None:
        return text, item_result.NO_RESULT
    notes = "\n\n".join(p for p in (text.strip(), claim.summary.strip()) if p)
    return notes, "" if claim.done else f"the model reports it failed: {claim.reason}"
