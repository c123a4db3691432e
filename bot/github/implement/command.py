"""``/rfd implement [phase]``: which phase runs, and running it on a new branch with a PR.

The phase is the one named by its label in the RFD (``3a``, see :mod:`bot.model.phase_ids`),
else the next; the label names it everywhere (the branch ``rfd/045-phase-3a``, the PR title
"RFD 045, phase 3a: …", the messages and the markers).  Before any model call the dead ends
are answered: nothing left to do, no accepted plan on the default branch, a phase whose PR
exists already, no isolation for the model's commands (refused, saying how to enable it).

The work starts from the default branch; its writes are confined by ``[implement]`` (allowed
paths and commands: there is nobody to ask in a bot), the model's commands run isolated
(:mod:`bot.agent.implementation.isolation`), and what the run left in the worktree is checked
before the commit (:mod:`bot.agent.implementation.commit_guard`: what is out of bounds is put
back, secret values are redacted, the reply says so).  An item whose check fails stays failed
(``[!]``): the PR says so and records nothing (no ``phases/<label>.md``; it says how a person
records the phase from the kept summary), and the progress comment ends in a warning, on the
tracking issue too.

Where it runs: in one job (stage ``all``: locally, or where the workflow is not split), the
whole command with a progress comment edited in place.  In the shipped workflow a ``check``
job (no model) refuses what it can and posts the progress comment, and this module runs as the
``work`` stage (:mod:`bot.github.run`), whose token is read-only: it posts nothing, the phase
is committed but not pushed, and the commit (or how the work ended, by a known name) is left
for the publish job, which writes every text (:mod:`bot.github.implement.artifact`,
:mod:`bot.github.implement.publish`).

Retry-safe: a run that pushed the branch but failed to open the PR (a 5xx, a 422) left the
work there; the next run finds the branch with its ``phases/<label>.md`` (or the kept summary
of failed items) and opens the PR without implementing again, and says so.  Split, the work
job finds it and hands over only that; the publish job opens the PR once GitHub says the bot's
account pushed the branch's head.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.agent.implementation.commit_guard import baseline, check_run, shown
from bot.agent.implementation.isolation import ENABLE, NO_ISOLATION, choose
from bot.agent.implementation.work_copy import REFUSED_LINE
from bot.core.errors import ForgeError, RfdError
from bot.core.github_markdown import block, inline
from bot.core.text import plural
from bot.github.checkout import close, file_at, open_branch, pushed_branch
from bot.github.commands import Command
from bot.github.implement.artifact import (
    BUNDLE,
    LABEL,
    RID,
    Handed,
    artifact_dir,
    git_text,
    write_bundle,
    write_manifest,
)
from bot.github.implement.texts import (
    CHECKED,
    EXISTS,
    FAILED_PR_BODY,
    FAILED_REPLY,
    FROM_EARLIER,
    NOT_ISOLATED,
    NOT_RECORDED,
    NOT_THE_BOTS,
    OPENED,
    OPENED_FAILED,
    OPENED_REPLY,
    PR_BODY,
    RECOVERED,
    RETRY,
    RUNNING,
    STRAY_BRANCH,
    Done,
    facts_of,
    pr_link,
)
from bot.github.ops import NEEDS_MODEL, Refused, bot_commit, has_model, open_workspace
from bot.github.progress import Progress, Snapshot, Stage, implement_listener
from bot.github.run import Context, JobStage, run_id, run_url, stage_of, warn
from bot.github.targets import rfd_for_implement
from bot.lifecycle.tracking import PULL_LINK
from bot.model import checklist, phase_ids
from bot.state.files import implement_dir

log = logging.getLogger(__name__)

NO_PHASE = (
    "Every phase of RFD {rid} has its summary on `{branch}`: nothing is left to implement. "
    "**Next step:** comment `/rfd done` on the tracking issue: the bot opens the pull request "
    "that marks RFD {rid} {implemented}."
)
MERGE_FIRST = (
    "RFD {rid} is not {accepted} on `{branch}` yet. **Next step:** merge this pull request "
    "first, then comment `/rfd implement` on {issue}."
)
ACCEPT_FIRST = (
    "RFD {rid} has no accepted plan on `{branch}`. **Next step:** accept it on its pull "
    "request (`/rfd accept`) and merge that pull request, then comment `/rfd implement` here."
)
TAKE_ON_FIRST = (
    "RFD {rid} is {accepted} on `{branch}` but has no plan there and no tracking issue: it "
    "was accepted without the bot. **Next step:** comment `/rfd accept` on this pull request: "
    "the bot extracts the plan and opens the tracking issue (the status stays {accepted}); merge "
    "this pull request, then comment `/rfd implement` on the tracking issue."
)
PLAN_NOT_MERGED = (
    "RFD {rid}'s plan is not on `{branch}` yet. **Next step:** merge this pull request first, "
    "then comment `/rfd implement` on {issue}."
)
UNKNOWN_PHASE = "RFD {rid} has no phase {asked}: its phases are {labels}."


def not_accepted_yet(ctx: Context, rid: str) -> str:
    """The dead end of an RFD without a plan on the default branch, and the way out."""
    from bot.forge.base import marker

    branch = ctx.delivery.default_branch
    if not ctx.delivery.on_pull_request:
        return ACCEPT_FIRST.format(rid=rid, branch=branch)
    from bot.github.places import status_on_default_branch, words_on_default_branch
    from bot.model.status import Status

    issue = ctx.forge.find_issue(marker("tracking", rid))
    where = f"its tracking issue [#{issue.number}]({issue.url})" if issue else "its tracking issue"
    words = words_on_default_branch(ctx, rid)
    if status_on_default_branch(ctx, rid) is not Status.ACCEPTED:
        return MERGE_FIRST.format(rid=rid, branch=branch, issue=where, **words)
    if issue is None:  # accepted by hand: accept takes it on (bot.github.accept.take_on)
        return TAKE_ON_FIRST.format(rid=rid, branch=branch, **words)
    return PLAN_NOT_MERGED.format(rid=rid, branch=branch, issue=where)


def phase_to_run(
    ctx: Context, rid: str, plan: Sequence[Any], asked: str | None, nxt: int | None
) -> int:
    """The position of the phase to implement: the one asked for (by its label), else the
    next one; Refused when there is none."""
    if asked is None:
        if nxt is None:
            raise Refused(_no_phase(ctx, rid))
        return nxt
    found = phase_ids.named(plan, asked)
    if found is None:
        raise Refused(UNKNOWN_PHASE.format(rid=rid, asked=asked, labels=_labels(plan)))
    return found


def _no_phase(ctx: Context, rid: str) -> str:
    from bot.github.places import words_on_default_branch

    words = words_on_default_branch(ctx, rid)
    return NO_PHASE.format(rid=rid, branch=ctx.delivery.default_branch, **words)


def _labels(plan: Sequence[Any]) -> str:
    return ", ".join(phase_ids.labels(plan))


if TYPE_CHECKING:
    from bot.agent.implementation.run import ImplementResult
    from bot.github.finish import Finished
    from bot.lifecycle.workspace import Workspace


@dataclass(frozen=True)
class Opened:
    """The phase's pull request once opened, and what the run showed and checked."""

    url: str
    failed: bool
    """Items failed: the phase is not recorded."""
    shown: str
    """The progress comment's last text."""
    checked: Sequence[str] = ()
    """What the commit check did (:func:`bot.agent.implementation.commit_guard.check_run`)."""


def implement(ctx: Context, command: Command) -> str:
    stage = stage_of(ctx.environ)
    rid = rfd_for_implement(ctx, command)  # first: given in the wrong place, it says where
    if stage is JobStage.ALL:  # the check job has no model key, the work job says it later
        runnable(ctx, command)
    ws = open_workspace(ctx, ctx.root)
    state = ws.store.read(rid)
    if not state.plan:
        raise Refused(not_accepted_yet(ctx, rid))
    position = phase_to_run(ctx, rid, state.plan, command.phase, state.next_phase)
    facts = facts_of(ws, rid, state.plan, position)
    key = f"{rid}-{facts['label']}"  # the label: unique in the plan, what users call the phase
    existing = ctx.api.find_pull(facts["branch"])
    if existing is not None and stage is JobStage.WORK:  # opened since the check job looked
        raise Refused(EXISTS.format(**facts, url=existing[1]))
    if existing is not None:
        ctx.upsert("implement", key, OPENED.format(**facts, pr=pr_link(existing[1])))
        link_pull(ws, rid, position, existing)
        return EXISTS.format(**facts, url=existing[1])
    if stage is JobStage.CHECK:
        _announce(ctx, facts, key)
        return ""
    if stage is JobStage.WORK:
        _hand_over(ctx, command, position, facts, key)
        return ""
    done, reply = _earlier_work(ctx, facts, prove=True)
    if done is not None:
        return reopened(ctx, ws, position, facts, done)
    opened = _run(ctx, command, position, facts, key)
    return answered(ctx, ws, position, facts, opened, reply)


def runnable(ctx: Context, command: Command) -> None:
    """Refused when this run has no model for implement, or cannot isolate its commands."""
    if not has_model(ctx, "implement", command.model):
        raise Refused(NEEDS_MODEL.format(verb="implement"))
    if choose(ctx.cfg.implement.isolation) is None:
        raise Refused(NOT_ISOLATED.format(why=NO_ISOLATION, how=ENABLE))


def work(ctx: Context, command: Command) -> None:
    """The work job's whole answer to ``/rfd implement``: a manifest for the publish job — the
    phase, or how the work ended as one of :data:`~bot.github.implement.artifact.ENDINGS`.  It
    posts nothing (its token is read-only, and code a model wrote ran here): the check job
    before it refused what could be refused and posted the progress comment, the publish job
    after it words the outcome.  No text of this job reaches a post."""
    try:
        implement(ctx, command)
    except Refused:  # the check job found none of this: the repository changed meanwhile
        ctx.summary.note("the repository changed after the command was checked")
        _hand(ctx, Handed("", "", _head(ctx), False, ended="changed"))
    except RfdError as err:  # before the phase was known (its run reports its own failure)
        ctx.summary.problem(err)
        _hand(ctx, Handed("", "", _head(ctx), False, ended="failed"))
    ctx.summary.answered("`/rfd implement` (work)", ctx.delivery.actor.login, HANDED)


HANDED = "handed to the publish job (checked again there)"


def _announce(ctx: Context, facts: dict[str, Any], key: str) -> None:
    """The check job: a branch an earlier run left is refused when stray; otherwise the
    progress comment is posted (its stages are followed in the run's log) unless that
    branch only needs its pull request; the work job may start (output ``go``)."""
    done, _ = _earlier_work(ctx, facts)
    if done is None:
        _progress(ctx, key, facts, live=False)
        if RID.fullmatch(facts["rid"]) and LABEL.fullmatch(facts["label"]):
            _output(ctx, "rfd", facts["rid"])  # the publish job ends the comment if no
            _output(ctx, "phase", facts["label"])  # manifest says which phase it was
    _output(ctx, "go")


def reopened(ctx: Context, ws: Workspace, position: int, facts: dict[str, Any], done: Done) -> str:
    """Open the pull request of the work an earlier run pushed on the phase's branch (nothing
    is implemented again): the reply, empty when the phase's comment is the answer.  The
    one-job run and the publish job (once it proved the branch is the bot's) call it."""
    opened = _recover(ctx, facts, f"{facts['rid']}-{facts['label']}", done)
    return answered(ctx, ws, position, facts, opened, RECOVERED)


def answered(
    ctx: Context,
    ws: Workspace,
    position: int,
    facts: dict[str, Any],
    opened: Opened,
    reply: str,
) -> str:
    """The phase's pull request linked on the tracking issue, which shows the outcome too
    when items failed; the reply (empty when the phase's comment is the answer)."""
    rid = facts["rid"]
    link_pull(ws, rid, position, (int(opened.url.rsplit("/", 1)[-1]), opened.url))
    if not opened.failed and not opened.checked:
        return ""  # the phase's comment ended in the opened pull request: it is the answer
    if opened.failed:
        tracking = ws.document(rid).tracking_issue
        if tracking is not None and tracking != ctx.number:  # the tracking issue shows it too
            ctx.upsert("implement", f"{rid}-{facts['label']}", opened.shown, number=tracking)
        reply = FAILED_REPLY if reply is OPENED_REPLY else reply
    extra = f"\n\n{checked_list(opened.checked)}" if opened.checked else ""
    return reply.format(**facts, url=opened.url) + extra


def _hand_over(
    ctx: Context, command: Command, position: int, facts: dict[str, Any], key: str
) -> None:
    """The work job: implement the phase, commit it without pushing, and leave the commit
    and what the check of the model's changes did for the publish job, which writes every
    text itself (:mod:`bot.github.implement.artifact`).  When
    an earlier run pushed the phase's branch, nothing is implemented: the manifest says so
    and the publish job opens the pull request from the branch once it proved it the bot's.
    When the run cannot start or fails, the manifest says how, by a known name and numbers."""
    done, _ = _earlier_work(ctx, facts)  # a stray branch: the check job refused it already
    head = _head(ctx)
    if done is not None:
        _hand(ctx, Handed(facts["rid"], facts["label"], head, done[1], recover=True))
        return
    ended = Handed(facts["rid"], facts["label"], head, False)
    try:
        runnable(ctx, command)
    except Refused:
        no_model = not has_model(ctx, "implement", command.model)
        _hand(ctx, replace(ended, ended="no-model" if no_model else "not-isolated"))
        return
    progress = _progress(ctx, key, facts, unseen)  # the check job posted it: nothing to edit
    dest = artifact_dir(ctx.environ)
    try:
        result, checked = _implement(ctx, command, position, facts, progress, hand_to=dest)
    except Exception as exc:  # said by the publish job from the stage and numbers only
        _failed_here(ctx, exc)
        at = progress.now()
        spent = replace(ended, elapsed=at.elapsed, tokens=at.tokens, cost_usd=at.cost_usd)
        _hand(ctx, replace(spent, ended="failed", stopped=at.stage.name, k=at.k, n=at.n))
        return
    ran = progress.now()  # the publish job's "Finished in" line says it
    if not (dest / BUNDLE).is_file():  # the run changed nothing: nothing to push
        _hand(ctx, replace(ended, ended="nothing", elapsed=ran.elapsed, tokens=ran.tokens))
        return
    handed = Handed(facts["rid"], facts["label"], head, bool(result.failed), tuple(checked))
    _hand(ctx, replace(handed, elapsed=ran.elapsed, tokens=ran.tokens, cost_usd=ran.cost_usd))


def unseen(_: str) -> None:
    """The work job's progress comment writer: the job posts nothing (its log has the stages)."""


def _failed_here(ctx: Context, exc: Exception) -> None:
    """The work job's failure, in its job summary and log (never posted)."""
    if isinstance(exc, RfdError):
        ctx.summary.problem(exc)
    log.error("rfd-bot: the work job failed", exc_info=exc)


def _hand(ctx: Context, handed: Handed) -> None:
    """Write the manifest, and tell the workflow there is something to publish."""
    write_manifest(artifact_dir(ctx.environ), handed)
    _output(ctx, "handed")


def _output(ctx: Context, name: str, value: str = "true") -> None:
    """``name=value`` among this step's outputs (read by the workflow's next jobs); ``value``
    is one line of a strict format."""
    output = ctx.environ.get("GITHUB_OUTPUT")
    if output:
        with open(output, "a", encoding="utf-8") as fh:
            fh.write(f"{name}={value}\n")


def _head(ctx: Context) -> str:
    return git_text(ctx.root, "rev-parse", "--verify", "HEAD").strip()


def checked_list(checked: Sequence[str]) -> str:
    """What the check of the model's changes left out, one line each (made inline-safe)."""
    return CHECKED.format(lines="\n".join(f"- {inline(line)}" for line in checked))


def link_pull(ws: Workspace, rid: str, position: int, pull: tuple[int, str]) -> None:
    """The tracking issue's line of the phase links its pull request ``(number, url)``."""
    from bot.lifecycle.tracking_issue import sync_tracking

    number, url = pull
    sync_tracking(ws, rid, pulls={position: PULL_LINK.format(number=number, url=url)})


def _run(ctx: Context, command: Command, position: int, facts: dict[str, Any], key: str) -> Opened:
    """Implement the phase, its progress comment following, and open its pull request; the
    progress comment ends in the outcome (failed items said), or in the failure."""
    comment = PhaseComment(ctx, key)
    progress = _progress(ctx, key, facts, comment)
    try:
        result, checked = _implement(ctx, command, position, facts, progress)
        finished = _finish(ctx, facts, result.failed)
        closes = finished.pr_body() if finished else ""
        url = _open_pull(ctx, facts, (result.summary, bool(result.failed)), checked, closes)
    except Exception as exc:
        _report(ctx, progress, exc, facts)
        raise
    comment.answers = not result.failed and not checked  # else a reply says what
    then = finished.next_step(url, facts["label"]) if finished else ""
    outcome, warning, note = ending(url, result.items, bool(result.failed), then)
    shown = progress.done(outcome, result.items, warning, note)
    return Opened(url, bool(result.failed), shown, checked)


def ending(
    url: str, items: Sequence[checklist.Item], failed: bool, then: str = ""
) -> tuple[str, str, str]:
    """The phase comment's outcome, warning and note once its pull request is opened
    (:func:`bot.github.progress.render_done`'s), alike in one job and in the publish job;
    ``then`` is the next step when merging the pull request finishes the RFD."""
    if not failed:
        return pr_link(url), "", then
    count = sum(item.status is checklist.ItemStatus.FAILED for item in items)
    return f"{pr_link(url)} with {plural(count, 'failed item')}", NOT_RECORDED, ""


def phase_snapshot(ctx: Context, facts: dict[str, Any]) -> Snapshot:
    """What the phase comment shows at the start: its title, the branch, the run's link."""
    return Snapshot(
        "Implementing",
        RUNNING.format(**facts),
        Stage.RESEARCH,
        run_url=run_url(ctx.environ),
        detail=f"branch `{facts['branch']}`",
    )


def _recover(ctx: Context, facts: dict[str, Any], key: str, done: Done) -> Opened:
    """Open the pull request for the work an earlier run pushed (nothing is implemented)."""
    url = _open_pull(ctx, facts, done)
    failed = done[1]
    shown = (OPENED_FAILED if failed else OPENED).format(**facts, pr=pr_link(url))
    if not failed:  # the comment is the answer: it says nothing was implemented again
        shown += "\n\n" + FROM_EARLIER.format(**facts)
    PhaseComment(ctx, key, answers=not failed)(shown)
    return Opened(url, failed, shown)


def _report(ctx: Context, progress: Progress, exc: Exception, facts: dict[str, Any]) -> None:
    """The progress comment says the run failed (never a stale ⏳), unless GitHub is down."""
    try:
        progress.failed(str(exc), RETRY.format(**facts))
    except ForgeError as again:
        ctx.summary.problem(again)


def _finish(ctx: Context, facts: dict[str, Any], failed: Sequence[object]) -> Finished | None:
    """The last phase marks the RFD Implemented too, when the configuration says so
    (:mod:`bot.github.finish`)."""
    if failed or not ctx.commits:
        return None
    from bot.github.finish import finish_with_phase

    return finish_with_phase(ctx, facts["rid"], facts["branch"], ctx.commits[-1])


def _open_pull(
    ctx: Context, facts: dict[str, Any], done: Done, checked: Sequence[str] = (), closes: str = ""
) -> str:
    """Open the phase's pull request (its body says when items failed, lists the changes
    not taken, and whether it marks the RFD Implemented too); its URL."""
    body = pull_body(facts, done, checked) + closes
    base = ctx.delivery.default_branch
    _, url = ctx.api.create_pull(facts["pr_title"], facts["branch"], base, body)
    return url


def pull_body(facts: dict[str, Any], done: Done, checked: Sequence[str] = ()) -> str:
    summary, failed = done
    body = (FAILED_PR_BODY if failed else PR_BODY).format(**facts, summary=block(summary))
    return body + (f"\n\n{checked_list(checked)}" if checked else "")


def _progress(
    ctx: Context,
    key: str,
    facts: dict[str, Any],
    comment: Callable[[str], object] | None = None,
    *,
    live: bool = True,
) -> Progress:
    """The phase's progress comment, posted now (research is the first stage); ``live``:
    edited at each stage (one job), else the run's log follows them (the check job)."""
    progress = Progress(
        comment or PhaseComment(ctx, key),
        phase_snapshot(ctx, facts),
        clock=ctx.clock,
        spent=lambda: (ctx.summary.spent.tokens, ctx.summary.spent.cost_usd),
        run_id=run_id(ctx.environ),
        warn=partial(warn, ctx.summary, "editing the progress comment"),
        live=live,
    )
    progress.update(force=True)
    return progress


class PhaseComment:
    """Writes the phase's comment: the run's progress, ending in its outcome.  Once the
    outcome is the opened pull request with all of the model's changes taken (``answers``),
    the comment is the command's answer: it carries the reply's marker (a re-delivery
    finds the command answered) and names the commit the run made; otherwise a reply says
    what failed or was not taken."""

    def __init__(self, ctx: Context, key: str, *, answers: bool = False) -> None:
        self.ctx, self.key, self.answers = ctx, key, answers

    def __call__(self, text: str) -> None:
        if not self.answers:
            self.ctx.upsert("implement", self.key, text)
            return
        answered = f"{self.ctx.delivery.key}-implement"
        self.ctx.upsert("implement", self.key, text, proofs=True, answers=answered)


def _earlier_work(
    ctx: Context, facts: dict[str, Any], *, prove: bool = False
) -> tuple[Done | None, str]:
    """``((summary, failed), reply)``: what an earlier run pushed on the branch, if it did —
    the recorded phase, or the kept summary of a phase with failed items; with ``prove``,
    only when the bot's account pushed the branch's head (:func:`bots_head`)."""
    pushed = pushed_branch(ctx.root, facts["branch"], ctx.environ)
    if pushed is None:
        return None, OPENED_REPLY
    done = left_on(ctx.root, pushed, facts)  # a stray branch is said first
    if prove:
        bots_head(ctx, facts, pushed)
    return done, RECOVERED


PUSHES = ("push", "force_push", "branch_creation")
"""The activity that leaves a branch at a commit (a new branch's first push creates it)."""


def bots_head(ctx: Context, facts: dict[str, Any], pushed: str) -> str:
    """The head commit of the phase's branch (``pushed``: its fetched ref), when GitHub's
    record of the repository's activity says the bot's account pushed it — who pushed is
    the account that authenticated, which no commit and no comment can claim; Refused
    otherwise: a branch someone else pushed is not opened as the phase's pull request."""
    head = git_text(ctx.root, "rev-parse", "--verify", f"{pushed}^{{commit}}").strip()
    if head not in ctx.api.pushed(facts["branch"], ctx.forge.login, PUSHES):
        raise Refused(NOT_THE_BOTS.format(**facts, sha=head))
    return head


def left_on(root: Path, rev: str, facts: dict[str, Any]) -> Done:
    """What an earlier run left at ``rev`` of the phase's branch: the recorded phase, or the
    kept summary of a phase with failed items; Refused when it holds neither."""
    found = file_at(root, rev, facts["record"])
    if found is not None:
        return found, False
    kept = file_at(root, rev, facts["kept"])
    if kept is None:
        raise Refused(STRAY_BRANCH.format(**facts, summary=facts["record"]))
    return kept, True


def _implement(
    ctx: Context,
    command: Command,
    position: int,
    facts: dict[str, Any],
    progress: Progress,
    hand_to: Path | None = None,
) -> tuple[ImplementResult, list[str]]:
    """Run the implement step on a new branch, check and push it (the progress comment
    follows): the step's result and what the check did.  When items failed the phase is
    not recorded (no ``phases/<label>.md``)."""
    from bot.agent.steps import implement_rfd
    from bot.events import Notice

    rid, label, branch = facts["rid"], facts["label"], facts["branch"]
    checkout = open_branch(ctx.root, branch, ctx.environ)
    try:
        work = open_workspace(ctx, checkout.root)
        files = lambda name: work.store.read_text(rid, f"{implement_dir(position)}/{name}")  # noqa: E731
        work.bus.subscribe(Notice, implement_listener(progress, files), owner="progress")
        before = baseline(checkout.root)
        environ = {**os.environ, **ctx.environ}
        result = implement_rfd(work, rid, phase=position, model=command.model, environ=environ)
        if not result.failed:
            work.store.write_phase_summary(rid, label, result.summary)
        report = check_run(checkout.root, before, work.config, environ)
        progress.update(stage=Stage.PUSH, items=result.items)
        noted = (
            f"phase {label} of RFD {rid} pushed to `{{branch}}`; its pull request not yet opened"
        )
        what = f"phase {label}"
        if hand_to is not None:  # the work job: committed here, pushed by the publish job
            if bot_commit(ctx, checkout, [checkout.root], rid, what, noted=noted, push=False):
                write_bundle(hand_to, checkout.root, _head(ctx))
        else:
            bot_commit(ctx, checkout, [checkout.root], rid, what, noted=noted)
    finally:
        close(ctx.root, checkout)
    refused = [REFUSED_LINE.format(path=shown(p), reason=why) for p, why in result.refused]
    return result, refused + report.lines()
