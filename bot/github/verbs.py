"""What each ``/rfd`` verb does in the bot: a lifecycle operation on the PR, and a reply.

Each handler takes the context and the parsed command and returns the reply
text; :class:`~bot.github.ops.Refused` says why a command cannot run here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from bot.core.github_markdown import inline
from bot.github.accept import accept_pr
from bot.github.commands import Command, Verb, help_text
from bot.github.ops import (
    Refused,
    commit,
    done_before,
    pr_workspace,
    refreshed,
)
from bot.github.review import already_reviewed, review_pr
from bot.github.run import Context
from bot.github.status_comment import post_status
from bot.github.targets import NO_RFD, issue_rfd, pull_of, targets

Handler = Callable[[Context, Command], str]

CLOSED_ON_MERGE = (
    "Tracking issue{issue} stays open until this pull request is merged into `{branch}`; "
    "the push of the merge closes it (every phase is done)."
)
STATUS_LINK = "The [status comment]({url}) is up to date."


def do_help(ctx: Context, command: Command) -> str:
    return help_text(ctx.cfg)


def do_status(ctx: Context, command: Command) -> str:
    """Refresh the status comment and link it; on a tracking issue, the implementation."""
    if not ctx.delivery.on_pull_request:
        from bot.github.issue_status import implementation_status

        return implementation_status(ctx, issue_rfd(ctx))
    pr = ctx.api.pull(ctx.number)
    if not pr.open:  # merged or closed: the final state, never a dashboard to act on
        from bot.github.closed_pr import final_state

        found = final_state(ctx, pr)
    else:
        found = post_status(ctx, pr)
    if found is None:  # a phase's pull request: its tracking issue says where the RFD stands
        from bot.github.places import phase_status

        return phase_status(ctx, pr) or NO_RFD
    return STATUS_LINK.format(url=found.url)


def do_review(ctx: Context, command: Command) -> str:
    """The review comments answer (no reply); a re-delivered command writes nothing."""
    pr = pull_of(ctx, command.verb)
    only = [str(c.file.rfd_id) for c in targets(ctx, pr, command, one=False)]
    done = review_pr(ctx, pr, command.model, only=only)
    if done.posted or any(ctx.written_after_event(p.comment) for p in done.found):
        return ""
    return already_reviewed(done.found, pr.head_sha)


def do_dismiss(ctx: Context, command: Command) -> str:
    from bot.lifecycle.review import dismiss

    pr = pull_of(ctx, command.verb)
    (target,) = targets(ctx, pr, command, one=True)
    selection: tuple[int, ...] | Literal["all"] = command.selection or "all"
    with pr_workspace(ctx, pr, [target.file.path]) as (ws, checkout):
        if again := done_before(ctx, pr, checkout, str(target.file.rfd_id), "reviews dismissed"):
            return again
        outcome = dismiss(ws, str(target.file.rfd_id), selection)
        done = commit(ctx, pr, checkout, outcome.changed, outcome.rfd_id, "reviews dismissed")
        refreshed(ctx, pr, checkout, dismissed_by=ctx.delivery.actor.login)
    message = inline(outcome.message)
    return f"{message[:1].upper()}{message[1:]}. {done}"


def do_refine(ctx: Context, command: Command) -> str:
    from bot.github.refine import do_refine as refine

    return refine(ctx, command)


def do_accept(ctx: Context, command: Command) -> str:
    return accept_pr(ctx, pull_of(ctx, command.verb), only=command.rfd)


def do_done(ctx: Context, command: Command) -> str:
    """Implemented, committed to the RFD's open PR branch (the tracking issue waits for the
    merge); on the tracking issue, the bot's own pull request to Implemented."""
    from bot.github.finish import finish_on_issue
    from bot.github.places import redirect
    from bot.lifecycle.lifecycle import promote
    from bot.model.status import Status

    if not ctx.delivery.on_pull_request:
        return finish_on_issue(ctx)
    pr = ctx.api.pull(ctx.number)
    if (there := redirect(ctx, command.verb, pr)) is not None:
        raise Refused(there)
    (target,) = targets(ctx, pr, command, one=True)
    with pr_workspace(ctx, pr, [target.file.path]) as (ws, checkout):
        if again := done_before(ctx, pr, checkout, str(target.file.rfd_id), "implemented"):
            return again
        outcome = promote(ws, str(target.file.rfd_id), Status.IMPLEMENTED)
        result = commit(ctx, pr, checkout, outcome.changed, outcome.rfd_id, "implemented")
        refreshed(ctx, pr, checkout)
        issue = ws.document(outcome.rfd_id).tracking_issue
    later = CLOSED_ON_MERGE.format(issue=f" #{issue}" if issue else "", branch=pr.base_ref)
    return f"{inline(outcome.message)}. {result}\n\n{later}"


def do_sign(ctx: Context, command: Command) -> str:
    from bot.github.signing import do_sign as sign

    return sign(ctx, command)


def do_implement(ctx: Context, command: Command) -> str:
    from bot.github.implement.command import implement

    return implement(ctx, command)


HANDLERS: dict[Verb, Handler] = {
    Verb.HELP: do_help,
    Verb.STATUS: do_status,
    Verb.REVIEW: do_review,
    Verb.DISMISS: do_dismiss,
    Verb.REFINE: do_refine,
    Verb.ACCEPT: do_accept,
    Verb.DONE: do_done,
    Verb.IMPLEMENT: do_implement,
    Verb.APPROVE: do_sign,
    Verb.CONCERN: do_sign,
    Verb.RESOLVE: do_sign,
    Verb.FCP: do_sign,
}
