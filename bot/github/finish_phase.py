"""``[implement] finish_in_last_phase``: the last phase's pull request also marks the RFD
Implemented.

After the phase's commit is pushed, a second bot commit on the phase's branch changes the
RFD's status line — only when every phase is then recorded (the same gate as ``/rfd done``),
so an earlier phase, or one with failed items, never carries it.  The pull request's body
says so and closes the tracking issue on merge.  Both the one-job run and the publish job of
the two-job run call it, each with the commit it pushed.
"""

from __future__ import annotations

from bot.core.errors import GateError
from bot.github.checkout import close, open_branch
from bot.github.context import Context
from bot.github.ops import bot_commit, open_workspace

CLOSES = (
    "\n\nIt also marks RFD {rid} Implemented (`[implement] finish_in_last_phase`): "
    "merging it closes #{issue}, the tracking issue."
)


def finish_with_phase(ctx: Context, rid: str, branch: str, phase_commit: str) -> str:
    """Commit the Implemented status on ``branch`` after ``phase_commit`` and push it, when
    the option is on and every phase is recorded there; what the pull request's body adds
    (empty when nothing was done)."""
    if not ctx.cfg.implement.finish_in_last_phase:
        return ""
    from bot.lifecycle.lifecycle import promote
    from bot.model.status import Status

    checkout = open_branch(ctx.root, branch, ctx.environ, at=phase_commit)
    try:
        ws = open_workspace(ctx, checkout.root)
        try:
            outcome = promote(ws, rid, Status.IMPLEMENTED)
        except GateError:
            return ""  # phases remain: not the last one
        noted = f"RFD {rid} marked Implemented on `{{branch}}`"
        sha = bot_commit(ctx, checkout, outcome.changed, rid, "implemented", noted=noted)
        issue = ws.document(rid).tracking_issue
    finally:
        close(ctx.root, checkout)
    if sha is None:
        return ""
    return CLOSES.format(rid=rid, issue=issue) if issue else ""
