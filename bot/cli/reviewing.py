"""Reviews and phases: ``review``, ``dismiss``, ``phase``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bot.cli.common import model_flag, on_exists_option, resolve_exists, rfd_command, workspace
from bot.cli.output import Output
from bot.core.errors import ValidationError
from bot.core.text import noun
from bot.lifecycle import phases
from bot.lifecycle import review as reviewing
from bot.state import OnExists

if TYPE_CHECKING:
    from bot.ai.steer import Steer
    from bot.lifecycle.workspace import Workspace


@rfd_command()
@click.argument("rfd")
@click.option("--model", help="Model alias or id (default: the review step's model).")
@click.option("--edit", is_flag=True, help="Edit the prompt in $EDITOR before it is sent.")
def review(out: Output, rfd: str, model: str | None, edit: bool) -> int:
    """Review the RFD (Discussion) or its implementation (Accepted); save the review."""
    ws = workspace(out, flags=model_flag("review", model))
    provider = ws.provider("review", model)
    if provider.llm.offline and provider.reason:
        out.line(provider.reason, style="yellow")
    if edit and provider.llm.offline:
        out.warning("--edit: the offline review asks no model, so there is no prompt to edit")
    from bot.cli.stream import spinner_for
    from bot.llm.usage import entry, format_entry

    spinner_for(ws, out)
    o = reviewing.review(ws, rfd, model=model, steer=_editor() if edit else None)
    for notice in o.notices:
        out.warning(notice)
    used = None if provider.llm.offline else entry("review", o.model, o.usage, at=ws.clock())
    out.data(
        {
            "path": ws.rel(o.path),
            "kind": o.review.kind,
            "findings": len(o.review.findings),
            "model": o.model,
            "cost_usd": o.cost_usd,
            "usage": None if used is None else json.loads(used.to_line()),
            "notices": list(o.notices),
            "review": o.text,
        }
    )
    out.markdown(o.text)
    if used is not None:
        out.line(format_entry(used))
    # the terminal listener has said where the review went: end with what to do now
    found = bool(o.review.findings or o.review.questions)
    then = _next_steps(o.impl, found, _all_done(ws, o.rfd_id))
    then = then.format(rfd=o.rfd_id)
    out.success(f"{_active(ws, o.rfd_id, o.impl)} — {then}")
    return 0


def _editor() -> Steer:
    from bot.ai.steer import editor

    return editor


_NEXT_DESIGN = "`rfd refine {rfd}` works the findings in; `rfd dismiss {rfd} N` once addressed"
_NEXT_CLEAN = "nothing to work in: `rfd status {rfd}` says what comes next"
_NEXT_IMPL = "fix what it found, then `rfd dismiss {rfd} N --impl`"
_NEXT_LATER = "nothing to fix: `rfd done {rfd}` once every phase is recorded"
_NEXT_DONE = "nothing to fix: `rfd done {rfd}` promotes it to Implemented"


def _next_steps(impl: bool, found: bool, all_done: bool) -> str:
    if not impl:
        return _NEXT_DESIGN if found else _NEXT_CLEAN
    if found:
        return _NEXT_IMPL
    return _NEXT_DONE if all_done else _NEXT_LATER


def _all_done(ws: Workspace, rfd_id: str) -> bool:
    """Is ``rfd done`` what comes next (every required phase recorded)?"""
    from bot.cli.next_step import next_action, status_of

    action = next_action(status_of(ws, rfd_id))
    return action is not None and action.command.startswith("rfd done ")


def _active(ws: Workspace, rfd_id: str, impl: bool) -> str:
    """``RFD 001: 2 active reviews`` — the state a review or dismissal leaves behind."""
    n = len(ws.store.list_reviews(rfd_id, impl=impl))
    what = "implementation review" if impl else "review"
    return f"RFD {rfd_id}: {n or 'no'} active {noun(n, what)}"


PHASE_CHOICES = (OnExists.USE, OnExists.REPLACE)
"""A phase has one summary: no suffixed second one."""


def parse_selection(items: tuple[str, ...]) -> list[int] | str:
    if [i.lower() for i in items] == ["all"]:
        return "all"
    try:
        return [int(i) for i in items]
    except ValueError:
        raise ValidationError(
            f"cannot dismiss {' '.join(items)!r}",
            hint="give review numbers as listed by `rfd status` (e.g. `1 3`) or `all`",
        ) from None


@rfd_command()
@click.argument("rfd")
@click.argument("which", nargs=-1, required=True)
@click.option("--impl", is_flag=True, help="Dismiss implementation reviews instead.")
def dismiss(out: Output, rfd: str, which: tuple[str, ...], impl: bool) -> int:
    """Delete reviews that are addressed: numbers from `rfd status`, or `all`."""
    ws = workspace(out)
    selection = parse_selection(which)
    o = reviewing.dismiss(ws, rfd, selection, impl=impl)  # type: ignore[arg-type]
    out.data({"dismissed": [ws.rel(p) for p in o.dismissed]})
    out.success(f"{_active(ws, o.rfd_id, impl)} left")  # the listener named each file
    return 0


@rfd_command()
@click.argument("rfd")
@click.argument("action", type=click.Choice(["done"]))
@click.argument("number", metavar="PHASE")
@click.option(
    "--summary",
    "summary_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Markdown file saying what the phase delivered ('-' for stdin).",
)
@on_exists_option(PHASE_CHOICES, "the phase's summary (phases/<label>.md)")
def phase(
    out: Output, rfd: str, action: str, number: str, summary_file: Path, on_exists: str | None
) -> int:
    """Record a phase implemented by hand (phases/<label>.md: 1, 0, 3a, B as the plan names
    it) and tick it on the tracking issue."""
    ws = workspace(out)
    summary = summary_file.read_text(encoding="utf-8")
    o = resolve_exists(
        out,
        lambda choice: phases.phase_done(ws, rfd, number, summary, on_exists=choice),
        on_exists,
        PHASE_CHOICES,
    )
    out.data(
        {
            "rfd": o.rfd_id,
            "phase": o.label,
            "position": o.number,
            "done": o.done,
            "total": o.total,
            "issue": o.issue.number if o.issue else None,
        }
    )
    _phase_recorded(out, ws, o.rfd_id, o.message, bool(o.changed))
    return 0


def _phase_recorded(out: Output, ws: Workspace, rfd_id: str, message: str, new: bool) -> None:
    """A new record was announced by the event lines: say what is next; an existing one
    (``--on-exists use``) was not, so say that."""
    from bot.cli.next_step import next_step

    out.success(next_step(ws, rfd_id) if new else message)
