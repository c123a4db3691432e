"""Running the lifecycle operations for the bot: a workspace on a PR checkout.

The operations themselves (review, accept, dismiss, phases…) are the same ones
the CLI runs; the bot only gives them the checkout, the default branch's
configuration, the GitHub forge and the provider the environment allows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core.errors import PermissionDenied
from bot.forge.base import PullRequest
from bot.github.checkout import Checkout, close, commit_and_push, commit_only, open_pull
from bot.github.run import Context
from bot.llm.select import ANTHROPIC_KEY

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace

COMMIT = "RFD {ids}: {what} by rfd-bot\n\nRfd-Bot-Event: {key}"
FORK_REFUSED = (
    "This pull request comes from a fork, which the bot cannot push to: push the branch to "
    "this repository, open the pull request from there, then repeat the command."
)
DONE_BEFORE = (
    "RFD {ids} {what}: an earlier run of this command committed it as {sha} and could not "
    "reply (its job summary has the details). Nothing was done again."
)
NO_KEY = (
    "No AI provider key is available to this run (a fork PR, or no `ANTHROPIC_API_KEY` "
    "secret), so this is the offline structural review."
)


def model_environ(ctx: Context, pr: PullRequest | None) -> Mapping[str, str]:
    """The environment the AI steps of a run on ``pr`` see: a fork PR's holds no provider key.

    Under ``pull_request_target`` the job has the repository's secrets, but a fork's RFD
    text is anyone's: its review runs offline, whatever the workflow passed in.
    """
    if pr is None or not pr.is_fork:
        return ctx.environ
    keys = {ANTHROPIC_KEY, ctx.cfg.provider.api_key_env}
    return {k: v for k, v in ctx.environ.items() if k not in keys and not k.endswith("_API_KEY")}


def open_workspace(ctx: Context, root: Path, pr: PullRequest | None = None) -> Workspace:
    """A workspace on ``root`` that writes through the GitHub forge; the bot commits itself.
    On a fork PR's content (``pr``) it has no AI provider key (:func:`model_environ`); the
    job summary adds up what its model calls cost."""
    from bot.events import TurnComplete
    from bot.lifecycle.workspace import Workspace

    ws = Workspace.open(
        root,
        config=None if ctx.resolved else ctx.cfg,
        resolved=ctx.resolved,
        forge=ctx.forge,
        vcs=False,
        clock=ctx.clock,
        environ=model_environ(ctx, pr),
        prompt_root=ctx.root,  # the default branch's overrides, never the PR's
    )
    ws.bus.subscribe(TurnComplete, ctx.summary.spent.add, owner="job-summary")
    return ws


NEEDS_MODEL = (
    "`/rfd {verb}` needs an AI provider key and this run has none (fork PRs never get one): "
    "nothing was changed. **Next step:** a maintainer adds the `ANTHROPIC_API_KEY` secret (or "
    "`OPENAI_API_KEY`) under Settings → Secrets and variables → Actions, then comments "
    "`/rfd {verb}` again."
)


def has_model(ctx: Context, step: str, model: str | None = None) -> bool:
    """Does this run have an AI provider for ``step`` (checked before any work is done)?"""
    from bot.lifecycle.workspace import make_providers

    return not make_providers(ctx.cfg, ctx.environ).for_step(step, model).llm.offline


def offline_note(ws: Workspace, model: str | None = None) -> str:
    """What to tell the user when the review used no model (empty when it did)."""
    return NO_KEY if ws.llm_for("review", model).offline else ""


def refreshed(ctx: Context, pr: PullRequest, checkout: Checkout, *, dismissed_by: str = "") -> None:
    """The PR's status comment and label as the checkout has them after the bot's change
    (the change is made: an edit GitHub refuses is a warning, :mod:`bot.github.run`)."""
    from bot.github.checkout import head_of
    from bot.github.run import cosmetic
    from bot.github.status_comment import refresh

    with cosmetic(ctx.summary, "refreshing the status comment"):
        refresh(ctx, pr, checkout.root, head_of(checkout, pr), dismissed_by=dismissed_by)


@contextmanager
def pr_workspace(
    ctx: Context, pr: PullRequest, paths: list[str], *, writable: bool = True
) -> Iterator[tuple[Workspace, Checkout]]:
    """A workspace on the PR's checkout (removed afterwards); Refused when it cannot be
    written and ``writable`` is needed (a fork)."""
    if writable and pr.is_fork:
        raise Refused(FORK_REFUSED)
    from bot.github.bot_records import trust_ledgers

    checkout = open_pull(ctx.root, pr, ctx.api, ctx.environ, paths=paths, guarded=[ctx.cfg.rfd_dir])
    try:
        if ctx.cfg.consensus.enabled:
            trust_ledgers(ctx, checkout, pr.number)
        yield open_workspace(ctx, checkout.root, pr), checkout
    finally:
        close(ctx.root, checkout)


def bot_commit(
    ctx: Context,
    checkout: Checkout,
    paths: Iterable[Path | str],
    ids: str,
    what: str,
    *,
    noted: str,
    push: bool = True,
    marked: bool = True,
) -> str | None:
    """The bot's one way to commit: ``paths`` (if anything changed) on ``checkout``'s branch,
    with the message naming the event (its trailer lets a re-run find the commit); the new
    commit's sha, or None.

    Pushed unless ``push`` is off (the work job: the publish job pushes).  A pushed commit
    goes into the run's progress as ``noted`` (``{sha}`` and ``{branch}`` filled in) and,
    unless ``marked`` is off, into the hidden markers of the run's reply.
    """
    message = COMMIT.format(ids=ids, what=what, key=ctx.delivery.key)
    if not push:
        return commit_only(checkout, paths, message, ctx.environ)
    sha = commit_and_push(checkout, paths, message, ctx.environ)
    if sha:
        if marked:
            ctx.commits.append(sha)
        line = noted.replace("{sha}", sha[:12]).replace("{branch}", checkout.branch)
        ctx.progress.append(line)
    return sha


def commit(
    ctx: Context,
    pr: PullRequest,
    checkout: Checkout,
    paths: Iterable[Path],
    ids: str,
    what: str,
) -> str:
    """One bot commit of ``paths`` on the PR branch; a line saying what happened, the commit
    linked on the repository it was pushed to (the PR's head)."""
    noted = f"RFD {ids} {what}: committed to `{{branch}}` as {{sha}}"
    sha = bot_commit(ctx, checkout, paths, ids, what, noted=noted)
    return f"Committed as {_linked(ctx, pr, sha)}." if sha else "Nothing to commit."


def _linked(ctx: Context, pr: PullRequest, sha: str) -> str:
    from bot.github.review_post import commit_link

    return commit_link(f"{ctx.server_url}/{pr.head_repo}", sha)


def done_before(
    ctx: Context, pr: PullRequest, checkout: Checkout, ids: str, what: str
) -> str | None:
    """The reply when an earlier run of this event already made its commit (its trailer on
    the branch, and the bot's own comments naming it: :mod:`bot.github.bot_records`): the
    re-run finishes by saying so."""
    from bot.github.bot_records import delivery_commit

    sha = delivery_commit(ctx, checkout, ctx.number)
    return DONE_BEFORE.format(ids=ids, what=what, sha=_linked(ctx, pr, sha)) if sha else None


def forged_lines(ctx: Context) -> list[str]:
    """A line for each RFD whose sign-off comments were edited or deleted, and for each whose
    ledger on the branch holds entries written by hand."""
    from bot.github.bot_records import followed_line, forged_line

    return [followed_line(rid, notes) for rid, notes in sorted(ctx.followed.items())] + [
        forged_line(rid, found) for rid, found in sorted(ctx.forged.items())
    ]


def refuse_label(ctx: Context, number: int, label: str, reason: str) -> None:
    """Say why ``label`` is refused and take it off, unless a run already answered this event.

    A re-delivered refusal makes no write: the label was taken off the first time.
    """
    if ctx.replied_after_event():
        ctx.summary.note(f"the refusal of {label} was already answered: nothing to do")
        return
    ctx.reply(reason)
    ctx.forge.remove_label(number, label)


class Refused(PermissionDenied):
    """A command or label that cannot run here; the message says why (and is posted)."""
