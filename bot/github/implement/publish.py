"""The publish job of ``/rfd implement``: take the work job's phase, check it again, push it,
open its pull request and post.

This job holds the write token (``contents``, ``pull-requests``, ``issues: write``) and no
model key; it runs the bot from the pinned action and reads the checkout as data only.  The
artifact (:mod:`bot.github.implement.artifact`) is untrusted: a failed check pushes nothing and
the reply says each reason.  Nor is the work job's word on who asked: the commenter's
permission is checked again here, with this job's token, before anything is read.  The commit
pushed is the publish job's own (its message, its author), of the tree the checks passed, on
the base both jobs checked out.

When an earlier run pushed the phase's branch and never opened its pull request (GitHub
failed, the runner was cancelled), the work job implements nothing and hands over only that
(:attr:`Handed.recover`); a re-run of this job alone finds the branch it pushed.  Either way
this job takes the RFD and phase from the manifest, checked against the plan as always, and
nothing else: it fetches the branch itself and opens the pull request from it only when
GitHub's record of the repository's activity says the bot's account pushed the branch's head
(the work job's token cannot push, but it can write comments as the bot, so a comment naming
a commit proves nothing here).  The summary, the pull request's body and every text are read
from that commit and written here, as the one-job run's recovery writes them.  A branch whose
head someone else pushed is not opened: the reply says so and what to do.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.github_markdown import inline
from bot.forge.base import Reaction
from bot.github.auth import authorize
from bot.github.checkout import file_at, git_env, push, pushed_branch
from bot.github.commands import REGISTRY, Verb
from bot.github.finish import finish_with_phase
from bot.github.implement.artifact import (
    URL,
    Handed,
    Tampered,
    artifact_dir,
    git_text,
    read,
    recheck,
)
from bot.github.implement.command import (
    PhaseComment,
    bots_head,
    ending,
    left_on,
    link_pull,
    phase_snapshot,
    reopened,
)
from bot.github.implement.texts import facts_of
from bot.github.ops import COMMIT, Refused, open_workspace
from bot.github.progress import Stage, render_done
from bot.github.run import Context, react
from bot.github.slash import FINISHED
from bot.llm.usage import LEDGER
from bot.model import checklist, phase_ids
from bot.state.files import implement_dir

REFUSED = (
    "😕 The phase the work job handed over was refused, nothing was pushed: it failed the "
    "checks the publish job makes again (`rfd help security`, \"What implement's commands can "
    'reach", lists them).\n\n{lines}\n\nComment `/rfd implement` to run the phase again.'
)
ACTOR_REFUSED = "😕 The phase the work job handed over was refused, nothing was pushed: {reason}"
NO_PHASE = "the manifest names RFD {rid} phase {label}, which the default branch has no plan for"
BRANCH_GONE = (
    "Branch `{branch}` is gone, so there is no earlier run's work to open: comment "
    "`/rfd implement {n}` to run the phase again."
)


def on_publish(ctx: Context) -> None:
    spec, actor = REGISTRY[Verb.IMPLEMENT], ctx.delivery.actor
    decision = authorize(spec, actor, ctx.cfg, ctx.api.permission)
    if not decision.allowed:  # a work job taken over can hand a phase for anyone
        _refuse(ctx, ACTOR_REFUSED.format(reason=decision.reason))
        return
    try:
        handed, facts = _phase(ctx)
        pushed = pushed_branch(ctx.root, facts["branch"], ctx.environ)
        if handed.recover or pushed is not None:  # or this job re-run after it pushed
            _reopen(ctx, facts, pushed)
            return
        commit = _checked(ctx, handed, facts)
    except Tampered as exc:
        lines = "\n".join(f"- {inline(reason)}" for reason in exc.reasons)
        _refuse(ctx, REFUSED.format(lines=lines))
        return
    except Refused as refusal:
        _refuse(ctx, str(refusal))
        return
    _publish(ctx, handed, facts, commit)


def _refuse(ctx: Context, text: str) -> None:
    react(ctx, Reaction.CONFUSED)
    ctx.summary.answered("`/rfd implement` (publish)", ctx.delivery.actor.login, "😕 refused")
    ctx.reply(text, key=f"{ctx.delivery.key}-implement")


def _phase(ctx: Context) -> tuple[Handed, dict[str, Any]]:
    """The manifest, and the facts of the phase it names (from the default branch's plan)."""
    handed = read(artifact_dir(ctx.environ))
    ws = open_workspace(ctx, ctx.root)
    known = {str(f.rfd_id) for f in ws.files()}
    plan = (ws.store.read(handed.rid).plan if handed.rid in known else None) or ()
    position = phase_ids.named(plan, handed.label) if plan else None
    if position is None:
        raise Tampered([NO_PHASE.format(rid=handed.rid, label=handed.label)])
    facts = facts_of(ws, handed.rid, plan, position)
    facts["position"] = position
    return handed, facts


def _checked(ctx: Context, handed: Handed, facts: dict[str, Any]) -> str:
    """The handed phase commit, once it passed every check again."""
    ws = open_workspace(ctx, ctx.root)
    dirs = (implement_dir(facts["position"]), LEDGER)
    state = [ws.rel(ws.store.path(handed.rid, name)) for name in dirs]
    own = (facts["record"], f"{state[0]}/**", state[1])
    marker = f"<!-- rfd-bot:implement:{handed.rid}-{handed.label} -->\n"
    return recheck(ctx.root, artifact_dir(ctx.environ), handed, ctx.cfg, own, ctx.environ, marker)


def _reopen(ctx: Context, facts: dict[str, Any], pushed: str | None) -> None:
    """Open the pull request of the phase's branch an earlier run pushed (``pushed``: its
    fetched ref), once GitHub says the bot's account pushed its head; the texts from that
    commit (Refused otherwise)."""
    if pushed is None:
        raise Refused(BRANCH_GONE.format(**facts))
    head = bots_head(ctx, facts, pushed)
    done = left_on(ctx.root, head, facts)
    ws = open_workspace(ctx, ctx.root)
    _answered(ctx, reopened(ctx, ws, facts["position"], facts, done))


def _answered(ctx: Context, said: str) -> None:
    """🚀 on the command, its line in the job summary, and the reply when there is one."""
    react(ctx, Reaction.ROCKET)
    ctx.summary.answered("`/rfd implement` (publish)", ctx.delivery.actor.login, "✅ done")
    if said:  # failed items or changes not taken: always answered (over a failure report)
        ctx.reply(said, key=f"{ctx.delivery.key}-implement")
    else:  # a re-run of this job: its earlier failure report says it finished
        ctx.settle_failure(FINISHED)


def _publish(ctx: Context, handed: Handed, facts: dict[str, Any], commit: str) -> None:
    """Push the publish job's own commit of the checked tree, open the PR, link it, post."""
    message = COMMIT.format(ids=handed.rid, what=f"phase {handed.label}", key=ctx.delivery.key)
    tree = git_text(ctx.root, "rev-parse", "--verify", f"{commit}^{{tree}}").strip()
    env = git_env(ctx.environ)
    ours = git_text(ctx.root, "commit-tree", tree, "-p", handed.base, "-m", message, env=env)
    ours = ours.strip()
    push(ctx.root, ours, facts["branch"], ctx.environ)
    ctx.commits.append(ours)  # its reply names it: the proof that the bot made it
    ctx.progress.append(
        f"phase {handed.label} of RFD {handed.rid} pushed to "
        f"`{facts['branch']}`; its pull request not yet opened"
    )
    finished = None if handed.failed else finish_with_phase(ctx, handed.rid, facts["branch"], ours)
    base = ctx.delivery.default_branch
    body = handed.pr_body + (finished.pr_body() if finished else "")
    number, url = ctx.api.create_pull(facts["pr_title"], facts["branch"], base, body)
    ws = open_workspace(ctx, ctx.root)
    link_pull(ws, handed.rid, facts["position"], (number, url))
    then = finished.next_step(url, facts["label"]) if finished else ""
    shown = _outcome(ctx, handed, facts, ours, (url, then))
    said = handed.reply.replace(URL, url)  # empty: the phase's comment is the answer
    PhaseComment(ctx, f"{handed.rid}-{handed.label}", answers=not said)(shown)
    tracking = ws.document(handed.rid).tracking_issue if handed.failed else None
    if tracking is not None and tracking != ctx.number:  # the tracking issue shows it too
        ctx.upsert("implement", f"{handed.rid}-{handed.label}", shown, number=tracking)
    _answered(ctx, said)


def _outcome(
    ctx: Context, handed: Handed, facts: dict[str, Any], commit: str, opened: tuple[str, str]
) -> str:
    """The phase comment as the one-job run ends it (heading, "Finished in" line, checklist,
    the run's link): the checklist is the pushed commit's, the time and spending the
    manifest's numbers; ``opened`` is the pull request's URL and the next step it carries."""
    url, then = opened
    text = file_at(ctx.root, commit, facts["items"])
    items = checklist.parse(text).items if text else ()
    snap = replace(
        phase_snapshot(ctx, facts),
        stage=Stage.PUSH,
        items=items,
        elapsed=handed.elapsed,
        tokens=handed.tokens,
        cost_usd=handed.cost_usd,
    )
    return render_done(snap, *ending(url, items, handed.failed, then))
