"""Which phase ``/rfd implement`` runs — the one asked for by its label, else the next —
and the dead ends before any: nothing left to do, or no accepted plan on the default branch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.github.ops import Refused
from bot.github.run import Context
from bot.model import phase_ids

NO_PHASE = (
    "Every phase of RFD {rid} has its summary on `{branch}`: nothing is left to implement. "
    "**Next step:** comment `/rfd done` on the tracking issue: the bot opens the pull request "
    "that marks RFD {rid} Implemented."
)
MERGE_FIRST = (
    "RFD {rid} is not Accepted on `{branch}` yet. **Next step:** merge this pull request "
    "first, then comment `/rfd implement` on {issue}."
)
ACCEPT_FIRST = (
    "RFD {rid} has no accepted plan on `{branch}`. **Next step:** accept it on its pull "
    "request (`/rfd accept`) and merge that pull request, then comment `/rfd implement` here."
)
UNKNOWN_PHASE = "RFD {rid} has no phase {asked}: its phases are {labels}."


def not_accepted_yet(ctx: Context, rid: str) -> str:
    """The dead end of an RFD without a plan on the default branch, and the way out."""
    from bot.forge.comments import marker

    branch = ctx.delivery.default_branch
    if not ctx.delivery.on_pull_request:
        return ACCEPT_FIRST.format(rid=rid, branch=branch)
    issue = ctx.forge.find_issue(marker("tracking", rid))
    where = f"its tracking issue [#{issue.number}]({issue.url})" if issue else "its tracking issue"
    return MERGE_FIRST.format(rid=rid, branch=branch, issue=where)


def phase_to_run(
    ctx: Context, rid: str, plan: Sequence[Any], asked: str | None, nxt: int | None
) -> int:
    """The position of the phase to implement: the one asked for (by its label), else the
    next one; Refused when there is none."""
    if asked is None:
        if nxt is None:
            raise Refused(NO_PHASE.format(rid=rid, branch=ctx.delivery.default_branch))
        return nxt
    found = phase_ids.named(plan, asked)
    if found is None:
        raise Refused(UNKNOWN_PHASE.format(rid=rid, asked=asked, labels=_labels(plan)))
    return found


def _labels(plan: Sequence[Any]) -> str:
    return ", ".join(phase_ids.labels(plan))
