"""Implement one phase of an accepted RFD: research → plan → one item at a time → summary.

Seed 003's loop.  Research and planning use read-only tools; every checklist item
runs in a fresh conversation with the full tool set, is retried once with the
failure in view, and ends ``[x]`` or ``[!] … [Failed: reason]``.  New items the model
proposes (``- [ ] N. Label``) are appended up to twice the original count.  The
research, the checklist and each item's result are saved under
``implement/<N>/`` in the RFD's state, so an interrupted run resumes at the first
pending item.  The summary is returned; the caller saves it as ``phases/<label>.md``.
Which phase, and what the conversations see of it: :mod:`bot.agent.implementation.phase_work`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.agent.conversation.loop import Stop, run
from bot.agent.conversation.session import Session
from bot.agent.implementation.item import STOPS, Task, attempt, command_for
from bot.agent.implementation.phase_work import (
    STALE,
    PhaseWork,
    amend,
    failed_items,
    keep_phase,
    next_pending,
    nothing_to_do,
    original_count,
    reset_failed,
    stale_phase,
)
from bot.agent.toolbox.base import Step, Store
from bot.core.errors import BudgetExceeded, ProviderError, ValidationError
from bot.core.text import plural
from bot.events import Notice, PhaseFailed
from bot.llm.base import Message, Usage
from bot.llm.guard import Meter, require_input
from bot.model import checklist
from bot.state.files import implement_dir

SHARED_SYSTEM = "_implement_system"
"""The system prompt of research and plan (same read-only tools, same model): plan reads
research's cached prefix — tools, system prompt, RFD, earlier summaries, the phase."""
PROGRESS = "Working on step {n} of {total}: {label}"
NOTHING_TO_DO = "phase {phase} has nothing to do: the plan has no checklist items"
EMPTY = "{step} stopped: {why}; nothing was saved"
CUT_OFF_MARK = "\n\n[… cut off at max_tokens: this answer is incomplete]"
LOCK = ".lock"
"""``implement/<N>.lock``, beside the phase's directory (``--restart`` empties that) while a
run works on the phase: a second run refuses."""
RUNNING = "implement of phase {phase} of RFD {rfd}"
SUMMARY = "summary.md"
"""Beside ``items.md``: the last summary, failed items listed (what a person may record)."""


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
    refused: tuple[tuple[str, str], ...] = ()
    """(path, reason) of each change of the model's copy not taken
    (:mod:`bot.agent.implementation.work_copy`)."""

    @property
    def summary_file(self) -> str:
        """Where the summary is kept in the RFD's state (failed items listed)."""
        return f"{implement_dir(self.phase)}/{SUMMARY}"

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
    running = RUNNING.format(phase=work.name, rfd=session.event_id)
    try:
        with _store(session).hold(session.rfd_id, f"{work.base}{LOCK}", running):
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
            rfd_id=session.event_id,
            number=work.number,
            label=work.name,
            title=work.title,
            reason=reason,
        )
    )


def _implement(
    session: Session, work: PhaseWork, restart: bool, meter: Meter | None
) -> ImplementResult:
    store = _store(session)
    require_input(work.rfd_text, f"RFD {session.rfd_path or session.event_id}")
    # refuses an unenforceable budget before any change
    meter = meter or session.meter(Step.IMPLEMENT)
    phase = f"{work.title}\n\n{work.description}"
    old = stale_phase(store, session.rfd_id, work.base, phase)
    if old is not None:
        _notice(session, STALE.format(phase=work.name, old=old), "warning")
    if restart or old is not None:
        store.remove_tree(session.rfd_id, work.base)
    research = _artifact(session, work, "research.md", lambda: _research(session, work, meter))
    keep_phase(store, session.rfd_id, work.base, phase)  # what research and checklist answer
    planned = _artifact(session, work, "items.md", lambda: _plan(session, work, meter, research))
    items, again = reset_failed(planned)
    if again:
        _notice(session, f"retrying {plural(again, 'item')} that failed last time")
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
    if saved is not None and saved.strip():  # an empty one (an older run saved it) is redone
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
    if not labels:  # an empty phase (seed 003): kept as the planner wrote it, recorded as done
        _notice(session, NOTHING_TO_DO.format(phase=work.name))
        return plan
    if len(labels) > cap:
        _notice(session, f"the plan has {len(labels)} items; keeping the first {cap}", "warning")
    return checklist.render(labels[:cap])


def run_text(
    session: Session, step: Step, system: str, meter: Meter, first: Sequence[Message]
) -> str:
    """The final text of a one-shot conversation (a trailing newline added); ProviderError
    when it stayed empty (nothing is saved), a visible mark when it was cut off."""
    result = run(session.conversation(step, system, meter), first)
    if result.stop is not Stop.END or not result.text.strip():
        raise ProviderError(
            EMPTY.format(step=step.value, why=STOPS.get(result.stop, "an empty answer")),
            hint=f"run `rfd implement {session.event_id}` again (it resumes here), or "
            "choose another model with --model",
        )
    return result.text + (CUT_OFF_MARK if result.cut_off else "") + "\n"


def _work_items(
    session: Session, work: PhaseWork, meter: Meter, research: str, items: str
) -> tuple[str, tuple[str, ...]]:
    dropped: list[str] = []
    original = original_count(_store(session), session.rfd_id, work.base, items)
    verify = command_for(session.root, session.config.implement.verify)
    while (position := next_pending(items)) is not None:
        current = checklist.parse(items).items
        item, total = current[position], len(current)
        _notice(session, PROGRESS.format(n=position + 1, total=total, label=item.label))
        task = Task(work, research, items, item, verify)
        outcome = attempt(session, meter, task)
        _save(session, work, position, outcome.text)
        items = checklist.mark(items, position, outcome.status, outcome.reason)
        if outcome.status is checklist.ItemStatus.FAILED:
            _notice(session, f"Step {position + 1} failed: {outcome.reason}", "warning")
        else:
            items, lost = amend(items, outcome.text, original)
            dropped += lost
        _store(session).write_text(session.rfd_id, f"{work.base}/items.md", items)
    if dropped:
        _notice(session, f"dropped {plural(len(dropped), 'new item')} past the 2x cap", "warning")
    return items, tuple(dropped)


def _save(session: Session, work: PhaseWork, position: int, text: str) -> None:
    relpath = f"{work.base}/items/{position + 1}.md"
    _store(session).write_text(session.rfd_id, relpath, text.rstrip("\n") + "\n")


def _summary(session: Session, work: PhaseWork, meter: Meter, items: str) -> str:
    if not checklist.parse(items).items:  # nothing was done: nothing for a model to sum up
        summary = nothing_to_do(work.name, work.title, items)
        _store(session).write_text(session.rfd_id, f"{work.base}/{SUMMARY}", summary)
        return summary
    _notice(session, f"Summarizing phase {work.name}: {work.title}")
    results = [_result(session, work, n) for n in range(len(checklist.parse(items).items))]
    prompt = session.prompt("implement_summary", **work.variables())
    first = session.opening(prompt, work.documents(session, ("plan", items), *results))
    summary = run_text(session, Step.SUMMARY, prompt.system, meter, first)
    summary = summary.rstrip("\n") + "\n" + failed_items(checklist.parse(items).items)
    _store(session).write_text(session.rfd_id, f"{work.base}/{SUMMARY}", summary)
    return summary


def _result(session: Session, work: PhaseWork, position: int) -> tuple[str, str]:
    text = _store(session).read_text(session.rfd_id, f"{work.base}/items/{position + 1}.md")
    return f"result of item {position + 1}", text or "(no result saved)"
