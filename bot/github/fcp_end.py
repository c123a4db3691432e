"""The scheduled run says when a final comment period has ended, on the RFD's pull request.

The ledger needs no update: a final comment period that ran its ``fcp_days`` without a
concern pausing it is over by the clock, and the accept gate reads it so.  The
scheduled job may not write code (only the AI jobs may), so it comments: the RFD may be
accepted now.  With ``consensus.fcp_accepts`` it also applies the accept label, whose
job accepts the RFD (GitHub starts no workflow for a label the Actions token applied:
give the bot an App or machine-user token, ``bot.login``, for that).  One comment per
RFD, PR and final comment period, found by its marker: a second run writes nothing.
"""

from __future__ import annotations

from bot.forge.base import PullRequest, marker
from bot.github.checkout import changed_rfds
from bot.github.ops import forged_lines, pr_workspace
from bot.github.run import Context
from bot.lifecycle import signoff
from bot.lifecycle.workspace import Workspace
from bot.model.consensus import day
from bot.model.status import Status

MAY_ACCEPT = (
    "⏰ The final comment period of RFD {rfd} ended on {end} with no concern open: it may "
    "be accepted now (label `{label}` or `/rfd accept`)."
)
LABELLED = (
    "⏰ The final comment period of RFD {rfd} ended on {end} with no concern open: "
    "`consensus.fcp_accepts` applies the `{label}` label to accept it."
)


def end_elapsed(ctx: Context, pr: PullRequest) -> list[str]:
    """Announce the final comment periods of ``pr``'s RFDs that ended; a line for each."""
    wanted = ctx.cfg.consensus
    if not wanted.enabled or not wanted.fcp_days:
        return []
    changed = [
        c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root) if not c.removed
    ]
    if not changed:
        return []
    lines: list[str] = []
    with pr_workspace(ctx, pr, [c.file.path for c in changed], writable=False) as (ws, _):
        for rid in (str(c.file.rfd_id) for c in changed):
            if ended := _announce(ctx, pr, ws, rid):
                lines.append(ended)
    return lines + [f"#{pr.number}: {line}" for line in forged_lines(ctx)]


def _announce(ctx: Context, pr: PullRequest, ws: Workspace, rid: str) -> str:
    fcp = ws.store.read_consensus(rid).fcp
    open_status = ws.document(rid).status in (Status.DRAFT, Status.DISCUSSION)
    if fcp is None or not open_status or not fcp.elapsed(ctx.clock()):
        return ""
    if not signoff.current_standing(ws, rid).met:
        return ""
    key = f"{pr.number}-{rid}-{int(fcp.end)}"
    if ctx.forge.find_comment(pr.number, marker("fcp-end", key)) is not None:
        return ""  # announced by an earlier run
    label = ctx.cfg.labels.accept
    text = LABELLED if ctx.cfg.consensus.fcp_accepts else MAY_ACCEPT
    ctx.upsert("fcp-end", key, text.format(rfd=rid, end=day(fcp.end), label=label), pr.number)
    if ctx.cfg.consensus.fcp_accepts:
        ctx.forge.add_labels(pr.number, (label,))
    return f"#{pr.number}: the final comment period of RFD {rid} ended"
