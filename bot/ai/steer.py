"""``--edit``: the person steers a step's prompt in ``$EDITOR`` before it is sent.

Seed 000 shows the contributor the prompt a review or a refinement would send, lets them
edit it, and sends what they saved.  A :data:`Steer` gets the task the step would send
(the last user message: the instructions after the documents) and returns what the
person saved; ``None`` (closed without saving) or an empty text sends nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.core.errors import Aborted
from bot.llm.base import Request

Steer = Callable[[str], "str | None"]
NOT_SAVED = "nothing was sent: the prompt was closed without saving (or saved empty)"


def steered_text(task: str, steer: Steer) -> str:
    """What the person saved of ``task``; Aborted when they saved nothing."""
    edited = steer(task)
    if edited is None or not edited.strip():
        raise Aborted(NOT_SAVED)
    return edited.strip() + "\n"


def steered(request: Request, steer: Steer | None) -> Request:
    """``request`` with its last message (the task) as the person saved it."""
    if steer is None:
        return request
    *head, task = request.messages
    text = steered_text(task.text, steer)
    return dataclasses.replace(request, messages=(*head, dataclasses.replace(task, text=text)))


def editor(text: str) -> str | None:
    """``$EDITOR`` (click's choice when unset) on ``text``; ``None`` when not saved."""
    import click

    edited: str | None = click.edit(text, extension=".md", require_save=True)
    return edited
