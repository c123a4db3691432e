"""``rfd implement`` in the terminal: the next (or given) phase, item by item, with the
isolation of its commands said up front and what the run left in the worktree checked after;
a budget stop or failed items say how to resume or record the phase.  The options, the
workspace and the usage lines are those of every AI step (:mod:`bot.cli.ai`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from bot.cli.ai import ai_options, ai_workspace, options, show_usage
from bot.cli.common import rfd_command
from bot.cli.output import Output
from bot.core.text import plural

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace

ALLOW_UNISOLATED = (
    'set `implement.isolation = "none"` to run them unisolated anyway, each one confirmed by '
    "you in the terminal (a command could then read every secret this process holds)"
)
RESUME = "the items done so far are kept; run `rfd implement {rfd}` again to resume"
NOT_RECORDED = (
    "phase {label} is not recorded: {failed} failed; fix them and run `rfd implement {rfd}` "
    "again (it retries them), or record the phase as it is, failed items listed in its "
    "summary: `rfd phase {rfd} done {label} --summary {summary}`"
)


@rfd_command()
@click.argument("rfd")
@click.option("--phase", help="The phase's label, e.g. 2 or 3a (default: the next one not done).")
@click.option("--restart", is_flag=True, help="Discard this phase's research, plan and results.")
@ai_options
def implement(
    out: Output, rfd: str, phase: str | None, restart: bool, model: str | None, yes: bool
) -> int:
    """Implement the next phase: research → plan → one item at a time → summary."""
    from bot.agent.implementation.phase_work import failed_items
    from bot.agent.steps import implement_meter, implement_rfd
    from bot.core.errors import BudgetExceeded
    from bot.lifecycle.phase_failed import report_failed
    from bot.lifecycle.phases import phase_done
    from bot.state import OnExists

    ws = ai_workspace(out, yes, "implement", model)
    meter = implement_meter(ws, model)
    check_worktree = checked_worktree(ws, out)
    try:
        result = implement_rfd(
            ws, rfd, phase=phase, restart=restart, meter=meter, **options(ws, out, model)
        )
    except BudgetExceeded:  # a clean stop: what is done stays done, the next run resumes
        show_usage(out, ws, "implement", model, meter.usage)
        out.warning(f"{meter.reached()}; {RESUME.format(rfd=rfd)}")
        return 1
    except BaseException:  # the error is reported by the entry point; what it cost, here
        if meter.usage.total:
            show_usage(out, ws, "implement", model, meter.usage)
        raise
    finally:
        check_worktree()
    show_usage(out, ws, "implement", model, result.usage)
    out.data(
        {
            "phase": result.label,
            "position": result.phase,
            "summary": result.summary,
            "failed": [i.label for i in result.failed],
            "dropped": list(result.dropped),
        }
    )
    if result.dropped:
        out.warning(f"{plural(len(result.dropped), 'amendment')} dropped past the 2× cap")
    if result.failed:  # the step emitted phase.failed; the CLI only shows it
        for item in result.failed:
            out.line(f"  [!] {item.number}. {item.label}", style="red")
        rid = outcome_id(ws, rfd)
        summary = ws.rel(ws.store.path(rid, result.summary_file))
        listed = failed_items(result.items)
        report_failed(ws, rid, result.label, result.title, listed, summary)  # tracking issue
        out.line(
            NOT_RECORDED.format(
                label=result.label,
                failed=plural(len(result.failed), "item"),
                rfd=rfd,
                summary=summary,
            )
        )
        return 1
    # the implement run just did this phase: its summary is the record, even over an old one
    outcome = phase_done(ws, rfd, result.phase, result.summary, on_exists=OnExists.REPLACE)
    from bot.cli.next_step import next_step

    out.success(next_step(ws, outcome.rfd_id))  # the event lines said the phase is done
    return 0


def outcome_id(ws: Workspace, rfd: str) -> str:
    return str(ws.find(rfd).rfd_id)


def checked_worktree(ws: Workspace, out: Output) -> Callable[[], None]:
    """Says whether commands are isolated, and returns the check of what the run left
    (:mod:`bot.agent.implementation.commit_guard`): out-of-bounds changes put back, secrets
    redacted."""
    from bot.agent.implementation.commit_guard import baseline, check_run
    from bot.agent.implementation.isolation import ENABLE, NO_ISOLATION, choose
    from bot.core.errors import PermissionDenied

    setting = ws.config.implement.isolation
    if choose(setting) is None:
        if setting != "none":  # only the repository's own choice runs model code unisolated
            raise PermissionDenied(
                f"{NO_ISOLATION}; nothing was run", hint=f"{ENABLE}; or {ALLOW_UNISOLATED}"
            )
        out.warning(f"{NO_ISOLATION}: you will be asked before each command runs")
    if not (ws.root / ".git").exists():
        return lambda: None
    before = baseline(ws.root)

    def check() -> None:
        report = check_run(ws.root, before, ws.config, os.environ)
        for line in report.lines():
            out.warning(line)

    return check
