"""Reconcile's repair of progress comments whose run died (cancelled, timed out, runner lost).

A progress comment carries its run's marker (``<!-- rfd-bot:run:<id> -->``, among the
marker lines opening it: elsewhere it is text) only while the run works
(:mod:`bot.github.progress`).  A run cannot outlive its job's timeout, so a comment still
carrying the marker and not edited for longer than that belongs to a run that is no longer
in progress: it is marked as ended — the ⏳ goes, the checklist stays as far as the run
got, and the comment says what to do.  Nothing else in it changes.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from bot.forge.comments import leading_markers
from bot.github.context import Context
from bot.github.progress import LIVE_NOTE, WORKING

DIED_AFTER = timedelta(minutes=40)
"""Longer than the ``comment`` job's timeout (30 minutes): its run is over."""
RUN_MARK = re.compile(r"<!-- rfd-bot:run:([0-9]+) -->")
RUNNING_HEAD = re.compile(r"^### ⏳ (?P<title>.*)$", re.MULTILINE)
ENDED_HEAD = "### ⚠️ {title} — the run ended without finishing"
ENDED_NOTE = (
    "Its workflow run stopped (cancelled, timed out or its runner lost) before it could say how "
    "it ended; the checklist shows how far it got. Comment the command again to run it anew."
)
STOPPED_HERE = " ← the run stopped here"
REPAIRED = "#{number}: progress comment of run {run} marked as ended (the run is over): {url}"


def ended(body: str) -> str | None:
    """``body`` marked as the comment of a run that ended; None when it is not running."""
    found = run_marker(body)
    if found is None:
        return None
    text = body.replace(f"{found.group(0)}\n", "", 1)
    head = ENDED_HEAD.format(title=r"\g<title>")
    text = RUNNING_HEAD.sub(f"{head}\n\n{ENDED_NOTE}", text, count=1)
    return text.replace(LIVE_NOTE, "").replace(WORKING, STOPPED_HERE)


def run_marker(body: str) -> re.Match[str] | None:
    """The run marker where the bot puts it (among the marker lines opening ``body``)."""
    return next(filter(None, map(RUN_MARK.fullmatch, leading_markers(body))), None)


def repair(ctx: Context, number: int) -> list[str]:
    """Mark the progress comments of dead runs on ``number`` as ended; what was repaired."""
    lines = []
    for comment in ctx.forge.comments(number):
        found = run_marker(comment.body)
        text = ended(comment.body)
        if found is None or text is None or not _older(comment.updated, ctx.clock()):
            continue
        edited = ctx.forge.edit_comment(number, comment.id, text)
        lines.append(REPAIRED.format(number=number, run=found.group(1), url=edited.url))
    return lines


def _older(stamp: str, now: float) -> bool:
    """Was ``stamp`` (ISO 8601) written more than :data:`DIED_AFTER` before ``now``?"""
    try:
        then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return False
    return now - then.timestamp() > DIED_AFTER.total_seconds()
