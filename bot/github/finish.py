"""``/rfd done`` away from the RFD's open pull request.

On the tracking issue the bot opens (or finds) the one-line pull request that marks the
RFD Implemented, the way Ember's process opens its advancement PRs: branch
``rfd/045-implemented`` from the default branch, the status line changed, a body that
closes the tracking issue when merged.  On any other pull request — a phase's, or the
RFD's once merged or closed — the answer links the tracking issue, where it works.
"""

from __future__ import annotations

import re

from bot.core.errors import GateError
from bot.core.markdown_safe import inline
from bot.forge.comments import marker
from bot.github.changed import changed_rfds
from bot.github.checkout import close, commit_and_push, open_branch, pushed_branch
from bot.github.context import Context
from bot.github.ops import COMMIT, Refused, open_workspace
from bot.github.records import PullRequest
from bot.github.targets import issue_rfd
from bot.model.status import Status

BRANCH = "rfd/{rid}-implemented"
TITLE = "RFD {rid}: Implemented"
PR_BODY = (
    "<!-- rfd-bot:implemented:{rid} -->\n"
    "Every required phase of RFD {rid} is done: this pull request changes its status line to "
    "Implemented.\n\nCloses #{issue} (the tracking issue) when merged. Checks do not start by "
    "themselves on pull requests the bot opens: push a commit or re-run them."
)
OPENED = (
    "Opened {url}: it marks RFD {rid} Implemented. **Next step:** someone with write access "
    "merges it; the merge closes this issue."
)
REOPENED = (
    "Opened {url} from branch `{branch}`, which an earlier run pushed before it could open the "
    "pull request. **Next step:** someone with write access merges it; the merge closes this "
    "issue."
)
EXISTS = (
    "RFD {rid} already has its pull request to Implemented: {url}. **Next step:** someone with "
    "write access merges it; the merge closes this issue."
)
NOT_ACCEPTED = "RFD {rid} is {status} on `{branch}`: only an Accepted RFD becomes Implemented."
NOT_YET = (
    "Not yet: {why}. **Next step:** comment `/rfd implement` here to run the next phase; "
    "`/rfd done` once every phase is merged."
)
GO_THERE = (
    "`/rfd done` for RFD {rid} works on its tracking issue: comment it on [#{issue}]({url}), "
    "and the bot opens the pull request that marks the RFD Implemented."
)
NO_ISSUE = (
    "RFD {rid} has no tracking issue yet (it is opened when the RFD is accepted): accept it "
    "on its pull request first."
)
PHASE_BRANCH = re.compile(r"^rfd/(?P<rid>\d{1,5})-phase-")


def finish_on_issue(ctx: Context) -> str:
    """Open (or find) the pull request that marks the tracking issue's RFD Implemented."""
    rid = issue_rfd(ctx)
    branch = BRANCH.format(rid=rid)
    found = ctx.api.find_pull(branch)
    if found is not None:
        return EXISTS.format(rid=rid, url=found[1])
    if pushed_branch(ctx.root, branch, ctx.environ) is not None:
        return REOPENED.format(url=_open_pull(ctx, rid, branch), branch=branch)
    _promote_on(ctx, rid, branch)
    return OPENED.format(url=_open_pull(ctx, rid, branch), rid=rid)


def _promote_on(ctx: Context, rid: str, branch: str) -> None:
    """Commit the Implemented status on a new ``branch`` of the default branch and push it."""
    from bot.lifecycle.lifecycle import promote

    default = ctx.delivery.default_branch
    status = open_workspace(ctx, ctx.root).document(rid).status
    if status is not Status.ACCEPTED:
        raise Refused(NOT_ACCEPTED.format(rid=rid, status=status.value, branch=default))
    checkout = open_branch(ctx.root, branch, ctx.environ)
    try:
        try:
            outcome = promote(open_workspace(ctx, checkout.root), rid, Status.IMPLEMENTED)
        except GateError as gate:
            raise Refused(NOT_YET.format(why=inline(gate.message).rstrip("."))) from None
        message = COMMIT.format(ids=rid, what="implemented", key=ctx.delivery.key)
        if commit_and_push(checkout, outcome.changed, message, ctx.environ):
            ctx.progress.append(f"RFD {rid} marked Implemented on `{branch}`; "
                                "its pull request not yet opened")  # fmt: skip
    finally:
        close(ctx.root, checkout)


def _open_pull(ctx: Context, rid: str, branch: str) -> str:
    body = PR_BODY.format(rid=rid, issue=ctx.number)
    _, url = ctx.api.create_pull(TITLE.format(rid=rid), branch, ctx.delivery.default_branch, body)
    return url


def elsewhere(ctx: Context, pr: PullRequest) -> str | None:
    """Where ``/rfd done`` works when not on ``pr`` (a phase's PR, or the RFD's merged or
    closed one), as a reply linking it; None when ``pr`` is the RFD's open pull request."""
    changed = [c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg) if not c.removed]
    if pr.open and changed:
        return None
    phase = PHASE_BRANCH.match(pr.head_ref)
    rids = [str(c.file.rfd_id) for c in changed] or ([phase.group("rid")] if phase else [])
    if not rids:
        return None  # no RFD to name: the usual "changes no RFD" answer
    issue = ctx.forge.find_issue(marker("tracking", rids[0]))
    if issue is None:
        return NO_ISSUE.format(rid=rids[0])
    return GO_THERE.format(rid=rids[0], issue=issue.number, url=issue.url)
