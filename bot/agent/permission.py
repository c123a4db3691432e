"""Ask mode: a write is shown (a diff, a command line) and confirmed before it runs.

Three modes.  ``ASK``: a person answers through a :class:`Prompter` (yes / no / edit
the arguments).  ``YES``: ``--yes``, everything the tools allow runs.  ``CONFINED``:
nobody to ask (the GitHub bot): tools bounded by configuration (file writes inside
``implement.allowed_paths``, allow-listed commands) run, every other write is refused.

A command runs without a person only where it can be isolated
(:mod:`bot.agent.isolation`); elsewhere a person confirms each one, even with ``--yes``,
and with nobody to ask it is refused.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.agent.context import Tool, ToolContext
from bot.agent.isolation import ENABLE, NO_ISOLATION, choose
from bot.agent.tools import check_arguments
from bot.core.errors import Aborted, PermissionDenied

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
