"""Ask mode: a write is shown (a diff, a command line) and confirmed before it runs.

Three modes.  ``ASK``: a person answers through a :class:`Prompter` (yes / no / edit
the arguments).  ``YES``: ``--yes``, everything the tools allow runs.  ``CONFINED``:
nobody to ask (the GitHub bot): tools bounded by configuration (file writes inside
``implement.allowed_paths``, allow-listed commands) run, every other write is refused.

A command runs without a person only where it can be isolated
(:mod:`bot.agent.implementation.isolation`); elsewhere a person confirms each one, even
with ``--yes``, and with nobody to ask it is refused.

:class:`TerminalPrompter` is the person at a terminal (for the CLI).  A pending write is
shown (its diff or command line) and answered ``y``, ``n`` (with an optional note for
the model) or ``e``: the call's ``content`` — or, for tools without one, its JSON
arguments — opens in ``$EDITOR``, and the edited call is shown again.  Reading,
prompting and the editor are injected, so tests script them.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.agent.implementation.isolation import ENABLE, NO_ISOLATION, choose
from bot.agent.toolbox.base import Tool, ToolContext
from bot.agent.toolbox.catalog import check_arguments
from bot.core.errors import Aborted, LeftPrompt, PermissionDenied

MAX_EDITS = 3
DECLINED = "the person declined this call"
SAID = '{declined} and said: "{note}"'
FINAL = "; their answer is final: do not make this change in another way, ask them instead"
NO_PERSON = "`{tool}` needs a person to confirm it, and nobody can be asked here"


class Mode(enum.Enum):
    ASK = "ask"
    YES = "yes"
    CONFINED = "confined"


class Choice(enum.Enum):
    YES = "y"
    NO = "n"
    EDIT = "edit"


@dataclass(frozen=True)
class Approval:
    choice: Choice
    arguments: Mapping[str, Any] | None = None
    """For ``EDIT``: the arguments as the person changed them."""
    note: str = ""
    """For ``NO``: what the person wants instead (passed to the model)."""


class Prompter(Protocol):
    """The person at the terminal (the CLI implements it; tests script it)."""

    def approve(self, tool: str, arguments: Mapping[str, Any], preview: str) -> Approval:
        """Show a pending tool call and its preview; answer yes, no or edited arguments."""
        ...

    def ask(self, prompt: str) -> str | None:
        """The person's next message in a conversation; ``None`` ends it."""
        ...


def permit(
    tool: Tool,
    arguments: dict[str, Any],
    ctx: ToolContext,
    mode: Mode,
    prompter: Prompter | None,
) -> dict[str, Any]:
    """The arguments the call may run with, or PermissionDenied / Aborted."""
    if tool.isolated and choose(ctx.config.implement.isolation) is None:
        if mode is Mode.CONFINED or prompter is None:
            raise PermissionDenied(f"`{tool.name}` refused: {NO_ISOLATION}", hint=ENABLE)
        return _ask(tool, arguments, ctx, prompter)
    if not tool.writes or mode is Mode.YES:
        return arguments
    if mode is Mode.CONFINED or prompter is None:
        if tool.confined:
            return arguments
        raise PermissionDenied(NO_PERSON.format(tool=tool.name))
    return _ask(tool, arguments, ctx, prompter)


def _ask(
    tool: Tool, arguments: dict[str, Any], ctx: ToolContext, prompter: Prompter
) -> dict[str, Any]:
    for _ in range(MAX_EDITS + 1):
        preview = tool.preview(ctx, arguments) if tool.preview else ""
        answer = prompter.approve(tool.name, arguments, preview)
        if answer.choice is Choice.YES:
            return arguments
        if answer.choice is Choice.NO:
            said = SAID.format(declined=DECLINED, note=answer.note) if answer.note else DECLINED
            raise Declined(said + FINAL)
        arguments = check_arguments(tool, answer.arguments or arguments)
    raise Declined(f"{DECLINED} (edited {MAX_EDITS} times without approving){FINAL}")


class Declined(Aborted):
    """The person answered no to a proposed write: final for that proposal."""


CHOICES = {"y": Choice.YES, "yes": Choice.YES, "n": Choice.NO, "no": Choice.NO}
CHOICES |= {"e": Choice.EDIT, "edit": Choice.EDIT}
QUESTION = "Apply? [Y]es / [n]o / [e]dit (enter: yes)"
WHY_NOT = "What should it do instead? (enter to skip)"
CTRL_C = "Ctrl-C at the prompt"
CTRL_D = "Ctrl-D at the prompt"
CLOSED = "the terminal closed"


def _click_prompt(text: str) -> str:
    """One answer; :class:`LeftPrompt` when the person leaves instead (click says only
    ``Abort``: what it aborted on is its context)."""
    import click

    question, suffix = prompt_parts(text)
    try:
        return str(click.prompt(question, default="", show_default=False, prompt_suffix=suffix))
    except click.Abort as exc:
        raise LeftPrompt(_why(exc.__context__)) from None
    except OSError as exc:  # the terminal went away under the read
        raise LeftPrompt(CLOSED) from exc


def prompt_parts(text: str) -> tuple[str, str]:
    """``(question, suffix)`` for click: a question that already ends in ``:``, ``>`` or
    ``?`` gets a space, not click's ``": "`` again (never ``"…skip]: : "``)."""
    question = text.rstrip()
    return question, " " if question.endswith((":", ">", "?")) else ": "


def _why(cause: BaseException | None) -> str:
    if isinstance(cause, EOFError):
        return CTRL_D
    return CTRL_C if isinstance(cause, KeyboardInterrupt) else CLOSED


def _click_edit(text: str, extension: str) -> str | None:
    import click

    edited: str | None = click.edit(text, extension=extension, require_save=True)
    return edited


class TerminalPrompter:
    def __init__(
        self,
        *,
        echo: Callable[[str], None] = print,
        prompt: Callable[[str], str] = _click_prompt,
        edit: Callable[[str, str], str | None] = _click_edit,
    ) -> None:
        self.echo, self.prompt, self.edit = echo, prompt, edit

    def approve(self, tool: str, arguments: Mapping[str, Any], preview: str) -> Approval:
        self.echo(f"\n── {tool} ──\n{preview.rstrip()}\n")
        while (choice := CHOICES.get(self.prompt(QUESTION).strip().lower() or "y")) is None:
            self.echo("answer y, n or e")
        if choice is Choice.NO:
            return Approval(Choice.NO, note=self.prompt(WHY_NOT).strip())
        if choice is Choice.EDIT:
            return Approval(Choice.EDIT, self._edited(arguments))
        return Approval(Choice.YES)

    def _edited(self, arguments: Mapping[str, Any]) -> Mapping[str, Any]:
        if isinstance(arguments.get("content"), str):
            text = self.edit(arguments["content"], ".md")
            return arguments if text is None else {**arguments, "content": text}
        text = self.edit(json.dumps(dict(arguments), indent=2) + "\n", ".json")
        try:
            edited = json.loads(text) if text is not None else arguments
        except json.JSONDecodeError as exc:
            self.echo(f"not valid JSON ({exc}); keeping the call as it was")
            return arguments
        return edited if isinstance(edited, dict) else arguments

    def ask(self, prompt: str) -> str | None:
        """The person's next message; leaving the prompt raises :class:`LeftPrompt` (the
        step saves what it has), only an empty answer ends the conversation."""
        self.echo("")  # the reply before it may not end its line (piped, NO_COLOR)
        try:
            return self.prompt(prompt)
        except LeftPrompt:
            raise
        except EOFError:
            raise LeftPrompt(CTRL_D) from None
        except KeyboardInterrupt:
            raise LeftPrompt(CTRL_C) from None
