"""Implement one phase of an accepted RFD: research → plan → one item at a time → summary.

Seed 003's loop.  Research and planning use read-only tools; every checklist item
runs in a fresh conversation with the full tool set, is retried once with the
failure in view, and ends ``[x]`` or ``[!] … [Failed: reason]``.  New items the model
proposes (``- [ ] N. Label``) are appended up to twice the original count.  The
research, the checklist and each item's result are saved under
``implement/<N>/`` in the RFD's state, so an interrupted run resumes at the first
pending item.  The summary is returned; the caller saves it as ``phases/<label>.md``.
Which phase, and what the conversations see of it: :mod:`bot.agent.phase_work`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import checklist
from bot.agent.context import Step, Store
from bot.agent.feedback import answered
from bot.agent.files import recorded_diff
from bot.agent.loop import Stop, run
from bot.agent.phase_work import PhaseWork
from bot.agent.session import Session
from bot.errors import BudgetExceeded, InvalidStructure, ProviderError, ValidationError
from bot.events import Notice, PhaseFailed, ResultReady
from bot.llm.base import Message, Usage
from bot.llm.guard import Meter, require_input
from bot.text import plural

SHARED_SYSTEM = "_implement_system"
"""The system prompt of research and plan (same read-only tools, same model): plan reads
research's cached prefix — tools, system prompt, RFD, earlier summaries, the phase."""
PROGRESS = "Working on step {n} of {total}: {label}"
NO_ITEMS = "the plan has no checklist items (`- [ ] 1. Label`)"
STOPS = {Stop.MAX_TURNS: "ran out of turns before finishing", Stop.EMPTY: "empty answers"}


@dataclass(frozen=True)
class ImplementResult:
    phase: int
    """The phase's position in the plan (1-based)."""
    label: str
    """How users name it (``3a``)."""
    title: str
    summary: str
    items: tuple[checklist.Item, ...]
    dropped: tuple[str, ...]
    """Amendments dropped past the 2x cap."""
    usage: Usage
    cost_usd: float = 0.0

    @property
    def failed(self) -> tuple[checklist.Item, ...]:
        return tuple(i for i in self.items if i.status is checklist.ItemStatus.FAILED)


def implement(
    session: Session, work: PhaseWork, *, restart: bool = False, meter: Meter | None = None
) -> ImplementResult:
    """Run (or resume) the loop for ``work``; BudgetExceeded leaves every artifact consistent
    (the item it stopped in stays pending).  ``meter``: the step's, when the caller made it.

    A phase that ends with failed items, or stops on the budget or a provider error,
    emits ``phase.failed`` (whoever runs it: the CLI, the bot, a plugin sees it).
    """
    try:
        result = _implement(session, work, restart, meter)
    except (BudgetExceeded, ProviderError) as exc:
        _failed(session, work, f"stopped: {exc}")
        raise
    if result.failed:
        reasons = "; ".join(f"{i.number}. {i.label}" for i in result.failed)
        _failed(session, work, f"failed items: {reasons}")
    return result


def _failed(session: Session, work: PhaseWork, reason: str) -> None:
    session.bus.emit(
        PhaseFailed(
            rfd_id=session.event_id, number=work.number, label=work.name, title=work.title,
            reason=reason,
        )
    )  # fmt: skip


def _implement(
    session: Session, work: PhaseWork, restart: bool, meter: Meter | None
) -> ImplementResult:
    store = _store(session)
    require_input(work.rfd_text, f"RFD {session.rfd_path or session.event_id}")
    # refuses an unenforceable budget before any change
    meter = meter or session.meter(Step.IMPLEMENT)
    if restart:
        store.remove_tree(session.rfd_id, work.base)
    research = _artifact(session, work, "research.md", lambda: _research(session, work, meter))
    items = _retry_failed(
        session, _artifact(session, work, "items.md", lambda: _plan(session, work, meter, research))
    )
    items, dropped = _work_items(session, work, meter, research, items)
    summary = _summary(session, work, meter, items)
    final = checklist.parse(items).items
    return ImplementResult(
        work.number, work.name, work.title, summary, final, dropped, meter.usage, meter.cost_usd
    )


def _store(session: Session) -> Store:
    if session.store is None or session.rfd_id is None:
        raise ValidationError("implement needs the RFD's state directory")
    return session.store


def _artifact(session: Session, work: PhaseWork, name: str, make: Callable[[], str]) -> str:
    store = _store(session)
    saved = store.read_text(session.rfd_id, f"{work.base}/{name}")
    if saved is not None:
        return saved
    text = make()
    store.write_text(session.rfd_id, f"{work.base}/{name}", text)
    return text


def _notice(session: Session, message: str, level: str = "info") -> None:
    session.bus.emit(Notice(rfd_id=session.event_id, message=message, level=level))


def _research(session: Session, work: PhaseWork, meter: Meter) -> str:
    _notice(session, f"Researching phase {work.name}: {work.title}")
    prompt = session.staged(SHARED_SYSTEM, "implement_research", **work.variables())
    first = session.opening(prompt, work.documents(session), task_cached=True)
    return run_text(session, Step.RESEARCH, prompt.system, meter, first)


def _plan(session: Session, work: PhaseWork, meter: Meter, research: str) -> str:
    _notice(session, f"Planning phase {work.name}: {work.title}")
    cap = session.config.implement.max_items
    prompt = session.staged(SHARED_SYSTEM, "implement_plan", max_items=cap, **work.variables())
    shared = len(work.documents(session))  # what research sent: read from its cache
    docs = work.documents(session, ("research", research))
    first = session.opening(prompt, docs, shared=shared, task_cached=True)
    plan = run_text(session, Step.PLAN, prompt.system, meter, first)
    labels = [i.label for i in checklist.parse(plan).items]
    if not labels:
        raise InvalidStructure(NO_ITEMS, hint="run the step again to plan anew")
    if len(labels) > cap:
        _notice(session, f"the plan has {len(labels)} items; keeping the first {cap}", "warning")
    return checklist.render(labels[:cap])


def run_text(
    session: Session, step: Step, system: str, meter: Meter, first: Sequence[Message]
) -> str:
    """The final text of a one-shot conversation (a trailing newline added)."""
    return run(session.conversation(step, system, meter), first).text + "\n"


def _work_items(
    session: Session, work: PhaseWork, meter: Meter, research: str, items: str
) -> tuple[str, tuple[str, ...]]:
    dropped: list[str] = []
    while (position := _next_pending(items)) is not None:
        current = checklist.parse(items).items
        item, total = current[position], len(current)
        _notice(session, PROGRESS.format(n=position + 1, total=total, label=item.label))
        status, reason, text = _attempt(session, work, meter, research, items, item)
        _save(session, work, position, text or f"Failed: {reason}\n")
        items = checklist.mark(items, position, status, reason)
        if status is checklist.ItemStatus.FAILED:
            _notice(session, f"Step {position + 1} failed: {reason}", "warning")
        items, lost = _amend(items, text)
        dropped += lost
        _store(session).write_text(session.rfd_id, f"{work.base}/items.md", items)
    if dropped:
        _notice(session, f"dropped {plural(len(dropped), 'new item')} past the 2x cap", "warning")
    return items, tuple(dropped)


def _retry_failed(session: Session, items: str) -> str:
    """A new run tries the items an earlier run marked ``[!]`` again (each run: once)."""
    failed = [
        position
        for position, item in enumerate(checklist.parse(items).items)
        if item.status is checklist.ItemStatus.FAILED
    ]
    for position in failed:
        items = checklist.mark(items, position, checklist.ItemStatus.PENDING)
    if failed:
        _notice(session, f"retrying {plural(len(failed), 'item')} that failed last time")
    return items


def _next_pending(items: str) -> int | None:
    for position, item in enumerate(checklist.parse(items).items):
        if item.status is checklist.ItemStatus.PENDING:
            return position
    return None


def _attempt(
    session: Session, work: PhaseWork, meter: Meter, research: str, items: str, item: checklist.Item
) -> tuple[checklist.ItemStatus, str, str]:
    """Run one item, retrying once with the failure in view: (status, reason, final text)."""
    failure, count = "", len(checklist.parse(items).items)
    originals: dict[str, str] = {}  # what the item's writes replaced, over both attempts
    for _ in range(2):
        prompt = session.prompt(
            "implement_item", item_number=item.number, item_count=count, item_label=item.label,
            previous_failure=failure, **work.variables(),
        )  # fmt: skip
        docs = work.documents(session, ("research", research), ("plan", items))
        conversation = session.conversation(Step.IMPLEMENT, prompt.system, meter)
        conversation.calls.ctx.originals.update(originals)
        originals = conversation.calls.ctx.originals
        try:
            result = run(conversation, session.opening(prompt, docs))
            if result.stop is Stop.END:
                diff = recorded_diff(conversation.calls.ctx, originals)
                ready = _ready(session, work, item, result.text, diff)
                result = answered(conversation, result, ready)
        except (ProviderError, TimeoutError) as exc:
            failure = str(exc)
            continue
        if result.stop is Stop.END:
            return checklist.ItemStatus.DONE, "", result.text
        failure = STOPS[result.stop]
    return checklist.ItemStatus.FAILED, failure, ""


def _ready(
    session: Session, work: PhaseWork, item: checklist.Item, text: str, diff: str
) -> ResultReady:
    return ResultReady(
        rfd_id=session.event_id, step=Step.IMPLEMENT.value, item=item.label, result=text,
        phase=f"{work.title}\n\n{work.description}", document=work.rfd_text, diff=diff,
    )  # fmt: skip


def _save(session: Session, work: PhaseWork, position: int, text: str) -> None:
    relpath = f"{work.base}/items/{position + 1}.md"
    _store(session).write_text(session.rfd_id, relpath, text.rstrip("\n") + "\n")


def _amend(items: str, text: str) -> tuple[str, list[str]]:
    known = {i.label.lower() for i in checklist.parse(items).items}
    new = [label for label in checklist.extract_new_items(text) if label.lower() not in known]
    return checklist.append(items, new) if new else (items, [])


def _summary(session: Session, work: PhaseWork, meter: Meter, items: str) -> str:
    _notice(session, f"Summarizing phase {work.name}: {work.title}")
    results = [_result(session, work, n) for n in range(len(checklist.parse(items).items))]
    prompt = session.prompt("implement_summary", **work.variables())
    first = session.opening(prompt, work.documents(session, ("plan", items), *results))
    return run_text(session, Step.SUMMARY, prompt.system, meter, first)


def _result(session: Session, work: PhaseWork, position: int) -> tuple[str, str]:
    text = _store(session).read_text(session.rfd_id, f"{work.base}/items/{position + 1}.md")
    return f"result of item {position + 1}", text or "(no result saved)"
