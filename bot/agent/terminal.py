"""The person at a terminal, as a :class:`~bot.agent.permission.Prompter` (for the CLI).

A pending write is shown (its diff or command line) and answered ``y``, ``n`` (with
an optional note for the model) or ``e``: the call's ``content`` — or, for tools
without one, its JSON arguments — opens in ``$EDITOR``, and the edited call is shown
again.  Reading, prompting and the editor are injected, so tests script them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from bot.agent.permission import Approval, Choice
from bot.core.errors import LeftPrompt

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
