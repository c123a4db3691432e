"""The phase ``rfd implement`` works on: which one, what its conversations see, and its
checklist — what a new run retries, what comes next, how far amendments may grow it,
and the failed items as the summary lists them.

A phase is named by its label in the RFD (``3a``) or, for a number that is no label, by
its position (:mod:`bot.model.phase_ids`); its artifacts live under ``implement/<position>/``.

The phase the checklist was made for (title and description) is kept beside it
(``implement/<N>/phase.md``): when ``plan.json`` says something else now, the research
and the checklist answer an old question, and a new run makes them again.

The plan's original item count is kept in its own state file beside the checklist
(``implement/<N>/original_count``): the ``<!-- original_count -->`` comment in the
checklist can be edited away or garbled, and the 2x bound on amendments must hold anyway.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.agent.conversation.session import Session
from bot.agent.toolbox.base import Store
from bot.core.errors import GateError, ValidationError
from bot.model import checklist, phase_ids
from bot.state.files import implement_dir


@dataclass(frozen=True)
class PhaseWork:
    """The phase being implemented and what the conversations see of it."""

    number: int
    """The phase's position in the plan (1-based): where its artifacts live."""
    title: str
    description: str
    rfd_text: str
    previous: tuple[tuple[str, str], ...] = ()
    """Summaries of the phases already done: (label, text)."""
    label: str = ""
    """How users name the phase (``3a``, see :mod:`bot.model.phase_ids`); default its position."""

    @property
    def name(self) -> str:
        return self.label or str(self.number)

    @property
    def base(self) -> str:
        return implement_dir(self.number)

    def documents(self, session: Session, *extra: tuple[str, str]) -> list[tuple[str, str]]:
        """The RFD, earlier phase summaries, this phase, then ``extra`` (label, text)."""
        done = [(f"summary of phase {n}", text) for n, text in self.previous]
        phase = (f"phase {self.name}", f"{self.title}\n\n{self.description}")
        return [(f"RFD {session.rfd_path}", self.rfd_text), *done, phase, *extra]

    def variables(self) -> dict[str, Any]:
        return {"phase_number": self.name, "phase_title": self.title}


def next_phase(phase_count: int, done: set[int]) -> int:
    """The first phase (1-based) without a summary; GateError when all are done."""
    for number in range(1, phase_count + 1):
        if number not in done:
            return number
    raise GateError("every phase is implemented", hint="promote the RFD with `rfd done`")


def prepare(session: Session, rfd_text: str, phase: str | int | None = None) -> PhaseWork:
    """The work of ``phase`` (default: the next one) from the plan and earlier summaries.

    ``phase`` is what a user typed: a label (``3a``), or a number that is no label, which
    names a phase by position (:mod:`bot.model.phase_ids`); an ``int`` is a position.
    """
    store: Any = session.store
    if store is None or session.rfd_id is None:
        raise ValidationError("implement needs the RFD's state directory")
    phases = store.read_plan(session.rfd_id)
    if not phases:
        raise GateError("this RFD has no plan yet", hint="accept it first: `rfd accept`")
    summaries = _by_position(phases, store.phase_files(session.rfd_id))
    done = set(summaries)
    number = next_phase(len(phases), done) if phase is None else _chosen(phases, phase)
    names = phase_ids.labels(phases)
    previous = tuple(
        (names[n - 1], _read_summary(summaries[n])) for n in sorted(summaries) if n < number
    )
    chosen = phases[number - 1]
    return PhaseWork(
        number, chosen.title, chosen.description, rfd_text, previous, names[number - 1]
    )


def _chosen(phases: Sequence[Any], phase: str | int) -> int:
    """The position of the phase a user named; ValidationError naming the plan's labels."""
    if isinstance(phase, int):
        number: int | None = phase if 1 <= phase <= len(phases) else None
    else:
        number = phase_ids.named(phases, phase)
    if number is None:
        names = ", ".join(phase_ids.labels(phases))
        raise ValidationError(f"phase {phase} does not exist (the plan's phases: {names})")
    return number


def _by_position(phases: Any, files: Mapping[str, Any]) -> dict[int, Any]:
    """Summary files by the position of their phase (``bot.model.phase_ids``: ``3a.md`` → 4)."""
    found = ((phase_ids.position(phases, key), path) for key, path in files.items())
    return {n: path for n, path in found if n is not None}


def _read_summary(path: Any) -> str:
    return Path(path).read_text(encoding="utf-8")


ORIGINAL_COUNT = "original_count"
"""Beside ``items.md``: the plan's item count, the base of the amendment cap."""
FAILED_ITEMS = "\n## Failed items\n\n{items}\n"
PHASE = "phase.md"
"""Beside ``items.md``: the phase (title, blank line, description) its checklist was made for."""
STALE = (
    "phase {phase} changed in plan.json since its checklist was made "
    "(was {old!r}): researching and planning it again"
)


def stale_phase(store: Store, rfd_id: Any, base: str, phase: str) -> str | None:
    """The title the checklist under ``base`` was made for, when ``phase`` (title, blank
    line, description) is no longer it; ``None`` when it still is, or nothing was made.
    A checklist from before the phase was kept beside it counts as current."""
    saved = store.read_text(rfd_id, f"{base}/{PHASE}")
    if saved is None or saved.strip() == phase.strip():
        return None
    return saved.strip().split("\n", 1)[0]


def keep_phase(store: Store, rfd_id: Any, base: str, phase: str) -> None:
    store.write_text(rfd_id, f"{base}/{PHASE}", phase.strip() + "\n")


def reset_failed(items: str) -> tuple[str, int]:
    """The checklist with the items an earlier run marked ``[!]`` pending again (a new run
    tries each once more), and how many they are."""
    failed = [
        position
        for position, item in enumerate(checklist.parse(items).items)
        if item.status is checklist.ItemStatus.FAILED
    ]
    for position in failed:
        items = checklist.mark(items, position, checklist.ItemStatus.PENDING)
    return items, len(failed)


def next_pending(items: str) -> int | None:
    for position, item in enumerate(checklist.parse(items).items):
        if item.status is checklist.ItemStatus.PENDING:
            return position
    return None


def amend(items: str, text: str, original: int) -> tuple[str, list[str]]:
    known = {i.label.lower() for i in checklist.parse(items).items}
    new = [label for label in checklist.extract_new_items(text) if label.lower() not in known]
    return checklist.append(items, new, original_count=original) if new else (items, [])


def original_count(store: Store, rfd_id: Any, base: str, items: str) -> int:
    """How many items the plan started with: the state file under ``base`` (written from
    the checklist's comment, or its length, the first time)."""
    relpath = f"{base}/{ORIGINAL_COUNT}"
    saved = (store.read_text(rfd_id, relpath) or "").strip()
    if saved.isdigit() and int(saved) > 0:
        return int(saved)
    parsed = checklist.parse(items)
    count = parsed.original_count or len(parsed.items)
    store.write_text(rfd_id, relpath, f"{count}\n")
    return count


def failed_items(items: Sequence[checklist.Item]) -> str:
    """The summary's own list of the failed items (what the model wrote is not relied on)."""
    failed = [i for i in items if i.status is checklist.ItemStatus.FAILED]
    lines = [f"- {i.tag or i.number}. {_code(i.label)} — {_code(i.reason)}" for i in failed]
    return FAILED_ITEMS.format(items="\n".join(lines)) if failed else ""


def _code(text: str) -> str:
    """Model text shown as a code span: it cannot become markdown structure or a mention."""
    return f"`{text.replace('`', chr(39))}`"


NOTHING_SUMMARY = "Phase {phase} ({title}): nothing to do — the plan found no item to work on.\n"


def nothing_to_do(phase: str, title: str, plan: str) -> str:
    """The summary of a phase whose plan has no item, the planner's words quoted (model
    text: never headings or checklist lines of the summary)."""
    quoted = "\n".join(f"> {line}".rstrip() for line in plan.strip().splitlines())
    summary = NOTHING_SUMMARY.format(phase=phase, title=title)
    return summary + (f"\n{quoted}\n" if quoted else "")
