"""Writes that only decorate a run's work: a reaction, a label's colour, a progress edit,
the status comment's refresh after the bot's own change.

When GitHub refuses one (403, 422, a 5xx past its retries) the work the run did stands:
the failure is a warning in the job summary (``$GITHUB_STEP_SUMMARY``) and in the log
(a ``::warning::`` line), and the run goes on to its end and its exit code.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.core.errors import ForgeError
from bot.forge.base import Reaction
from bot.github.context import Context
from bot.github.summary import Summary

FAILED = "{what} failed ({why}); the run's work is done and stands"


@contextmanager
def cosmetic(summary: Summary, what: str) -> Iterator[None]:
    """Run the write inside; a :class:`ForgeError` becomes a warning saying ``what`` failed."""
    try:
        yield
    except ForgeError as err:
        warn(summary, what, err)


def warn(summary: Summary, what: str, err: ForgeError) -> None:
    why = err.message + (f": {err.hint}" if err.hint else "")
    summary.problem(ForgeError(FAILED.format(what=what, why=why)), level="warning")


def react(ctx: Context, reaction: Reaction) -> bool:
    """React to the command's comment; False only when the comment was deleted meanwhile
    (a reaction GitHub refuses is a warning: the command still runs and its work stands)."""
    with cosmetic(ctx.summary, f"the {reaction.value} reaction"):
        return ctx.api.react(int(ctx.delivery.comment["id"]), reaction)
    return True
