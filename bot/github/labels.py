"""Keep an issue's or PR's lifecycle label in step with its RFDs' statuses.

One request when nothing is new (none when the label is already right); a label
GitHub creates on first use comes back grey and is given its colour and
description once (see :mod:`bot.model.status`) — a colour that fails is a
warning in the job summary, not a failed run.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.github.run import Context, cosmetic
from bot.model.status import Status, label_changes, label_style


def sync_labels(
    ctx: Context, number: int, current: Iterable[str], statuses: Iterable[Status]
) -> None:
    """Add the labels of ``statuses`` to #``number`` and take off stale lifecycle labels."""
    todo = label_changes(current, statuses)
    for name in todo.remove:
        ctx.forge.remove_label(number, name)
    if todo.add:
        created = ctx.api.add_labels(number, todo.add)
        for name in created:
            _style(ctx, name)
    if todo.add:
        ctx.summary.note(f"#{number} labelled {', '.join(todo.add)}")
    if todo.remove:
        ctx.summary.note(f"#{number}: took off {', '.join(todo.remove)}")


def _style(ctx: Context, name: str) -> None:
    """Give a label GitHub just created its colour and description: a cosmetic, so a
    failure is a warning in the job summary, never the run's failure (its work is done)."""
    style = label_style(name)
    if style is None:
        return
    with cosmetic(ctx.summary, f"giving the label {name} its colour"):
        ctx.api.style_label(name, *style)
