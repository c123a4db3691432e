"""The publish job of ``/rfd implement``: take the work job's phase, check it again, push it,
open its pull request and post.

This job holds the write token (``contents``, ``pull-requests``, ``issues: write``) and no
model key; it runs the bot from the pinned action and reads the checkout as data only.  The
artifact (:mod:`bot.github.implement.artifact`) is untrusted: a failed check pushes nothing and
the reply says each reason.  Nor is the work job's word on who asked: the commenter's
permission is checked again here, with this job's token, before anything is read.  The commit
pushed is the publish job's own (its message, its author), of the tree the checks passed, on
the base both jobs checked out.  Every text it posts is its own: the pull request's body and
the reply from the commit's summary and the check's report lines (inline-safe), as the
one-job run writes them.

The work job posts nothing (its token is read-only: code a model wrote ran there), so this
job also says how the work ended when it handed no phase: the manifest names the ending
(:data:`~bot.github.implement.artifact.ENDINGS`) and where a failed run stopped, and this job
words it — the progress comment ends as a failed run's, the reply is :data:`ENDED`'s.  With
no manifest at all (the work job died or was cancelled) the reply says so, and the progress
comment ends as a failed run's too: the check job's outputs name its RFD and phase.

When an earlier run pushed the phase's branch and never opened its pull request (GitHub
failed, the runner was cancelled), the work job implements nothing and hands over only that
(:attr:`Handed.recover`); a re-run of this job alone finds the branch it pushed.  Either way
this job takes the RFD and phase from the manifest, checked against the plan as always, and
nothing else: it fetches the branch itself and opens the pull request from it only when
GitHub's record of the repository's activity says the bot's account pushed the branch's head
(no comment naming a commit proves anything here: older runs' work jobs could write
comments as the bot).  The summary, the pull request's body and every text are read
from that commit and written here, as the one-job run's recovery writes them.  A branch whose
head someone else pushed is not opened: the reply says so and what to do.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.agent.implementation.isolation import ENABLE, NO_ISOLATION
from bot.core.github_markdown import inline
from bot.forge.base import Reaction
from bot.github.auth import authorize
from bot.github.checkout import file_at, git_env, push, pushed_branch
from bot.github.commands import REGISTRY, Verb
from bot.github.finish import finish_with_phase
from bot.github.implement.artifact import (
    MANIFEST,
    Handed,
    Tampered,
    artifact_dir,
    checked_phase,
    git_text,
    read,
    recheck,
)
from bot.github.implement.command import (
    PhaseComment,
    bots_head,
    checked_list,
    ending,
    left_on,
    link_pull,
    phase_snapshot,
    pull_body,
    reopened,
)
from bot.github.implement.texts import (
    FAILED_REPLY,
    NOT_ISOLATED,
    OPENED_REPLY,
    RETRY,
    Done,
    facts_of,
)
from bot.github.ops import COMMIT, NEEDS_MODEL, Refused, open_workspace
from bot.github.progress import Stage, render_done, render_failed, render_lost
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
WORK_ENDED = (
    "😕 The work job of `/rfd implement` ended without handing anything over (it failed, timed "
    "out or was cancelled): nothing was pushed. Its log in the workflow run says why. {retry}"
)
RETRY_ANY = "Comment `/rfd implement` to run it again."
DIED = (
    "the work job ended without handing anything over (it failed, timed out or was "
    "cancelled); its log in the workflow run says how far it got"
)
"""Why the phase comment's run stopped, when the work job left no manifest."""
ENDED = {
    "no-model": NEEDS_MODEL.format(verb="implement"),
    "not-isolated": NOT_ISOLATED.format(why=NO_ISOLATION, how=ENABLE),
    "changed": (
        "😕 Nothing was implemented: the repository changed after the command was checked (the "
        "phase's pull request was opened, or its plan or branch changed meanwhile). {retry}"
    ),
    "failed": (
        "😕 `/rfd implement` failed in the work job, which posts nothing itself (it runs the "
        "model's code and holds no token that can write): its log in the workflow run says "
        "why. Nothing was pushed. {retry}"
    ),
    "nothing": (
        "😕 The model changed nothing, so nothing was pushed and no pull request was opened. "
        "{retry}"
    ),
}
"""The publish job's reply for each way the work job can end without a phase
(:data:`bot.github.implement.artifact.ENDINGS`); the work job's own words are never posted."""
STOPPED = {
    "no-model": "this run has no AI provider key",
    "not-isolated": "the work job cannot isolate the commands a model writes",
    "changed": "the repository changed after the command was checked",
    "failed": "the work job failed (its log in the workflow run says why)",
    "nothing": "the model changed nothing",
}
"""Why the phase comment's run stopped, for each ending."""
NO_SUMMARY = "the phase commit holds neither `{record}` nor `{kept}`"
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
    if not _manifest(ctx).exists() and not _manifest(ctx).is_symlink():
        _died(ctx)  # the work job died, or was cancelled, before it handed over
        return
    try:
        handed = read(artifact_dir(ctx.environ))
        if handed.ended:
            _ended(ctx, handed)
            return
        facts = _phase(ctx, handed)
        pushed = pushed_branch(ctx.root, facts["branch"], ctx.environ)
        if handed.recover or pushed is not None:  # or this job re-run after it pushed
            _reopen(ctx, facts, pushed)
            return
        commit, done = _checked(ctx, handed, facts)
    except Tampered as exc:
        lines = "\n".join(f"- {inline(reason)}" for reason in exc.reasons)
        _refuse(ctx, REFUSED.format(lines=lines))
        return
    except Refused as refusal:
        _refuse(ctx, str(refusal))
        return
    _publish(ctx, handed, facts, (commit, done))


def _refuse(ctx: Context, text: str) -> None:
    react(ctx, Reaction.CONFUSED)
    ctx.summary.answered("`/rfd implement` (publish)", ctx.delivery.actor.login, "😕 refused")
    ctx.reply(text, key=f"{ctx.delivery.key}-implement")


def _manifest(ctx: Context) -> Path:
    return artifact_dir(ctx.environ) / MANIFEST


def _phase(ctx: Context, handed: Handed) -> dict[str, Any]:
    """The facts of the phase the manifest names (from the default branch's plan)."""
    ws = open_workspace(ctx, ctx.root)
    known = {str(f.rfd_id) for f in ws.files()}
    plan = (ws.store.read(handed.rid).plan if handed.rid in known else None) or ()
    position = phase_ids.named(plan, handed.label) if plan else None
    if position is None:
        raise Tampered([NO_PHASE.format(rid=handed.rid, label=handed.label)])
    facts = facts_of(ws, handed.rid, plan, position)
    facts["position"] = position
    return facts


def _died(ctx: Context) -> None:
    """No manifest: the reply says so, and the progress comment the check job posted ends as
    a failed run's — its phase named by the check job's outputs (no model ran there),
    checked for their formats and against the plan as the manifest's fields are."""
    named = checked_phase(ctx.environ)
    try:
        facts = _phase(ctx, Handed(*named, "", False)) if named else None
    except Tampered as exc:  # the plan changed meanwhile: no comment of it to end
        ctx.summary.note(f"the check job's phase not ended: {'; '.join(exc.reasons)}")
        facts = None
    if facts is not None:
        shown = render_lost(phase_snapshot(ctx, facts), DIED, RETRY.format(**facts))
        PhaseComment(ctx, f"{facts['rid']}-{facts['label']}")(shown)
    _refuse(ctx, WORK_ENDED.format(retry=RETRY.format(**facts) if facts else RETRY_ANY))


def _ended(ctx: Context, handed: Handed) -> None:
    """The work job handed no phase: say why, in this job's words from the manifest's known
    name and numbers (nothing the work job wrote is posted).  The phase comment the check job
    posted ends as a failed run's, when the manifest names a phase of the plan."""
    facts = _phase(ctx, handed) if handed.rid and handed.label else None
    retry = RETRY.format(**facts) if facts else RETRY_ANY
    if facts is not None:
        snap = replace(
            phase_snapshot(ctx, facts),
            stage=Stage[handed.stopped or Stage.RESEARCH.name],
            k=handed.k,
            n=handed.n,
            elapsed=handed.elapsed,
            tokens=handed.tokens,
            cost_usd=handed.cost_usd,
        )
        shown = render_failed(snap, STOPPED[handed.ended], retry)
        PhaseComment(ctx, f"{handed.rid}-{handed.label}")(shown)
    _refuse(ctx, ENDED[handed.ended].format(retry=retry))


def _checked(ctx: Context, handed: Handed, facts: dict[str, Any]) -> tuple[str, Done]:
    """The handed phase commit, once it passed every check again, and what it holds: the
    phase's summary (recorded, or kept when items failed)."""
    ws = open_workspace(ctx, ctx.root)
    dirs = (implement_dir(facts["position"]), LEDGER)
    state = [ws.rel(ws.store.path(handed.rid, name)) for name in dirs]
    own = (facts["record"], f"{state[0]}/**", state[1])
    commit = recheck(ctx.root, artifact_dir(ctx.environ), handed, ctx.cfg, own, ctx.environ)
    try:
        return commit, left_on(ctx.root, commit, facts)
    except Refused:
        raise Tampered([NO_SUMMARY.format(**facts)]) from None


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


def _publish(
    ctx: Context, handed: Handed, facts: dict[str, Any], checked: tuple[str, Done]
) -> None:
    """Push the publish job's own commit of the checked tree, open the PR, link it, post:
    every text written here, from the commit's summary and the report's lines."""
    commit, done = checked
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
    failed = done[1]  # the commit's word: it holds the recorded phase or the kept summary
    finished = None if failed else finish_with_phase(ctx, handed.rid, facts["branch"], ours)
    base = ctx.delivery.default_branch
    body = pull_body(facts, done, handed.checked) + (finished.pr_body() if finished else "")
    number, url = ctx.api.create_pull(facts["pr_title"], facts["branch"], base, body)
    ws = open_workspace(ctx, ctx.root)
    link_pull(ws, handed.rid, facts["position"], (number, url))
    then = finished.next_step(url, facts["label"]) if finished else ""
    shown = _outcome(ctx, replace(handed, failed=failed), facts, ours, (url, then))
    said = _reply(facts, failed, handed.checked, url)
    PhaseComment(ctx, f"{handed.rid}-{handed.label}", answers=not said)(shown)
    tracking = ws.document(handed.rid).tracking_issue if failed else None
    if tracking is not None and tracking != ctx.number:  # the tracking issue shows it too
        ctx.upsert("implement", f"{handed.rid}-{handed.label}", shown, number=tracking)
    _answered(ctx, said)


def _reply(facts: dict[str, Any], failed: bool, checked: tuple[str, ...], url: str) -> str:
    """The reply as the one-job run writes it (empty: the phase's comment is the answer)."""
    if not failed and not checked:
        return ""
    reply = (FAILED_REPLY if failed else OPENED_REPLY).format(**facts, url=url)
    return reply + (f"\n\n{checked_list(checked)}" if checked else "")


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
