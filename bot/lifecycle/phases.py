"""Phase completion: the summary recorded, and the tracking issue told
(:mod:`bot.lifecycle.tracking_issue` keeps the issue)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.core.errors import AlreadyExists, GateError, ValidationError
from bot.core.text import plural
from bot.events import PhaseCompleted
from bot.forge.base import Issue
from bot.lifecycle.tracking_issue import track
from bot.lifecycle.workspace import Workspace
from bot.model import phase_ids
from bot.model.plan import PlanPhase
from bot.model.status import Status
from bot.state import OnExists


@dataclass(frozen=True)
class PhaseOutcome:
    rfd_id: str
    number: int
    """The phase's position in the plan (1-based)."""
    label: str
    """How users name it: its label in the RFD (``3a``), else its position."""
    title: str
    path: Path
    done: int
    total: int
    issue: Issue | None
    changed: tuple[Path, ...]
    message: str


def phase_done(
    ws: Workspace,
    query: str,
    phase: int | str,
    summary: str,
    *,
    on_exists: OnExists | None = None,
) -> PhaseOutcome:
    """Record a phase as done (``phases/<label>.md``) and tick it on the tracking issue.

    ``phase`` is what a user typed (a label such as ``3a``, see :mod:`bot.model.phase_ids`) or,
    as an ``int``, a position in the plan (the implement agent counts phases so).  When the
    summary exists already: ``on_exists`` USE keeps it, REPLACE overwrites it, None refuses
    (AlreadyExists) — nothing is overwritten unless asked for.
    """
    file = ws.find(query)
    rid = str(file.rfd_id)
    doc = ws.document(file)
    if doc.status is not Status.ACCEPTED:
        raise GateError(
            f"RFD {rid} is {doc.status.value}; phases are recorded while it is Accepted",
            path=file.path,
            hint=f"run `rfd accept {rid}` first",
        )
    phases = ws.store.read_plan(rid) or ()
    number = _position(phases, phase)
    if number is None:
        names = ", ".join(phase_ids.labels(phases)) or "none"
        raise ValidationError(
            f"RFD {rid} has no phase {phase} (its phases: {names})",
            hint=f"see `rfd status {rid}` for the phases",
        )
    if not summary.strip():
        raise ValidationError("the phase summary is empty", hint="say what the phase delivered")
    if on_exists is OnExists.SUFFIX:
        raise ValidationError(
            "a phase summary takes no suffix: phases/<label>.md is the one record of the phase",
            hint="use --on-exists use or --on-exists replace",
        )
    label = phase_ids.label(phases[number - 1], number)
    existing = ws.store.phase_files(rid).get(phase_ids.normalize(label) or label)
    if existing is not None and on_exists is not OnExists.REPLACE:
        if on_exists is not OnExists.USE:
            raise _recorded_already(ws, rid, label, existing)
        note = f"using the existing {ws.rel(existing)}"
        return _outcome(ws, rid, number, label, phases, existing, note)
    path = ws.store.write_phase_summary(rid, label, summary)
    done = len(ws.store.done_phases(rid, phases))
    title = phases[number - 1].title
    ws.bus.emit(
        PhaseCompleted(
            rfd_id=rid,
            number=number,
            label=label,
            title=title,
            summary_path=ws.rel(path),
            done=done,
            total=len(phases),
        )
    )
    return _outcome(ws, rid, number, label, phases, path)


def _outcome(
    ws: Workspace,
    rid: str,
    number: int,
    label: str,
    phases: tuple[PlanPhase, ...],
    path: Path,
    note: str = "",
) -> PhaseOutcome:
    issue = track(ws, rid, PhaseCompleted.name)
    done = len(ws.store.done_phases(rid, phases))
    title = phases[number - 1].title
    msg = f"RFD {rid}: phase {label} ({title}) done — {done}/{plural(len(phases), 'phase')}"
    changed, msg = ((), f"{msg} ({note})") if note else ((path,), msg)
    return PhaseOutcome(rid, number, label, title, path, done, len(phases), issue, changed, msg)


def _recorded_already(ws: Workspace, rid: str, label: str, existing: Path) -> AlreadyExists:
    shown = ws.rel(existing)
    return AlreadyExists(
        f"phase {label} of RFD {rid} is recorded already: {shown}",
        path=shown,
        alternatives=(
            "use the existing summary (--on-exists use)",
            "replace it with the new summary (--on-exists replace)",
        ),
    )


def _position(phases: tuple[PlanPhase, ...], phase: int | str) -> int | None:
    if isinstance(phase, int) and not isinstance(phase, bool):
        return phase if 1 <= phase <= len(phases) else None
    return phase_ids.named(phases, str(phase))
