"""The scheduled run ends elapsed final comment periods on open pull requests.

For each RFD of the PR whose final comment period has run its ``fcp_days`` without
a concern pausing it, the ledger records its end; with ``consensus.fcp_accepts`` the
RFD is accepted in the same commit (when nothing else is missing), otherwise a
comment says it may be accepted.  The comment is one per RFD and PR, found by its
marker; it is written before the commit, so a run that dies in between is finished
by the next one without a second comment.
"""

from __future__ import annotations

from pathlib import Path

from bot import signoff
from bot.consensus import day
from bot.github.api import PullRequest
from bot.github.changed import changed_rfds
from bot.github.checkout import Checkout
from bot.github.context import Context
from bot.github.ops import commit, pr_workspace
from bot.status import Status
from bot.workspace import Workspace

MAY_ACCEPT = (
    "⏰ The final comment period of RFD {rfd} ended on {end} with no concern open: it may "
    "be accepted now (label `{label}` or `/rfd accept`)."
)
ACCEPTED = (
    "⏰ The final comment period of RFD {rfd} ended on {end} with no concern open.\n\n🚀 {done}"
)
WHAT = "final comment period ended"


def end_elapsed(ctx: Context, pr: PullRequest) -> list[str]:
    """End the elapsed final comment periods of ``pr``'s RFDs; a line for each one ended."""
    wanted = ctx.cfg.consensus
    if not wanted.enabled or not wanted.fcp_days or pr.is_fork:
        return []
    changed = [c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg) if not c.removed]
    if not changed:
        return []
    lines: list[str] = []
    with pr_workspace(ctx, pr, [c.file.path for c in changed]) as (ws, checkout):
        for rid in (str(c.file.rfd_id) for c in changed):
            if ended := _end(ctx, pr, ws, checkout, rid):
                lines.append(ended)
    return lines


def _end(ctx: Context, pr: PullRequest, ws: Workspace, checkout: Checkout, rid: str) -> str:
    if ws.document(rid).status not in (Status.DRAFT, Status.DISCUSSION):
        return ""
    ended = signoff.end_fcp(ws, rid)
    if ended is None or ended.ledger.fcp is None:
        return ""
    end = day(ended.ledger.fcp.end)
    paths: list[Path] = list(ended.changed)
    text = MAY_ACCEPT.format(rfd=rid, end=end, label=ctx.cfg.labels.accept)
    if ctx.cfg.consensus.fcp_accepts and signoff.current_standing(ws, rid).met:
        from bot.accept import accept

        outcome = accept(ws, rid)
        paths += outcome.changed
        rid = outcome.rfd_id
        text = ACCEPTED.format(rfd=rid, end=end, done=outcome.message)
    ctx.upsert("fcp-end", f"{pr.number}-{rid}", text, number=pr.number)
    done = commit(ctx, checkout, paths, rid, WHAT)
    return f"#{pr.number}: the final comment period of RFD {rid} ended. {done}"
