"""Keep an issue's or PR's lifecycle label in step with its RFDs' statuses.

One request when nothing is new (none when the label is already right); a label
GitHub creates on first use comes back grey and is given its colour and
description once (see :mod:`bot.model.lifecycle_labels`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.github.context import Context
from bot.model import lifecycle_labels
from bot.model.status import Status


def sync_labels(ctx: Context, number: int, current: Iterable[str],
                statuses: Iterable[Status]) -> None:  # fmt: skip
    """Add the labels of ``statuses`` to #``number`` and take off stale lifecycle labels."""
    todo = lifecycle_labels.changes(current, statuses)
    for name in todo.remove:
        ctx.forge.remove_label(number, name)
    if todo.add:
        created = ctx.api.add_labels(number, todo.add)
        for name in created:
            style = lifecycle_labels.style(name)
            if style is not None:
                ctx.api.style_label(name, *style)
    if todo.add:
        ctx.summary.note(f"#{number} labelled {', '.join(todo.add)}")
    if todo.remove:
        ctx.summary.note(f"#{number}: took off {', '.join(todo.remove)}")
