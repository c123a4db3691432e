"""``workflow_dispatch`` / ``schedule``: repair drift and report it.

Every accepted or implemented RFD's tracking issue is synced from the files
(created if missing, phases ticked, closed when done); open PRs still carrying
the review or accept label (a run that died) are listed so someone re-applies
them.  The job summary says what changed.
"""

from __future__ import annotations

from bot.github.context import Context
from bot.github.ops import open_workspace
from bot.github.tracked import sync


def on_dispatch(ctx: Context) -> None:
    ws = open_workspace(ctx, ctx.root)
    sync(ctx, ws, [str(f.rfd_id) for f in ws.files()])
    for label in (ctx.cfg.labels.review, ctx.cfg.labels.accept):
        for number in ctx.api.open_with_label(label):
            ctx.summary.note(f"#{number} still has `{label}`: remove and apply it again to retry")
