"""The phase ``rfd implement`` works on: which one, and what its conversations see.

A phase is named by its label in the RFD (``3a``) or, for a number that is no label, by
its position (:mod:`bot.model.phase_ids`); its artifacts live under ``implement/<position>/``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.agent.session import Session
from bot.core.errors import GateError, ValidationError
from bot.model import phase_ids


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
        return f"implement/{self.number}"

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
