"""Which RFD a ``/rfd`` command is about: the one its pull request changes (``--rfd`` when
it changes several), or the RFD of the tracking issue it was commented on.
"""

from __future__ import annotations

from bot.forge.base import PullRequest
from bot.github.checkout import ChangedRfd, changed_rfds
from bot.github.commands import Command, Verb
from bot.github.ops import Refused
from bot.github.run import Context
from bot.github.tracked import rfd_of_issue

ON_PR_ONLY = "`/rfd {verb}` works on the RFD's pull request, not on an issue."
WHICH_RFD = "This pull request changes RFDs {ids}: say which one with `--rfd {first}`."
NOT_IN_PR = "RFD {rfd} is not changed by this pull request (it changes {ids})."
NO_RFD = "This pull request changes no RFD."
NOT_TRACKING = "This issue is not an RFD tracking issue: comment on the RFD's pull request."


def pull_of(ctx: Context, verb: Verb) -> PullRequest:
    """The open PR a command was commented on; Refused on an issue and on a merged or
    closed PR, with a link to where the command works (:mod:`bot.github.places`)."""
    from bot.github.places import redirect

    if not ctx.delivery.on_pull_request:
        raise Refused(redirect(ctx, verb) or ON_PR_ONLY.format(verb=verb.value))
    pr = ctx.api.pull(ctx.number)
    if not pr.open and (there := redirect(ctx, verb, pr)) is not None:
        raise Refused(there)
    return pr


def targets(ctx: Context, pr: PullRequest, command: Command, *, one: bool) -> list[ChangedRfd]:
    """The RFDs of ``pr`` a command is about: ``--rfd``, else all it changes (``one``: just one)."""
    changed = [
        c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root) if not c.removed
    ]
    ids = ", ".join(str(c.file.rfd_id) for c in changed) or "none"
    if command.rfd is not None:
        from bot.model.ids import RfdId

        wanted = RfdId.parse(command.rfd)
        changed = [c for c in changed if c.file.rfd_id == wanted]
        if not changed:
            raise Refused(NOT_IN_PR.format(rfd=command.rfd, ids=ids))
    if not changed:
        from bot.github.places import redirect

        raise Refused(redirect(ctx, command.verb, pr) or NO_RFD)
    if one and len(changed) > 1:
        raise Refused(WHICH_RFD.format(ids=ids, first=changed[0].file.rfd_id))
    return changed


def issue_rfd(ctx: Context) -> str:
    """The RFD of the tracking issue this comment is on (Refused on any other issue)."""
    issue = ctx.delivery.payload["issue"]
    author = str((issue.get("user") or {}).get("login", ""))
    rid = rfd_of_issue(str(issue.get("body") or "")) if ctx.forge.is_mine(author) else None
    if rid is None:
        raise Refused(NOT_TRACKING)
    return rid


def rfd_for_implement(ctx: Context, command: Command) -> str:
    """The RFD `/rfd implement` is about: the tracking issue's, or the pull request's one."""
    if not ctx.delivery.on_pull_request:
        return issue_rfd(ctx)
    pr = ctx.api.pull(ctx.number)
    if not pr.open:  # the RFD's merged pull request: the tracking issue is where it goes on
        from bot.github.places import redirect

        if (there := redirect(ctx, command.verb, pr)) is not None:
            raise Refused(there)
    (target,) = targets(ctx, pr, command, one=True)
    return str(target.file.rfd_id)


def target_of(ctx: Context, pr: PullRequest, command: Command) -> ChangedRfd:
    """The one RFD of ``pr`` the command is about (``--rfd`` when it changes several)."""
    (target,) = targets(ctx, pr, command, one=True)
    return target
