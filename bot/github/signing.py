"""``/rfd approve``, ``/rfd concern``, ``/rfd resolve``, ``/rfd fcp`` on the RFD's pull request.

Besides the repository permission every mutating command needs (checked before),
approving, raising a concern and starting the final comment period need a place in
``consensus.reviewers``: the login itself, or membership of a listed team (read from
the team-membership API, only when no login matches).  A concern is resolved by its
author or a maintainer.  The ledger is committed to the PR branch like a review.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.errors import RfdError
from bot.core.github_markdown import inline
from bot.forge.base import Permission, PullRequest
from bot.github.authorship import is_author
from bot.github.checkout import Checkout
from bot.github.commands import SIGNING, Command, Verb
from bot.github.ops import Refused, commit, done_before, forged_lines, pr_workspace, refreshed
from bot.github.run import Context
from bot.lifecycle import signoff
from bot.lifecycle.workspace import Workspace
from bot.model.consensus import same_login

NOT_CONFIGURED = (
    "This repository asks for no sign-offs (no `[consensus]` table in `.github/rfd.toml`): "
    "`/rfd {verb}` has nothing to record."
)
NOT_A_REVIEWER = (
    "@{login} `/rfd {verb}` is for the reviewers in `consensus.reviewers` ({who}): ask one of them."
)
AUTHOR_MAY_NOT_APPROVE = (
    "@{login} an RFD's author cannot approve it: its sign-offs are the other reviewers' "
    "in `consensus.reviewers`."
)
AUTHOR_MAY_NOT_RESOLVE = (
    "@{login} an RFD's author cannot resolve a concern someone else raised on it: concern "
    "{number} is {author}'s to resolve, or a maintainer's who is no author."
)
WHAT = {
    Verb.APPROVE: "approved",
    Verb.CONCERN: "concern raised",
    Verb.RESOLVE: "concern resolved",
    Verb.FCP: "final comment period started",
}


def reviewer_of(ctx: Context, login: str) -> str | None:
    """The ``consensus.reviewers`` entry ``login`` counts as: the login, or a listed team."""
    entries = ctx.cfg.consensus.reviewers
    mine = next((e for e in entries if same_login(e, login)), None)
    if mine is not None:
        return mine
    for entry in entries:
        org, _, team = entry.lstrip("@").partition("/")
        if entry.startswith("@") and team and ctx.api.in_team(org, team, login):
            return entry
    return None


def do_sign(ctx: Context, command: Command) -> str:
    """Record one sign-off step of the PR's RFD; the reply shows the decision after it."""
    from bot.github.status_comment import commit_links
    from bot.github.targets import pull_of, target_of

    if not ctx.cfg.consensus.enabled:
        raise Refused(NOT_CONFIGURED.format(verb=command.verb.value))
    login = ctx.delivery.actor.login
    entry = reviewer_of(ctx, login) if command.verb in SIGNING else None
    if command.verb in SIGNING and entry is None:
        who = ", ".join(f"`{r}`" for r in ctx.cfg.consensus.reviewers)
        raise Refused(NOT_A_REVIEWER.format(login=login, verb=command.verb.value, who=who))
    pr = pull_of(ctx, command.verb)
    target = target_of(ctx, pr, command)
    rid = str(target.file.rfd_id)
    with pr_workspace(ctx, pr, [target.file.path]) as (ws, checkout):
        if again := done_before(ctx, pr, checkout, rid, WHAT[command.verb]):
            return again
        _not_by_an_author(ctx, pr, checkout, ws, command, rid)
        try:
            result = _step(ctx, ws, command, rid, login, entry or "")
        except RfdError as err:
            raise Refused(inline(err.message) + (f" ({err.hint})" if err.hint else "")) from err
        done = commit(ctx, pr, checkout, result.changed, rid, WHAT[command.verb])
        at = commit_links(checkout.root, target.file.path, f"{ctx.server_url}/{pr.head_repo}")
        block = signoff.decision(ws, rid, slash=True, at=at)
        said = _said(result, at)
        refreshed(ctx, pr, checkout)
    forged = [f"> {line}" for line in forged_lines(ctx)]
    return "\n".join([f"{said}. {done}", *forged, "", *block])


def _said(result: signoff.SignOff, at: Callable[[str], str]) -> str:
    """What was recorded, an approval's revision shown as its commit's link (never a blob)."""
    link = at(result.revision) if result.revision else ""
    return inline(result.message) + (f" at {link}" if link else "")


def _not_by_an_author(
    ctx: Context, pr: PullRequest, checkout: Checkout, ws: Workspace, command: Command, rid: str
) -> None:
    """Refused when an author of the RFD approves it or resolves another's concern."""
    login = ctx.delivery.actor.login
    if command.verb is Verb.APPROVE:
        if is_author(ctx, pr, checkout, [ws.document(rid)], login):
            raise Refused(AUTHOR_MAY_NOT_APPROVE.format(login=login))
    elif command.verb is Verb.RESOLVE:
        (number,) = command.selection or (0,)
        found = next((c for c in ws.store.read_consensus(rid).concerns if c.number == number), None)
        if (
            found is not None
            and not same_login(found.author, login)
            and is_author(ctx, pr, checkout, [ws.document(rid)], login)
        ):
            author = inline(found.author)
            raise Refused(AUTHOR_MAY_NOT_RESOLVE.format(login=login, number=number, author=author))


def _step(
    ctx: Context, ws: Workspace, command: Command, rid: str, login: str, entry: str
) -> signoff.SignOff:
    if command.verb is Verb.APPROVE:
        return signoff.approve(ws, rid, login, reviewer=entry)
    if command.verb is Verb.CONCERN:
        link = str(ctx.delivery.comment.get("html_url") or "")
        return signoff.concern(ws, rid, login, command.text, link)
    if command.verb is Verb.RESOLVE:
        (number,) = command.selection or (0,)

        def maintainer() -> bool:
            return ctx.api.permission(login) >= Permission.MAINTAIN

        return signoff.resolve(ws, rid, number, login, maintainer=maintainer)
    return signoff.start_fcp(ws, rid, login)
