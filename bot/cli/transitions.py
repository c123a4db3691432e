"""Status changes: ``promote``, ``abandon``, ``supersede``, ``accept``, ``done``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from bot.cli.common import rfd_command, workspace
from bot.cli.output import Output
from bot.lifecycle import accept as accepting
from bot.lifecycle import lifecycle
from bot.model import phase_ids
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace


def _outcome(out: Output, message: str, **data: object) -> int:
    out.data({"message": message, **data})
    out.success(message)
    return 0


def _moved_on(out: Output, ws: Workspace, message: str, **data: object) -> int:
    """The event lines said what changed: end with what to do next (JSON: the message)."""
    from bot.cli.next_step import next_step

    out.data({"message": message, **data})
    out.success(next_step(ws, str(data["rfd"])))
    return 0


@rfd_command()
@click.argument("rfd")
@click.option(
    "--to",
    "to",
    type=click.Choice([s.value for s in Status], case_sensitive=False),
    help="Target status (default: the next one in Draft → Discussion → Accepted → Implemented).",
)
def promote(out: Output, rfd: str, to: str | None) -> int:
    """Move an RFD to its next status (a draft takes its permanent number)."""
    ws = workspace(out)
    o = lifecycle.promote(ws, rfd, Status.parse(to) if to else None)
    return _moved_on(
        out, ws, o.message, rfd=o.rfd_id, old=o.old.value, new=o.new.value, path=ws.rel(o.path)
    )


@rfd_command()
@click.argument("rfd")
@click.option("--reason", required=True, help="Why the RFD is abandoned (recorded in it).")
def abandon(out: Output, rfd: str, reason: str) -> int:
    """Abandon an RFD that is not implemented, recording why; warn about the RFDs that
    require or extend it."""
    from bot.lifecycle.dependents import dependents

    ws = workspace(out)
    o = lifecycle.abandon(ws, rfd, reason)
    waiting = dependents(ws, o.rfd_id)
    for dependent in waiting:
        out.warning(dependent.warning(o.rfd_id, o.new))
    listed = [
        {"rfd": d.rfd_id, "path": d.path, "status": d.status.value, "link": d.verb} for d in waiting
    ]
    return _outcome(
        out, o.message, rfd=o.rfd_id, old=o.old.value, new=o.new.value, dependents=listed
    )


@rfd_command()
@click.argument("old")
@click.argument("new")
def supersede(out: Output, old: str, new: str) -> int:
    """Mark OLD (Accepted or Implemented) as superseded by NEW; both are cross-linked."""
    ws = workspace(out)
    o = lifecycle.supersede(ws, old, new)
    return _outcome(out, o.message, rfd=o.rfd_id, old=o.old.value, new=o.new.value)


@rfd_command()
@click.argument("rfd")
@click.option(
    "--model",
    help="Model alias or id for the plan extraction, when the headings do not give the plan "
    "(default: the accept step's model).",
)
def accept(out: Output, rfd: str, model: str | None) -> int:
    """Extract the plan, promote to Accepted and open the tracking issue (or change nothing).

    An RFD Accepted by hand, without plan.json, keeps its status: its plan is extracted and
    its tracking issue opened."""
    from bot.cli.stream import spinner_for
    from bot.llm.usage import format_entry

    ws = workspace(out)
    spinner_for(ws, out)  # runs only if the headings give no plan and the model is asked
    o = accepting.accept(ws, rfd, model=model)
    if o.kept:
        out.line(f"  {o.message}")
    for notice in o.notices:
        out.warning(notice)
    for name, p in zip(phase_ids.labels(o.phases), o.phases, strict=True):
        out.line(f"  {name}. {p.title}")
    if o.usage is not None:
        out.line(format_entry(o.usage))
    return _moved_on(
        out,
        ws,
        o.message,
        rfd=o.rfd_id,
        method=o.method,
        phases=[p.to_dict() for p in o.phases],
        issue=o.issue.number,
        usage=None if o.usage is None else json.loads(o.usage.to_line()),
        notices=list(o.notices),
        kept=o.kept,
    )


@rfd_command()
@click.argument("rfd")
def done(out: Output, rfd: str) -> int:
    """Promote to Implemented once every phase is recorded; close the tracking issue."""
    ws = workspace(out)
    o = lifecycle.done(ws, rfd)
    return _moved_on(out, ws, o.message, rfd=o.rfd_id, old=o.old.value, new=o.new.value)
