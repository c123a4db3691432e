"""``/rfd refine``'s progress comment: which pass of at most five runs, the passes done
(each with its focus), time, tokens, cost and the run — ending in how the loop stopped (a
warning when a pass failed), or in the failure.  The comment and its pacing are
:mod:`bot.github.progress`'s."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from bot.core.errors import ForgeError
from bot.events import ResultReady, TurnStarted
from bot.github.context import Context
from bot.github.cosmetic import warn
from bot.github.progress import Progress, Snapshot, Stage
from bot.github.run_link import run_id, run_url
from bot.model import checklist

if TYPE_CHECKING:
    from bot.agent.authoring.refine import RefineResult
    from bot.lifecycle.workspace import Workspace

MAX_PASSES = 5
FOCUS = re.compile(r"\(([^()]+)\)$")
"""The focus in a pass's name: "refine pass 2 (completeness)"."""
TITLE = "RFD {rid}"
OUTCOME = "refined in {passes} ({stop})"
RETRY = "Comment `/rfd refine` to run it again: passes already committed are kept."
STOPPED = "stopped in pass {n} ({stop})"
UNFINISHED = (
    "That pass did not finish: the passes before it are kept, and so are the reviews. "
    "Comment `/rfd refine` again to go on."
)


class RefineProgress:
    """Follows the passes on the workspace's bus and writes them to the progress comment."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.done: list[checklist.Item] = []

    def on_turn(self, event: TurnStarted) -> None:
        if event.step == "refine":
            k = min(len(self.done) + 1, MAX_PASSES)
            self.progress.update(stage=Stage.PASS, k=k, n=MAX_PASSES, items=tuple(self.done))

    def on_result(self, event: ResultReady) -> ResultReady:
        if event.step == "refine":
            n = len(self.done) + 1
            focus = FOCUS.search(event.item)
            label = focus.group(1) if focus else event.item
            item = checklist.Item(n, label, checklist.ItemStatus.DONE, "", n, str(n))
            self.done.append(item)
        return event

    def finish(self, result: RefineResult, note: str = "") -> None:
        """The outcome; a loop that stopped on a failed pass ends in a warning, that pass
        marked failed with its reason (see ``REFINE_FAILED`` in :mod:`bot.github.refine_cmd`).
        ``note``: what the passes changed and what was committed (the run's answer)."""
        from bot.agent.authoring.refine import StopReason
        from bot.core.text import plural

        stop = result.stop.value
        if result.passes and result.stop in (StopReason.INTERRUPTED, StopReason.BUDGET):
            last = result.passes[-1]
            item = checklist.Item(
                last.number,
                last.focus.value,
                checklist.ItemStatus.FAILED,
                result.warning,
                last.number,
                str(last.number),
            )
            outcome = STOPPED.format(n=last.number, stop=stop)
            self.progress.done(outcome, [*self.done, item], UNFINISHED, note)
            return
        passes = plural(len(result.passes), "pass", "passes")
        self.progress.done(OUTCOME.format(passes=passes, stop=stop), self.done, note=note)


@contextmanager
def refine_progress(ctx: Context, ws: Workspace, rid: str) -> Iterator[RefineProgress]:
    """The progress comment of this refine, posted now; a failure inside is written to it."""
    snap = Snapshot(
        "Refining",
        TITLE.format(rid=rid),
        Stage.PASS,
        k=1,
        n=MAX_PASSES,
        run_url=run_url(ctx.environ),
    )
    key = f"{ctx.delivery.key}-refine"
    progress = Progress(
        lambda text: ctx.upsert("progress", key, text),
        snap,
        clock=ctx.clock,
        spent=lambda: (ctx.summary.spent.tokens, ctx.summary.spent.cost_usd),
        run_id=run_id(ctx.environ),
        warn=partial(warn, ctx.summary, "editing the progress comment"),
    )
    progress.update(force=True)
    follower = RefineProgress(progress)
    ws.bus.subscribe(TurnStarted, follower.on_turn, owner="progress")
    ws.bus.subscribe(ResultReady, follower.on_result, owner="progress")
    try:
        yield follower
    except Exception as exc:
        try:
            progress.failed(str(exc), RETRY)
        except ForgeError as again:
            ctx.summary.problem(again)
        raise
