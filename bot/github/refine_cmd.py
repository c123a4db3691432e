"""``/rfd refine`` on the RFD's pull request: one comment per run.

The progress comment is the answer: it follows the passes, then ends in what each pass
changed in the author's document (the sections it touched and the model's note), the
reviews it addressed by the numbers the status comment and ``/rfd dismiss`` use, and the
commit.  No second reply says the same; a loop that stopped on a failed pass also gets a
reply saying so (a failure is always answered).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.markdown_safe import inline
from bot.github.commands import Command
from bot.github.context import Context
from bot.github.ops import NEEDS_MODEL, Refused, commit, done_before, has_model, pr_workspace
from bot.github.ops import refreshed as refresh_status
from bot.github.revisions import review_numbers
from bot.github.targets import pull_of, targets

if TYPE_CHECKING:
    from bot.agent.refine import RefineResult
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
    from bot.agent.refine import StopReason
    from bot.agent.steps import refine_rfd
    from bot.github.refine_progress import refine_progress

    if not has_model(ctx, "refine", command.model):
        raise Refused(NEEDS_MODEL.format(verb="refine"))
    pr = pull_of(ctx, command.verb)
    (target,) = targets(ctx, pr, command, one=True)
    rid = str(target.file.rfd_id)
    with pr_workspace(ctx, pr, [target.file.path]) as (ws, checkout):
        if again := done_before(ctx, checkout, rid, "refined"):
            return again
        with refine_progress(ctx, ws, rid) as progress:
            result = refine_rfd(ws, rid, model=command.model)
            done = commit(ctx, checkout, [ws.path(ws.find(rid))], rid, "refined")
            progress.finish(result, refined_note(ws, rid, result, done))
        refresh_status(ctx, pr, checkout)
    if result.stop in (StopReason.INTERRUPTED, StopReason.BUDGET):
        return REFINE_FAILED.format(rid=rid, stop=result.stop.value)
    return ""


def refined_note(ws: Workspace, rid: str, result: RefineResult, done: str) -> str:
    """What the passes changed, the reviews addressed (by number), and the commit."""
    from bot.agent.refine import StopReason

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
    from bot.agent.refine import CONVERGED  # the word that ends the loop: no note of its own

    said = (line.strip() for line in reply.splitlines())
    first = next((line for line in said if line and not CONVERGED.match(line)), "")
    if not first:
        return ""
    cut = first if len(first) <= NOTE_CHARS else first[: NOTE_CHARS - 1] + "…"
    return f" — {inline(cut)}"
