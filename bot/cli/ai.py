"""AI steps in the terminal: ``refine``, ``author``, ``explore``, ``converge``, ``draft``
(``implement`` is :mod:`bot.cli.ai_implement`).  Replies stream as they arrive (rendered as
markdown on a terminal, :mod:`bot.cli.stream`); every write is shown and confirmed (ask
mode) unless ``--yes``; usage and cost are printed after each step."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bot.cli.common import model_flag, rfd_command, workspace
from bot.cli.output import Output
from bot.core.errors import ProviderError, ValidationError

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
