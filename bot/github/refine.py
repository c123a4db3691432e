"""``/rfd refine`` on the RFD's pull request: the command and its progress comment, one
comment per run.

The progress comment shows which pass of at most five runs, the passes done (each with
its focus), time, tokens, cost and the run; the comment and its pacing are
:mod:`bot.github.progress`'s.  It is the answer: it ends in how the loop stopped, or in
the failure, and in what each pass changed in the author's document (the sections it
touched and the model's note), the reviews it addressed by the numbers the status
comment and ``/rfd dismiss`` use, and the commit.  No second reply says the same; a
loop that stopped on a failed pass ends in a warning and also gets a reply saying so (a
failure is always answered).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from bot.core.errors import ForgeError
from bot.core.github_markdown import inline
from bot.events import ResultReady, TurnStarted
from bot.github.commands import Command
from bot.github.ops import NEEDS_MODEL, Refused, commit, done_before, has_model, pr_workspace
from bot.github.ops import refreshed as refresh_status
from bot.github.progress import Progress, Snapshot, Stage
from bot.github.review_post import review_numbers
from bot.github.run import Context, run_id, run_url, warn
from bot.github.targets import pull_of, targets
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
        marked failed with its reason (see :data:`REFINE_FAILED`).
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


if TYPE_CHECKING:
    from bot.agent.authoring.refine import RefineResult
    from bot.lifecycle.workspace import Workspace

REFINE_FAILED = (
    "⚠️ Refine of RFD {rid} did not finish ({stop}): the passes before the failure are kept; "
    "comment `/rfd refine` again to go on."
)
PASS = "- **Pass {n}** ({focus}): {changed}{note}"
NO_CHANGE = "no change"
NOT_FINISHED = "did not finish"
ADDRESSED = "Reviews addressed: {reviews}."
KEPT = "Reviews kept: {reviews}."
SETTLE = " Once you agree they are settled: `/rfd dismiss {numbers}`."
NOTE_CHARS = 200


def do_refine(ctx: Context, command: Command) -> str:
    from bot.agent.authoring.refine import StopReason
    from bot.agent.steps import refine_rfd

    if not has_model(ctx, "refine", command.model):
        raise Refused(NEEDS_MODEL.format(verb="refine"))
    pr = pull_of(ctx, command.verb)
    (target,) = targets(ctx, pr, command, one=True)
    rid = str(target.file.rfd_id)
    with pr_workspace(ctx, pr, [target.file.path]) as (ws, checkout):
        if again := done_before(ctx, pr, checkout, rid, "refined"):
            return again
        with refine_progress(ctx, ws, rid) as progress:
            result = refine_rfd(ws, rid, model=command.model)
            done = commit(ctx, pr, checkout, [ws.path(ws.find(rid))], rid, "refined")
            progress.finish(result, refined_note(ws, rid, result, done))
        refresh_status(ctx, pr, checkout)
    if result.stop in (StopReason.INTERRUPTED, StopReason.BUDGET):
        return REFINE_FAILED.format(rid=rid, stop=result.stop.value)
    return ""


def refined_note(ws: Workspace, rid: str, result: RefineResult, done: str) -> str:
    """What the passes changed, the reviews addressed (by number), and the commit."""
    from bot.agent.authoring.refine import StopReason

    failed = result.stop in (StopReason.INTERRUPTED, StopReason.BUDGET)
    last = result.passes[-1].number if result.passes else 0
    lines = [
        PASS.format(
            n=p.number,
            focus=p.focus.value,
            changed=NOT_FINISHED
            if failed and p.number == last
            else inline(", ".join(p.changed_sections)) or NO_CHANGE,
            note=_note(p.reply),
        )
        for p in result.passes
    ]
    numbers = review_numbers(ws, rid, result.reviews)
    paragraphs = ["\n".join(lines)] if lines else []
    if numbers:
        reviews = ", ".join(f"review {n}" for n in numbers)
        # after a failed pass nothing says they are settled
        said = (KEPT if failed else ADDRESSED).format(reviews=reviews)
        if not failed:
            said += SETTLE.format(numbers=" ".join(str(n) for n in numbers))
        paragraphs.append(said)
    return "\n\n".join([*paragraphs, done])


def _note(reply: str) -> str:
    """The model's own words on a pass: its first line, cut short (empty when none)."""
    from bot.agent.authoring.refine import (
        CONVERGED,  # the word that ends the loop: no note of its own
    )

    said = (line.strip() for line in reply.splitlines())
    first = next((line for line in said if line and not CONVERGED.match(line)), "")
    if not first:
        return ""
    cut = first if len(first) <= NOTE_CHARS else first[: NOTE_CHARS - 1] + "…"
    return f" — {inline(cut)}"
