"""Read-only commands: ``list``, ``status``, ``plan`` (``lint``: :mod:`bot.cli.lint_cmd`)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING

import click

from bot.cli.common import configuration, repo_root, rfd_command, workspace
from bot.cli.output import Output
from bot.config import discovery
from bot.core.text import plural
from bot.model import checklist
from bot.model.document import Document
from bot.model.ids import is_proposal
from bot.model.status import Status
from bot.state import StateStore

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace

PROPOSAL = "proposal"
"""The status an unnumbered RFC proposal (``text/0000-slug.md``) is listed with."""
WITH_PLAN = {Status.ACCEPTED, Status.IMPLEMENTED, Status.SUPERSEDED}


@rfd_command("list")
def list_cmd(out: Output) -> int:
    """List every RFD: id, status, title and phase progress."""
    root = repo_root()
    cfg = configuration(root)
    docs, errors = discovery.load_all(root, cfg)
    store = StateStore(root, cfg)
    rows = [_row(doc, store) for doc in sorted(docs, key=lambda d: d.path)]
    out.data({"rfds": rows, "errors": [e.to_dict() for e in errors]})
    width = min(max((len(str(r["title"])) for r in rows), default=10), 60)
    said = max([11, *(len(str(r["status"])) for r in rows)])  # the repository's words
    lines = [
        f"{r['id']:>5}  {r['status']:<{said}}  {r['title']:<{width}}  {r['progress'] or ''}"
        for r in rows
    ]
    lines = [line.rstrip() for line in lines]
    if lines:
        out.line("\n".join(lines))  # one write: 2,000 rows are one syscall, not 2,000
    if not rows and not errors:
        out.line(f'no RFDs under {cfg.rfd_dir}/ — create one with `rfd new design "Title"`')
    for err in errors:
        out.warning(str(err))
    return 0  # it listed: problems are warnings (`rfd lint` is the check that fails)


def _row(doc: Document, store: StateStore) -> dict[str, object]:
    progress = None
    if doc.status in WITH_PLAN:
        counts = store.phase_progress(str(doc.rfd_id))
        if counts is not None:
            progress = checklist.progress(*counts)
    proposal = doc.rfd_id is not None and is_proposal(doc.rfd_id, doc.path)
    return {
        "id": str(doc.rfd_id),
        "status": PROPOSAL if proposal else doc.status_word,
        "stage": "Proposal" if proposal else doc.status.value,
        "title": doc.title,
        "path": doc.path,
        "progress": progress,
    }


@rfd_command()
@click.argument("rfd", required=False)
def status(out: Output, rfd: str | None) -> int:
    """Where an RFD stands, and what to do next (without RFD: every RFD in flight)."""
    from bot.cli.next_step import status_of

    ws = workspace(out)
    if rfd is None:
        return _overview(out, ws)
    view = status_of(ws, rfd)
    data = view.to_dict()
    block = _decision(ws, rfd, data)
    out.data(data)
    if not out.json_mode:
        from bot.cli.status_text import renderable

        out.rich(renderable(view, block))
    return 0


IN_FLIGHT = {Status.DRAFT, Status.DISCUSSION, Status.ACCEPTED}
NOTHING_IN_FLIGHT = (
    "no RFD in flight ({count}: none is a draft, in discussion or accepted with a plan "
    "to carry out) — `rfd list` shows them all"
)


def _overview(out: Output, ws: Workspace) -> int:
    """``rfd status`` alone: each RFD in flight, its status in the repository's words and
    the step that moves it on (the one ``rfd status ID`` lists first)."""
    from bot.cli.next_step import next_action, status_of

    docs, errors = discovery.load_all(ws.root, ws.config, ws.files())
    flying = [doc for doc in sorted(docs, key=lambda d: d.path) if _in_flight(doc, ws.store)]
    steps = [next_action(status_of(ws, str(doc.rfd_id))) for doc in flying]
    rows = [
        {**_row(doc, ws.store), "next": None if step is None else asdict(step)}
        for doc, step in zip(flying, steps, strict=True)
    ]
    out.data({"rfds": rows, "errors": [e.to_dict() for e in errors]})
    said = max([11, *(len(str(r["status"])) for r in rows)])
    for r, step in zip(rows, steps, strict=True):
        progress = f"  {r['progress']}" if r["progress"] else ""
        out.line(f"{r['id']:>5}  {r['status']:<{said}}  {r['title']}{progress}")
        shown = f"`{step.command}` — {step.description}" if step else "nothing to do"
        out.line(f"{'':>5}  next: {shown}")
    if not rows:
        count = plural(len(docs), "RFD")
        empty = f'no RFDs under {ws.config.rfd_dir}/ — create one with `rfd new design "Title"`'
        out.line(NOTHING_IN_FLIGHT.format(count=count) if docs else empty)
    for err in errors:
        out.warning(str(err))
    return 0


def _in_flight(doc: Document, store: StateStore) -> bool:
    """A draft, an RFD in discussion, or an accepted one the bot carries out (it has a
    plan, be it empty); one accepted before the bot is not work in flight."""
    if doc.status not in IN_FLIGHT:
        return False
    return doc.status is not Status.ACCEPTED or store.phase_progress(str(doc.rfd_id)) is not None


def _decision(ws: Workspace, rfd: str, data: dict[str, object]) -> list[str]:
    """The sign-offs ``[consensus]`` asks for, added to ``data`` (none without the table)."""
    if not ws.config.consensus.enabled:
        return []
    from bot.lifecycle import signoff

    found = signoff.current_standing(ws, rfd)
    block = signoff.decision(ws, rfd)
    approved = [a.login for a in found.counted]
    data["decision"] = {
        "met": found.met,
        "missing": list(found.missing),
        "approved_by": approved,
        "block": block,
    }
    return block


@rfd_command("plan")
@click.argument("rfd")
def plan_cmd(out: Output, rfd: str) -> int:
    """Show the plan `rfd accept` would extract (changes nothing)."""
    from bot.lifecycle.accept import extract_plan
    from bot.llm.usage import format_entry

    ws = workspace(out)
    phases, method, usage, notices = extract_plan(ws, rfd)
    for notice in notices:
        out.warning(notice)
    out.data(
        {
            "method": method,
            "phases": [p.to_dict() for p in phases],
            "usage": None if usage is None else json.loads(usage.to_line()),
            "notices": list(notices),
        }
    )
    out.line(f"{plural(len(phases), 'phase')} ({method}):")
    from bot.model import phase_ids

    for label, p in zip(phase_ids.labels(phases), phases, strict=True):
        out.line(f"\n{label}. {p.title}")
        for line in p.description.splitlines():
            out.line(f"   {line}")
    if usage is not None:
        out.line(format_entry(usage))
    return 0
