"""AI steps in the terminal: ``refine``, ``author``, ``explore``, ``converge``, ``draft``
and ``implement``.  Replies stream as they arrive (rendered as
markdown on a terminal, :mod:`bot.cli.stream`); every write is shown and confirmed (ask
mode) unless ``--yes``; usage and cost are printed after each step.

``rfd implement``: the next (or given) phase, item by item, with the isolation of its
commands said up front and what the run left in the worktree checked after; a budget stop
or failed items say how to resume or record the phase.  The options, the workspace and the
usage lines are those of every AI step.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bot.cli.common import model_flag, rfd_command, workspace
from bot.cli.output import Output
from bot.core.errors import ProviderError, ValidationError
from bot.core.text import plural

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.llm.base import Usage

F = TypeVar("F", bound=Callable[..., Any])
REFINE_FAILED = (
    "refine did not finish ({stop}): the reviews are kept; run `rfd refine {rfd}` again, "
    "or dismiss what the kept passes addressed with `rfd dismiss {rfd} <n…|all>`"
)


def ai_options(fn: F) -> F:
    fn = click.option("--model", help="Model alias or id (default: the step's model).")(fn)
    return click.option("--yes", "-y", is_flag=True, help="Apply every write without asking.")(fn)


def ai_workspace(out: Output, yes: bool, step: str, model: str | None) -> Workspace:
    """An AI step's workspace; ``--model`` enters the configuration as ``steps.<step>.model``."""
    interactive = sys.stdin.isatty() and not out.json_mode
    ws = workspace(out, flags=model_flag(step, model), interactive=interactive, assume_yes=yes)
    provider = ws.provider(step, model)
    if provider.llm.offline:
        raise ProviderError(
            f"this step needs an AI model, and none is configured ({provider.reason})",
            hint="set ANTHROPIC_API_KEY for claude-* models, or provider.base_url and "
            "OPENAI_API_KEY (provider.api_key_env) for others; "
            "offline, `rfd review` and `rfd accept` still work",
        )
    if not interactive and not yes:
        raise ValidationError(
            "there is no terminal to confirm the model's writes on",
            hint="run it in a terminal, or pass --yes to apply every write without asking",
        )
    return ws


def options(ws: Workspace, out: Output, model: str | None) -> dict[str, Any]:
    from bot.agent.toolbox.permission import TerminalPrompter
    from bot.cli.stream import spinner_for, stream_for

    spinner = spinner_for(ws, out)
    stream = None if out.json_mode else stream_for(ws, out, spinner)
    prompter = TerminalPrompter(echo=out.diff) if ws.interactive else None
    return {"model": model, "prompter": prompter, "on_text": stream}


def show_usage(out: Output, ws: Workspace, step: str, model: str | None, usage: Usage) -> None:
    from bot.llm.usage import entry, format_entry

    out.line(format_entry(entry(step, ws.config.model_for(step, model), usage, at=ws.clock())))


@rfd_command()
@click.argument("rfd")
@click.option("--edit", is_flag=True, help="Edit the first prompt in $EDITOR before it is sent.")
@ai_options
def refine(out: Output, rfd: str, model: str | None, yes: bool, edit: bool) -> int:
    """Refine the RFD from its active reviews (rule of five), then offer to dismiss them.

    On an Accepted RFD: change the implementation as its implementation reviews ask."""
    from bot.agent.authoring.refine import StopReason
    from bot.agent.steps import refine_rfd
    from bot.ai.steer import editor

    ws = ai_workspace(out, yes, "refine", model)
    result = refine_rfd(ws, rfd, steer=editor if edit else None, **options(ws, out, model))
    asked = ws.interactive and not ws.assume_yes
    for p in result.passes:
        changed = ", ".join(p.changed_sections) or "no change"
        out.line(f"\npass {p.number} ({p.focus.value}): {changed}", style="bold")
        if p.reply:  # the model's notes: what it changed and why (answers are not streamed)
            out.markdown(p.reply)
        if p.diff and not asked:  # when asked, each change was shown once, to approve it
            out.diff(p.diff)
    out.line(f"stopped: {result.stop.value}")
    if result.warning:
        out.warning(result.warning)
    show_usage(out, ws, "refine", model, result.usage)
    complete = result.stop not in (StopReason.INTERRUPTED, StopReason.BUDGET)
    out.data(
        {
            "passes": [
                {
                    "number": p.number,
                    "focus": p.focus.value,
                    "diff": p.diff,
                    "sections": list(p.changed_sections),
                    "notes": p.reply,
                }
                for p in result.passes
            ],
            "stop": result.stop.value,
            "reviews": list(result.reviews),
            "cost_usd": result.cost_usd,
        }
    )
    if not complete:  # a failed pass: nothing says the reviews are addressed
        out.warning(REFINE_FAILED.format(stop=result.stop.value, rfd=rfd))
        return 1
    _offer_dismiss(out, ws, rfd, impl=result.implementation)
    return 0


def _offer_dismiss(out: Output, ws: Workspace, rfd: str, *, impl: bool = False) -> None:
    from bot.agent.authoring.refine import ask_dismiss
    from bot.agent.toolbox.permission import TerminalPrompter
    from bot.lifecycle.review import dismiss

    reviews = ws.store.list_reviews(str(ws.find(rfd).rfd_id), impl=impl)
    if not reviews:
        return
    if not ws.interactive:
        flag = " --impl" if impl else ""
        out.line(f"dismiss addressed reviews with `rfd dismiss {rfd} <n…|all>{flag}`")
        return
    selection = ask_dismiss(TerminalPrompter(), [r.headline for r in reviews])
    if selection:
        dismiss(ws, rfd, selection, impl=impl)  # the terminal listener names each dismissed file


def _author_step(name: str, run: str, doc: str) -> click.Command:
    @rfd_command(name, help=doc)
    @click.argument("rfd")
    @click.option("--notes", default="", help="What to tell the model first.")
    @ai_options
    def command(out: Output, rfd: str, notes: str, model: str | None, yes: bool) -> int:
        from bot.agent import steps

        ws = ai_workspace(out, yes, name, model)
        result = getattr(steps, run)(ws, rfd, notes, **options(ws, out, model))
        show_usage(out, ws, name, model, result.usage)
        out.data({"saved": result.saved, "text": result.text, "cost_usd": result.cost_usd})
        if result.saved:
            out.success(f"saved {result.saved}")
        return 0

    return command


explore = _author_step("explore", "explore_rfd", "Research the problem space (saves explore.md).")
converge = _author_step("converge", "converge_rfd", "Discuss and record design decisions.")
draft = _author_step("draft", "draft_rfd", "Draft the RFD section by section (needs decisions).")


@rfd_command()
@click.argument("title")
@click.option(
    "--category", default="design", type=click.Choice(["design", "decision", "guide", "process"])
)
@click.option("--notes", default="", help="Your problem statement or notes.")
@ai_options
def author(out: Output, title: str, category: str, notes: str, model: str | None, yes: bool) -> int:
    """Start a new RFD: create the draft, then explore the problem with the model."""
    from bot.agent.steps import author as start

    ws = ai_workspace(out, yes, "explore", model)
    result = start(ws, title, notes, category=category, **options(ws, out, model))
    show_usage(out, ws, "explore", model, result.usage)
    out.data({"saved": result.saved, "cost_usd": result.cost_usd})
    return 0


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
