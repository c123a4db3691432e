"""``push`` to the default branch: keep tracking issues in step with the RFDs.

A pushed ``phases/N.md`` ticks phase N; a changed status or plan updates the
issue; once every phase is done and the RFD is Implemented the issue is closed.
Boxes a person ticked or unticked are respected (``sync_tracking`` merges).
"""

from __future__ import annotations

from bot.github.ops import open_workspace
from bot.github.run import Context
from bot.github.tracked import sync, touched_rfds

TRUNCATED = 20
"""GitHub lists at most 20 commits in a push payload: past that, sync every RFD."""


def on_push(ctx: Context) -> None:
    delivery = ctx.delivery
    if delivery.pushed_ref != f"refs/heads/{delivery.default_branch}":
        ctx.summary.note(f"push to {delivery.pushed_ref}: not the default branch, nothing to do")
        return
    ws = open_workspace(ctx, ctx.root)
    commits = delivery.payload.get("commits") or ()
    if len(commits) >= TRUNCATED:
        ids = {str(f.rfd_id) for f in ws.files()}
    else:
        ids = touched_rfds(delivery.touched_paths(), ctx.cfg)
    if not ids:
        ctx.summary.note("the push touches no RFD, plan or phase summary")
        return
    sync(ctx, ws, ids)
