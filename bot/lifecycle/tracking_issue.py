"""The RFD's tracking issue on the forge, answering ``tracking.due``: created with the plan's
boxes, kept up to date, relabelled with the RFD's status, closed when the work is done or
will not be done.

It needs of a workspace only what :class:`Site` names, so the workspace can register
:func:`answer` as the forge's listener without the two modules importing each other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from bot.config.discovery import RfdFile
from bot.config.load import Config
from bot.core.bus import EventBus
from bot.core.github_markdown import inline, one_line, page_url
from bot.events import TrackingDue, TrackingIssueUpdated
from bot.forge.base import Forge, Issue, marker, with_marker
from bot.lifecycle import tracking
from bot.model import phase_ids
from bot.model.document import Document
from bot.model.plan import PlanPhase
from bot.model.status import Status, label_changes, label_of
from bot.state import StateStore


class Site(Protocol):
    """What the tracking issue needs of a workspace (:class:`bot.lifecycle.workspace.Workspace`)."""

    config: Config
    store: StateStore
    bus: EventBus
    forge: Forge

    def find(self, query: str) -> RfdFile: ...

    def document(self, query: str | RfdFile) -> Document: ...

    def rel(self, path: Path) -> str: ...


def track(ws: Site, rfd_id: str, cause: str) -> Issue:
    """Announce that the tracking issue is due; the forge, a listener, brings it up to date.

    ``tracking.due`` is interceptable: the forge answers it synchronously and an error it
    raises is this step's error.
    """
    answered = ws.bus.intercept(TrackingDue(rfd_id=rfd_id, cause=cause))
    if answered.issue is None:
        raise RuntimeError(f"no forge listener answered {TrackingDue.name} for RFD {rfd_id}")
    return answered.issue


def answer(ws: Site, event: TrackingDue) -> TrackingDue:
    """The forge's listener: sync the issue and hand it back on the event."""
    return dataclasses.replace(event, issue=sync_tracking(ws, event.rfd_id))


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


def summary_links(ws: Site, rid: str, phases: tuple[PlanPhase, ...]) -> dict[int, str]:
    """A link to each recorded phase's summary on the default branch, by position."""
    files = ws.store.phase_files(rid)
    found = {}
    for n, phase in enumerate(phases, start=1):
        path = files.get(phase_ids.label(phase, n))
        if path is not None:
            found[n] = SUMMARY_LINK.format(url=ws.forge.file_url(ws.rel(path)))
    return found


def _relabel(ws: Site, issue: Issue, status: Status) -> None:
    """The issue carries its RFD's status label, and no other lifecycle label."""
    todo = label_changes(issue.labels, [status])
    for name in todo.remove:
        ws.forge.remove_label(issue.number, name)
    if todo.add:
        ws.forge.add_labels(issue.number, todo.add)


def tracking_marker(rfd_id: str) -> str:
    return marker("tracking", rfd_id)


def _decision(ws: Site, rid: str) -> str:
    """Where the RFD's sign-offs are recorded (empty without ``[consensus]`` or a ledger)."""
    if not ws.config.consensus.enabled or ws.store.read_text(rid, "consensus.json") is None:
        return ""
    return ws.forge.file_url(ws.store.show(ws.store.path(rid, "consensus.json")))


UNPLANNED = (
    "RFD {rid} was accepted without a plan ([process] `accepted_needs_plan = false`): there "
    "are no phases to tick here. When its work is done, comment `/rfd done` on this issue "
    "(or run `rfd done {rid}`): the RFD becomes {implemented} and this issue closes.\n\n"
    "To track the work in phases instead, write {phase} headings under `{section}` in the "
    "RFD, check them with `rfd plan {rid}`, then delete `{plan}` and run `rfd accept {rid}`: "
    "the phases replace this note as a checklist."
)


def _unplanned(ws: Site, rid: str, path: str, doc: Document) -> str:
    """What the issue says in place of a checklist when the plan has no phase."""
    from bot.core.github_markdown import inline
    from bot.model.plan import syntax_of
    from bot.model.status import said

    syntax = syntax_of(path)
    return UNPLANNED.format(
        rid=rid,
        implemented=inline(said(Status.IMPLEMENTED, doc.status_word)),
        phase=syntax.phase,
        section=syntax.section,
        plan=ws.rel(ws.store.path(rid, "plan.json")),
    )


def sync_tracking(ws: Site, query: str, pulls: Mapping[int, str] | None = None) -> Issue:
    """Create or update the RFD's tracking issue; close it once Implemented with all phases done.

    Boxes a person ticked are kept, and text outside the bot's region is never touched.
    The issue is re-read just before writing so racing runs merge rather than overwrite.
    ``pulls``: a phase's pull-request link (by position) to write; those already on the
    issue are kept.
    """
    file = ws.find(query)
    rid = str(file.rfd_id)
    doc = ws.document(file)
    plan = ws.store.read_plan(rid)
    phases = plan or ()
    done = ws.store.done_phases(rid, phases)
    unplanned = (
        ""
        if plan is None or ws.config.process.accepted_needs_plan
        else _unplanned(ws, rid, file.path, doc)
    )
    mark = tracking_marker(rid)
    title = f"RFD {rid}: {one_line(doc.title)}"
    existing = ws.forge.find_issue(mark)
    label = label_of(doc.status)
    links = summary_links(ws, rid, phases)
    if existing is None:
        link = ws.forge.file_url(file.path)
        body = tracking.render_body(
            rid,
            doc.title,
            link,
            phases,
            done,
            links=links,
            pulls=pulls,
            decision=_decision(ws, rid),
            discussion=ws.forge.discussion,
            site=page_url(ws.config.site.url, rid),
            unplanned=unplanned,
        )
        issue = ws.forge.create_issue(title, with_marker(body, mark), labels=(label,))
        created = True
    else:
        current = ws.forge.get_issue(existing.number)  # re-read: never lose a racing tick
        body = tracking.merge_body(
            current.body, phases, done, links=links, pulls=pulls, unplanned=unplanned
        )
        issue = current
        if body != current.body:
            issue = ws.forge.edit_issue(current.number, body=body)
        _relabel(ws, issue, doc.status)
        created = False
    all_done = plan is not None and not phase_ids.missing(phases, done)  # [] when unplanned
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
