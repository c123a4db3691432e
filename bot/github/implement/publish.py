"""The publish job of ``/rfd implement``: take the work job's phase, check it again, push it,
open its pull request and post.

This job holds the write token (``contents``, ``pull-requests``, ``issues: write``) and no
model key; it runs the bot from the pinned action and reads the checkout as data only.  The
artifact (:mod:`bot.github.implement.artifact`) is untrusted: a failed check pushes nothing and
the reply says each reason.  Nor is the work job's word on who asked: the commenter's
permission is checked again here, with this job's token, before anything is read.  The commit
pushed is the publish job's own (its message, its author), of the tree the checks passed, on
the base both jobs checked out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.github_markdown import inline
from bot.forge.base import Reaction
from bot.github.auth import authorize
from bot.github.checkout import file_at, git_env, push
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
from bot.github.implement.command import PhaseComment, ending, link_pull, phase_snapshot
from bot.github.implement.texts import facts_of
from bot.github.ops import COMMIT, open_workspace
from bot.github.progress import Stage, render_done
from bot.github.run import Context, react
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


def on_publish(ctx: Context) -> None:
    key = f"{ctx.delivery.key}-implement"
    spec, actor = REGISTRY[Verb.IMPLEMENT], ctx.delivery.actor
    decision = authorize(spec, actor, ctx.cfg, ctx.api.permission)
    if not decision.allowed:  # a work job taken over can hand a phase for anyone
        react(ctx, Reaction.CONFUSED)
        ctx.summary.answered("`/rfd implement` (publish)", actor.login, "😕 refused")
        ctx.reply(ACTOR_REFUSED.format(reason=decision.reason), key=key)
        return
    try:
        handed, facts, commit = _checked(ctx)
    except Tampered as exc:
        react(ctx, Reaction.CONFUSED)
        ctx.summary.answered("`/rfd implement` (publish)", ctx.delivery.actor.login, "😕 refused")
        lines = "\n".join(f"- {inline(reason)}" for reason in exc.reasons)
        ctx.reply(REFUSED.format(lines=lines), key=key)
        return
    _publish(ctx, handed, facts, commit)


def _checked(ctx: Context) -> tuple[Handed, dict[str, Any], str]:
    """The manifest, the phase's facts (from the default branch), the checked commit."""
    src = artifact_dir(ctx.environ)
    handed = read(src)
    ws = open_workspace(ctx, ctx.root)
    known = {str(f.rfd_id) for f in ws.files()}
    plan = (ws.store.read(handed.rid).plan if handed.rid in known else None) or ()
    position = phase_ids.named(plan, handed.label) if plan else None
    if position is None:
        raise Tampered([NO_PHASE.format(rid=handed.rid, label=handed.label)])
    facts = facts_of(ws, handed.rid, plan, position)
    facts["position"] = position
    state = [ws.rel(ws.store.path(handed.rid, name)) for name in (implement_dir(position), LEDGER)]
    own = (facts["record"], f"{state[0]}/**", state[1])
    marker = f"<!-- rfd-bot:implement:{handed.rid}-{handed.label} -->\n"
    commit = recheck(ctx.root, src, handed, ctx.cfg, own, ctx.environ, marker)
    return handed, facts, commit


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
    react(ctx, Reaction.ROCKET)
    ctx.summary.answered("`/rfd implement` (publish)", ctx.delivery.actor.login, "✅ done")
    if said:  # failed items or changes not taken: always answered
        ctx.reply(said, key=f"{ctx.delivery.key}-implement")


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
