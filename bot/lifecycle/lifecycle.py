"""Status changes: promote (with the draft → number renaming), abandon, supersede, new, done.

Each operation checks the transition and its gates, asks interceptors
(``StatusChanging``), writes the RFD files, moves state, and emits events.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from pathlib import Path

from bot.config.discovery import RfdFile
from bot.core.errors import AlreadyExists, ValidationError
from bot.events import RfdCreated, StatusChanged, StatusChanging
from bot.lifecycle import drafting, plan_gates, publish, style
from bot.lifecycle.requires import requires_statuses
from bot.lifecycle.workspace import Workspace
from bot.model import document
from bot.model.document import LIST, Document
from bot.model.ids import RfdId, slugify
from bot.model.status import Status, check_gates, check_move, check_transition
from bot.state import OnExists, unique_suffix

NEXT_STATUS = {
    Status.DRAFT: Status.DISCUSSION,
    Status.DISCUSSION: Status.ACCEPTED,
    Status.ACCEPTED: Status.IMPLEMENTED,
}


@dataclass(frozen=True)
class StatusOutcome:
    rfd_id: str
    old: Status
    new: Status
    path: Path
    changed: tuple[Path, ...]
    message: str


@dataclass(frozen=True)
class NewOutcome:
    rfd_id: str
    path: Path
    changed: tuple[Path, ...]
    message: str
    created: bool


def _check_transition(doc: Document, target: Status, path: str) -> None:
    """:func:`check_transition`, its error in ``doc``'s own status words."""
    check_transition(doc.status, target, path=path, word=doc.status_word, lower=doc.form != LIST)


def promote(
    ws: Workspace, query: str, to: Status | None = None, *, reason: str = ""
) -> StatusOutcome:
    """Move an RFD one step along Draft → Discussion → Accepted → Implemented (or to ``to``)."""
    file = ws.find(query)
    doc = ws.document(file)
    target = to or NEXT_STATUS.get(doc.status)
    if target is None:
        _check_transition(doc, doc.status, file.path)  # raises with allowed steps
        raise AssertionError("unreachable")
    _check_transition(doc, target, file.path)
    check_stage_move(doc, target)
    check_gates(target, requires_statuses(ws, doc), path=file.path)
    plan_gates.check(ws, file, target)
    ws.bus.intercept(
        StatusChanging(
            rfd_id=str(file.rfd_id), old=doc.status.value, new=target.value, reason=reason
        )
    )
    if doc.status is Status.DRAFT and target is Status.DISCUSSION and file.rfd_id.draft:
        return _publish_draft(ws, file, doc)  # a numbered draft (prediscussion) keeps its id
    return _set_status(ws, file, doc, target, reason=reason)


def check_stage_move(doc: Document, target: Status) -> None:
    """TransitionError when moving ``doc`` to ``target`` writes a move, in the repository's
    words, that its history never makes (``[transitions]``)."""
    new = document.parse(document.set_status(doc.text, target), doc.path).status_word
    check_move(doc.status_word, new, path=doc.path)


def _set_status(
    ws: Workspace, file: RfdFile, doc: Document, target: Status, *, reason: str = ""
) -> StatusOutcome:
    path = ws.path(file)
    text = document.set_status(doc.text, target)
    ws.write_rfd(path, text)
    old_word, new_word = doc.status_word, document.parse(text, file.path).status_word
    ws.bus.emit(
        StatusChanged(
            rfd_id=str(file.rfd_id),
            old=doc.status.value,
            new=target.value,
            path=file.path,
            reason=reason,
            old_word=old_word,
            new_word=new_word,
        )
    )
    msg = f"RFD {file.rfd_id}: {old_word} → {new_word}"
    return StatusOutcome(str(file.rfd_id), doc.status, target, path, (path,), msg)


def _publish_draft(ws: Workspace, file: RfdFile, doc: Document) -> StatusOutcome:
    new_id, new_path, changed = publish.publish_draft(ws, file, doc)
    msg = f"RFD {file.rfd_id} is now RFD {new_id} ({ws.rel(new_path)}): Draft → Discussion"
    return StatusOutcome(
        str(new_id), Status.DRAFT, Status.DISCUSSION, new_path, tuple(changed), msg
    )


def abandon(ws: Workspace, query: str, reason: str) -> StatusOutcome:
    if not reason.strip():
        raise ValidationError("a reason is required to abandon an RFD", hint="pass --reason TEXT")
    file = ws.find(query)
    doc = ws.document(file)
    _check_transition(doc, Status.ABANDONED, file.path)
    check_stage_move(doc, Status.ABANDONED)
    ws.bus.intercept(
        StatusChanging(
            rfd_id=str(file.rfd_id), old=doc.status.value, new="Abandoned", reason=reason
        )
    )
    stamped = f"{reason.strip()} ({_today(ws)})"
    noted = style.abandon(doc.text, file.path, stamped, ws.config.conventions)
    doc = document.parse(noted, file.path)
    outcome = _set_status(ws, file, doc, Status.ABANDONED, reason=reason)
    _close_tracking(ws, outcome.rfd_id, "Abandoned")
    return outcome


def _close_tracking(ws: Workspace, rfd_id: str, cause: str) -> None:
    """An RFD that had a plan has a tracking issue: it closes with the RFD."""
    if ws.store.read_plan(rfd_id) is not None:
        from bot.lifecycle.tracking_issue import track

        track(ws, rfd_id, cause)


def supersede(ws: Workspace, old_query: str, new_query: str) -> StatusOutcome:
    old_file, new_file = ws.find(old_query), ws.find(new_query)
    if old_file.rfd_id == new_file.rfd_id:
        raise ValidationError("an RFD cannot supersede itself")
    old_doc, new_doc = ws.document(old_file), ws.document(new_file)
    _check_transition(old_doc, Status.SUPERSEDED, old_file.path)
    check_stage_move(old_doc, Status.SUPERSEDED)
    ws.bus.intercept(
        StatusChanging(
            rfd_id=str(old_file.rfd_id),
            old=old_doc.status.value,
            new="Superseded",
            reason=f"by RFD {new_file.rfd_id}",
        )
    )
    # both edits are made (and may fail) before either file is written
    new_path = ws.path(new_file)
    conventions = ws.config.conventions
    new_text = style.set_link_field(
        new_doc.text, new_file.path, "Supersedes", old_file, conventions
    )
    linked = style.set_link_field(
        old_doc.text, old_file.path, "Superseded by", new_file, conventions
    )
    old_doc = document.parse(linked, old_file.path)
    ws.write_rfd(new_path, new_text)
    out = _set_status(ws, old_file, old_doc, Status.SUPERSEDED, reason=f"by RFD {new_file.rfd_id}")
    _close_tracking(ws, out.rfd_id, "Superseded")
    return StatusOutcome(
        out.rfd_id,
        out.old,
        out.new,
        out.path,
        (*out.changed, new_path),
        f"{out.message} (superseded by RFD {new_file.rfd_id})",
    )


def _today(ws: Workspace) -> str:
    return dt.datetime.fromtimestamp(ws.clock(), dt.UTC).date().isoformat()


def new_rfd(
    ws: Workspace,
    category: str,
    title: str,
    *,
    authors: str = "",
    on_exists: OnExists | None = None,
) -> NewOutcome:
    """Create a draft the repository's way (:mod:`bot.lifecycle.drafting`): its template, id rule,
    padding and drafts directory; the author from git unless given."""
    slug = slugify(title)
    existing = [f for f in ws.files() if f.slug == slug]
    if existing:
        if on_exists is None:
            raise AlreadyExists(
                f"an RFD named {slug!r} exists already: {existing[0].path}",
                path=existing[0].path,
                alternatives=(
                    "use the existing one (--on-exists use)",
                    "create with a suffix (--on-exists suffix)",
                    "replace it (--on-exists replace)",
                ),
            )
        if on_exists is OnExists.USE:
            f = existing[0]
            return NewOutcome(str(f.rfd_id), ws.path(f), (), f"using existing {f.path}", False)
        if on_exists is OnExists.SUFFIX:
            taken = {f.slug for f in ws.files()}
            slug = unique_suffix(slug, lambda s: s in taken)
        elif on_exists is OnExists.REPLACE:
            return _replace_draft(ws, existing[0], category, title, authors)
    shape = drafting.shape_of(ws.files(), ws.document)
    if shape is not None:  # a directory per RFD, or RFCs numbered by pull request
        path = drafting.place(ws.root, ws.config.rfd_dir, ws.files(), shape, slug)
        return _write_new(ws, path, drafting.new_id(path), category, title, authors, shape)
    rid = drafting.next_id(ws.files(), ws.store, ws.config)
    folder = ws.root / drafting.directory(ws.root, ws.config)
    return _write_new(ws, folder / rid.file_name(slug), rid, category, title, authors)


def _replace_draft(
    ws: Workspace, f: RfdFile, category: str, title: str, authors: str
) -> NewOutcome:
    if not f.rfd_id.draft:
        raise AlreadyExists(f"{f.path} is published; only drafts can be replaced", path=f.path)
    cleared = ws.store.remove_tree(str(f.rfd_id))  # the new draft starts fresh (seed 000)
    outcome = _write_new(ws, ws.path(f), f.rfd_id, category, title, authors)
    if not cleared:
        return outcome
    folder = ws.rel(ws.store.dir(str(f.rfd_id)))
    gone = f"{outcome.message} (the old draft's state in {folder} is gone)"
    return replace(outcome, message=gone)


def _write_new(
    ws: Workspace,
    path: Path,
    rid: RfdId,
    category: str,
    title: str,
    authors: str,
    shape: drafting.Shape | None = None,
) -> NewOutcome:
    authors = authors or (ws.vcs.author() if ws.vcs is not None else "") or "TBD"
    if shape is None:
        text = drafting.render(ws.root, ws.config, category, rid, title, authors, _today(ws))
    else:
        text = drafting.render_in_dialect(
            ws.root, ws.config.rfd_dir, shape, rid, title, authors, _today(ws)
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    ws.write_rfd(path, text)
    ws.refresh()
    ws.bus.emit(RfdCreated(rfd_id=str(rid), path=ws.rel(path), title=title))
    shown = drafting.name_of(rid, ws.rel(path))
    message = f"created {shown}: {ws.rel(path)}{drafting.note(rid, ws.rel(path))}"
    return NewOutcome(
        shown.removeprefix("RFD ").removeprefix("proposal "), path, (path,), message, True
    )


def done(ws: Workspace, query: str) -> StatusOutcome:
    """Accepted → Implemented (every phase recorded), then update the tracking issue."""
    from bot.lifecycle.tracking_issue import track

    outcome = promote(ws, query, Status.IMPLEMENTED)
    track(ws, outcome.rfd_id, "Implemented")
    return outcome
