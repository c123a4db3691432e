"""One implement item: a fresh conversation, the model's verdict, the repository's check.

An item is done only when both say so: the model ends it with ``submit_item_result``
``done`` (:mod:`bot.agent.item_result`) and ``implement.verify`` passes
(:mod:`bot.agent.verify`).  Anything else — a ``failed`` verdict, no verdict, an answer
cut off at ``max_tokens``, a failing check, a provider error — is a failure: the item
is tried once more with the failure (and the check's output) in view, then marked
``[!] … [Failed: reason]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.agent import item_result
from bot.agent.commands import UNISOLATED
from bot.agent.context import Step
from bot.agent.feedback import answered
from bot.agent.files import recorded_diff
from bot.agent.loop import LoopResult, Stop, run
from bot.agent.permission import Choice, Mode
from bot.agent.phase_work import PhaseWork
from bot.agent.session import Rendered, Session
from bot.agent.verify import Confirm, verify
from bot.core.errors import ProviderError
from bot.events import ResultReady
from bot.llm.guard import Meter
from bot.model import checklist

STOPS = {Stop.MAX_TURNS: "ran out of turns before finishing", Stop.EMPTY: "empty answers"}
REPORTED = "the model reports it failed: {reason}"
NO_REASON = "no reason given"
CHECK = "implement.verify"
"""What the person is asked about when the check cannot run isolated."""


@dataclass(frozen=True)
class Outcome:
    """How an item ended: its status, the one-line reason of a failure, what to save."""

    status: checklist.ItemStatus
    reason: str
    text: str


@dataclass(frozen=True)
class Task:
    """The item to do, and what its conversation sees."""

    work: PhaseWork
    research: str
    items: str
    item: checklist.Item
    verify: str
    """The check to run after it (``""``: none)."""


def attempt(session: Session, meter: Meter, task: Task) -> Outcome:
    """Run one item, retrying once with the failure in view."""
    reason, detail, text = "", "", ""
    originals: dict[str, str] = {}  # what the item's writes replaced, over both attempts
    for _ in range(2):
        prompt = _prompt(session, task, detail)
        docs = task.work.documents(session, ("research", task.research), ("plan", task.items))
        conversation = session.conversation(Step.IMPLEMENT, prompt.system, meter)
        conversation.calls.ctx.originals.update(originals)
        originals = conversation.calls.ctx.originals
        try:
            result = run(conversation, session.opening(prompt, docs))
            if result.stop is Stop.END and not result.cut_off:
                diff = recorded_diff(conversation.calls.ctx, originals)
                result = answered(conversation, result, _ready(session, task, result, diff))
        except (ProviderError, TimeoutError) as exc:
            reason = detail = str(exc)
            continue
        text = _text(result)
        reason, detail = _judged(session, task, result)
        if not reason:
            return Outcome(checklist.ItemStatus.DONE, "", text)
    reason = item_result.one_line(reason)  # it lands in the checklist line
    saved = f"Failed: {reason}\n\n{text}" if text else f"Failed: {reason}"
    return Outcome(checklist.ItemStatus.FAILED, reason, saved)


def _prompt(session: Session, task: Task, failure: str) -> Rendered:
    count = len(checklist.parse(task.items).items)
    return session.prompt(
        "implement_item",
        item_number=task.item.number,
        item_count=count,
        item_label=task.item.label,
        previous_failure=failure,
        verify_command=task.verify,
        **task.work.variables(),
    )


def _judged(session: Session, task: Task, result: LoopResult) -> tuple[str, str]:
    """``("", "")`` when the item is done; else the one-line reason and what the retry sees."""
    if result.stop is not Stop.END:
        return STOPS[result.stop], STOPS[result.stop]
    if result.cut_off:
        return item_result.CUT_OFF, item_result.CUT_OFF
    claim = item_result.claim(result.messages)
    if claim is None:
        return item_result.NO_RESULT, item_result.NO_RESULT
    if not claim.done:
        reason = REPORTED.format(reason=claim.reason or NO_REASON)
        return reason, reason
    if not task.verify:
        return "", ""
    verdict = verify(session.tool_context(), task.verify, _confirm(session))
    if verdict.passed:
        return "", ""
    return verdict.reason, f"{verdict.reason}; the end of its output:\n{verdict.detail}"


def _confirm(session: Session) -> Confirm | None:
    """The person who may let the check run where nothing isolates (never with nobody to
    ask, as for the model's commands)."""
    prompter = session.prompter
    if prompter is None or session.mode is Mode.CONFINED:
        return None

    def ask(line: str) -> bool:
        preview = f"{UNISOLATED}\n$ {line}"
        answer = prompter.approve(CHECK, {"command": line}, preview)
        return answer.choice is Choice.YES

    return ask


def _text(result: LoopResult) -> str:
    """What the item saves: the model's final message and its result's summary."""
    claim = item_result.claim(result.messages)
    summary = claim.summary.strip() if claim else ""
    parts = [result.text.strip(), summary if summary not in result.text else ""]
    return "\n\n".join(p for p in parts if p)


def _ready(session: Session, task: Task, result: LoopResult, diff: str) -> ResultReady:
    work = task.work
    return ResultReady(
        rfd_id=session.event_id,
        step=Step.IMPLEMENT.value,
        item=task.item.label,
        result=_text(result),
        phase=f"{work.title}\n\n{work.description}",
        document=work.rfd_text,
        diff=diff,
    )
