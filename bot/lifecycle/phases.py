"""Phase completion and the tracking issue that mirrors it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.core.errors import AlreadyExists, GateError, ValidationError
from bot.core.markdown_safe import inline, one_line
from bot.core.text import plural
from bot.events import PhaseCompleted, TrackingDue, TrackingIssueUpdated
from bot.forge.base import Issue
from bot.forge.comments import marker, with_marker
from bot.lifecycle import tracking
from bot.lifecycle.workspace import Workspace
from bot.model import lifecycle_labels, phase_ids
from bot.model.document import Document
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


def track(ws: Workspace, rfd_id: str, cause: str) -> Issue:
    """Announce that the tracking issue is due; the forge, a listener, brings it up to date.

    ``tracking.due`` is interceptable: the forge answers it synchronously and an error it
    raises is this step's error.
    """
    answered = ws.bus.intercept(TrackingDue(rfd_id=rfd_id, cause=cause))
    if answered.issue is None:
        raise RuntimeError(f"no forge listener answered {TrackingDue.name} for RFD {rfd_id}")
    return answered.issue


def answer(ws: Workspace, event: TrackingDue) -> TrackingDue:
    """The forge's listener: sync the issue and hand it back on the event."""
    return dataclasses.replace(event, issue=sync_tracking(ws, event.rfd_id))


def _position(phases: tuple[PlanPhase, ...], phase: int | str) -> int | None:
    if isinstance(phase, int) and not isinstance(phase, bool):
        return phase if 1 <= phase <= len(phases) else None
    return phase_ids.named(phases, str(phase))


NOT_PLANNED = (Status.ABANDONED, Status.SUPERSEDED)
ABANDONED_NOTE = "RFD {rid} was abandoned{why}. This issue closes as not planned."
SUPERSEDED_NOTE = (
    "RFD {rid} was superseded by {successor}, where the work continues. This issue closes as "
    "not planned."
)


def closing_note(rid: str, doc: Document) -> str:
    """Why the tracking issue closes as not planned: the reason, or the successor."""
    if doc.status is Status.SUPERSEDED:
        successors = ", ".join(f"RFD {s}" for s in doc.links("Superseded by")) or "another RFD"
        text = SUPERSEDED_NOTE.format(rid=rid, successor=successors)
    else:
        reason = " ".join((doc.field("Abandoned") or "").split())
        why = f": {inline(reason)}" if reason else ""
        text = ABANDONED_NOTE.format(rid=rid, why=why)
    return f"{marker('closed', rid)}\n{text}"


SUMMARY_LINK = "[summary]({url})"


def summary_links(ws: Workspace, rid: str, phases: tuple[PlanPhase, ...]) -> dict[int, str]:
    """A link to each recorded phase's summary on the default branch, by position."""
    files = ws.store.phase_files(rid)
    found = {}
    for n, phase in enumerate(phases, start=1):
        path = files.get(phase_ids.label(phase, n))
        if path is not None:
            found[n] = SUMMARY_LINK.format(url=ws.forge.file_url(ws.rel(path)))
    return found


def _relabel(ws: Workspace, issue: Issue, status: Status) -> None:
    """The issue carries its RFD's status label, and no other lifecycle label."""
    todo = lifecycle_labels.changes(issue.labels, [status])
    for name in todo.remove:
        ws.forge.remove_label(issue.number, name)
    if todo.add:
        ws.forge.add_labels(issue.number, todo.add)


def tracking_marker(rfd_id: str) -> str:
    return marker("tracking", rfd_id)


def _decision(ws: Workspace, rid: str) -> str:
    """Where the RFD's sign-offs are recorded (empty without ``[consensus]`` or a ledger)."""
    if not ws.config.consensus.enabled or ws.store.read_text(rid, "consensus.json") is None:
        return ""
    return ws.forge.file_url(ws.store.show(ws.store.path(rid, "consensus.json")))


def sync_tracking(ws: Workspace, query: str, pulls: Mapping[int, str] | None = None) -> Issue:
    """Create or update the RFD's tracking issue; close it once Implemented with all phases done.

    Boxes a person ticked are kept, and text outside the bot's region is never touched.
    The issue is re-read just before writing so racing runs merge rather than overwrite.
    ``pulls``: a phase's pull-request link (by position) to write; those already on the
    issue are kept.
    """
    file = ws.find(query)
    rid = str(file.rfd_id)
    doc = ws.document(file)
    phases = ws.store.read_plan(rid) or ()
    done = ws.store.done_phases(rid, phases)
    mark = tracking_marker(rid)
    title = f"RFD {rid}: {one_line(doc.title)}"
    existing = ws.forge.find_issue(mark)
    label = lifecycle_labels.label_of(doc.status)
    links = summary_links(ws, rid, phases)
    if existing is None:
        link = ws.forge.file_url(file.path)
        body = tracking.render_body(rid, doc.title, link, phases, done, links=links, pulls=pulls,
                                    decision=_decision(ws, rid))  # fmt: skip
        issue = ws.forge.create_issue(title, with_marker(body, mark), labels=(label,))
        created = True
    else:
        current = ws.forge.get_issue(existing.number)  # re-read: never lose a racing tick
        body = tracking.merge_body(current.body, phases, done, links=links, pulls=pulls)
        issue = current
        if body != current.body:
            issue = ws.forge.edit_issue(current.number, body=body)
        _relabel(ws, issue, doc.status)
        created = False
    all_done = bool(phases) and not phase_ids.missing(phases, done)
    closed = False
    if doc.status is Status.IMPLEMENTED and all_done and issue.state != "closed":
        issue = ws.forge.edit_issue(issue.number, state="closed", state_reason="completed")
        closed = True
    elif doc.status in NOT_PLANNED and issue.state != "closed":
        ws.forge.create_comment(issue.number, closing_note(rid, doc))
        issue = ws.forge.edit_issue(issue.number, state="closed", state_reason="not_planned")
        closed = True
    ws.bus.emit(
        TrackingIssueUpdated(
            rfd_id=rid, number=issue.number, url=issue.url, created=created, closed=closed
        )
    )
    return issue
