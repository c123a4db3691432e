"""``/rfd implement [phase]``: implement a phase on a new branch and open a PR for it.

Runs on the RFD's tracking issue or its pull request.  The work starts from the
default branch (where the RFD is Accepted); the implement step's writes are
confined by ``[implement]`` in the configuration (allowed paths and commands) —
there is nobody to ask in a bot, so anything else is refused.  Progress is one
comment edited in place; the PR is titled "RFD 045, phase 2: …" and carries the
code and ``phases/2.md``.  A phase is named by its label in the RFD (``3a``, see
:mod:`bot.phase_ids`) everywhere: the command, the branch ``rfd/045-phase-3a``, the
title, the messages and the markers.  A phase whose PR exists already is not redone.

The model's commands run isolated (:mod:`bot.agent.isolation`); where no isolation works
the command is refused before any model call, saying how to enable it.  What the run
left in the worktree is checked before the commit (:mod:`bot.agent.commit_guard`): what
is out of bounds is put back, secret values are redacted, and the reply says so.

Retry-safe: a run that pushed the branch but failed to open the PR (a 5xx, a
422) left the work on the branch; the next run finds the branch with its
``phases/<label>.md``, opens the PR for it without implementing again, and says so.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot import phase_ids
from bot.agent.commit_guard import baseline, check_run
from bot.agent.isolation import ENABLE, NO_ISOLATION, choose
from bot.errors import ForgeError
from bot.github.checkout import close, commit_and_push, file_at, open_branch, pushed_branch
from bot.github.commands import Command
from bot.github.context import Context
from bot.github.ops import COMMIT, Refused, has_model, open_workspace
from bot.github.progress import Progress, Snapshot, Stage, implement_listener
from bot.github.run_link import run_id, run_url
from bot.github.verbs import NEEDS_MODEL, rfd_for_implement
from bot.text import plural

if TYPE_CHECKING:
    from bot.agent.implement import ImplementResult

BRANCH = "rfd/{rid}-phase-{n}"
TITLE = "RFD {rid}, phase {n}: {title}"
RUNNING = "RFD {rid}, phase {n}: {title}"
OPENED = "### ✅ RFD {rid}, phase {n}: {title} — {pr}"
EXISTS = "Phase {n} of RFD {rid} already has a pull request: {url}"
PR_BODY = (
    "<!-- rfd-bot:implement:{rid}-{n} -->\nPhase {n} of RFD {rid}: {title}.\n\n{summary}\n\n"
    "Merging it records the phase (`phases/{label}.md`) and ticks it on the tracking issue. "
    "Checks do not start by themselves on PRs the bot opens: push a commit or re-run them."
)
NO_PHASE = (
    "Every phase of RFD {rid} has its summary on `{branch}`: nothing is left to implement. "
    "**Next step:** `/rfd done` on a pull request that changes RFD {rid} marks it Implemented."
)
MERGE_FIRST = (
    "RFD {rid} is not Accepted on `{branch}` yet. **Next step:** merge this pull request "
    "first, then comment `/rfd implement` on {issue}."
)
ACCEPT_FIRST = (
    "RFD {rid} has no accepted plan on `{branch}`. **Next step:** accept it on its pull "
    "request (`/rfd accept`) and merge that pull request, then comment `/rfd implement` here."
)
PR_LINK = "pull request [#{number}]({url}) opened"
RETRY = "Comment `/rfd implement {n}` to run the phase again (the job summary has the details)."
UNKNOWN_PHASE = "RFD {rid} has no phase {asked}: its phases are {labels}."
OPENED_REPLY = "Opened {url} for phase {n} of RFD {rid}."
RECOVERED = (
    "Opened {url} for phase {n} of RFD {rid} from branch `{branch}`, which an earlier run "
    "pushed before it could open the pull request (nothing was implemented again)."
)
NOT_ISOLATED = "Implement needs isolation for the commands it runs: {why}. To enable it, {how}."
CHECKED = "Before committing, the bot checked what the run left in the worktree:\n{lines}"
STRAY_BRANCH = (
    "Branch `{branch}` exists but holds no `{summary}`, so it is not an earlier run's work: "
    "delete the branch (or rename it), then comment `/rfd implement {n}` again."
)


def implement(ctx: Context, command: Command) -> str:
    if not has_model(ctx, "implement", command.model):
        raise Refused(NEEDS_MODEL.format(verb="implement"))
    if choose(ctx.cfg.implement.isolation) is None:
        raise Refused(NOT_ISOLATED.format(why=NO_ISOLATION, how=ENABLE))
    rid = rfd_for_implement(ctx, command)
    ws = open_workspace(ctx, ctx.root)
    state = ws.store.read(rid)
    if not state.plan:
        raise Refused(_not_accepted_yet(ctx, rid))
    plan = state.plan
    position = _position(ctx, rid, plan, command.phase, state.next_phase)
    label = phase_ids.label(plan[position - 1], position)
    branch = BRANCH.format(rid=rid, n=label)
    facts: dict[str, Any] = {
        "rid": rid,
        "n": label,
        "label": label,
        "title": plan[position - 1].title,
        "branch": branch,
    }
    key = f"{rid}-{label}"  # the label: unique in the plan, and what users call the phase
    existing = ctx.api.find_pull(branch)
    if existing is not None:
        ctx.upsert("implement", key, OPENED.format(**facts, pr=_pr_link(existing[1])))
        return EXISTS.format(**facts, url=existing[1])
    summary, reply = _earlier_work(ctx, ws.rel(ws.store.path(rid, f"phases/{label}.md")), facts)
    if summary is not None:
        url = _open_pull(ctx, facts, summary)
        ctx.upsert("implement", key, OPENED.format(**facts, pr=_pr_link(url)))
        return reply.format(**facts, url=url)
    progress = _progress(ctx, key, facts)
    try:
        result, checked = _implement(ctx, command, position, facts, progress)
        url = _open_pull(ctx, facts, result.summary)
    except Exception as exc:
        _report(ctx, progress, exc, facts)
        raise
    failed = f" with {plural(len(result.failed), 'failed item')}" if result.failed else ""
    progress.done(_pr_link(url) + failed, result.items)
    lines = "\n".join(f"- {line}" for line in checked)
    return reply.format(**facts, url=url) + (f"\n\n{CHECKED.format(lines=lines)}" if lines else "")


def _pr_link(url: str) -> str:
    return PR_LINK.format(number=url.rsplit("/", 1)[-1], url=url)


def _report(ctx: Context, progress: Progress, exc: Exception, facts: dict[str, Any]) -> None:
    """The progress comment says the run failed (never a stale ⏳), unless GitHub is down."""
    try:
        progress.failed(str(exc), RETRY.format(**facts))
    except ForgeError as again:
        ctx.summary.problem(again)


def _open_pull(ctx: Context, facts: dict[str, Any], summary: str) -> str:
    body = PR_BODY.format(**facts, summary=summary.strip())
    branch = facts["branch"]
    _, url = ctx.api.create_pull(TITLE.format(**facts), branch, ctx.delivery.default_branch, body)
    return url


def _progress(ctx: Context, key: str, facts: dict[str, Any]) -> Progress:
    """The phase's progress comment, posted now (research is the first stage)."""
    snap = Snapshot(
        "Implementing", RUNNING.format(**facts), Stage.RESEARCH,
        run_url=run_url(ctx.environ), detail=f"branch `{facts['branch']}`",
    )  # fmt: skip
    progress = Progress(
        lambda text: ctx.upsert("implement", key, text), snap, clock=ctx.clock,
        spent=lambda: (ctx.summary.spent.tokens, ctx.summary.spent.cost_usd),
        run_id=run_id(ctx.environ),
    )  # fmt: skip
    progress.update(force=True)
    return progress


def _not_accepted_yet(ctx: Context, rid: str) -> str:
    """The dead end of an RFD without a plan on the default branch, and the way out."""
    from bot.comments import marker

    branch = ctx.delivery.default_branch
    if not ctx.delivery.on_pull_request:
        return ACCEPT_FIRST.format(rid=rid, branch=branch)
    issue = ctx.forge.find_issue(marker("tracking", rid))
    where = f"its tracking issue #{issue.number}" if issue else "its tracking issue"
    return MERGE_FIRST.format(rid=rid, branch=branch, issue=where)


def _position(ctx: Context, rid: str, plan: Sequence[Any], asked: str | None,
              nxt: int | None) -> int:  # fmt: skip
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


def _earlier_work(ctx: Context, summary_path: str, facts: dict[str, Any]) -> tuple[str | None, str]:
    """``(summary, reply)``: the summary an earlier run pushed on the branch, if it did."""
    pushed = pushed_branch(ctx.root, facts["branch"], ctx.environ)
    if pushed is None:
        return None, OPENED_REPLY
    found = file_at(ctx.root, pushed, summary_path)
    if found is None:
        raise Refused(STRAY_BRANCH.format(**facts, summary=summary_path))
    return found, RECOVERED


def _implement(
    ctx: Context, command: Command, position: int, facts: dict[str, Any], progress: Progress
) -> tuple[ImplementResult, list[str]]:
    """Run the implement step on a new branch, check and push it (the progress comment
    follows): the step's result and what the check did."""
    from bot.agent.steps import implement_rfd
    from bot.events import Notice

    rid, label, branch = facts["rid"], facts["label"], facts["branch"]
    checkout = open_branch(ctx.root, branch, ctx.environ)
    try:
        work = open_workspace(ctx, checkout.root)
        files = lambda name: work.store.read_text(rid, f"implement/{position}/{name}")  # noqa: E731
        work.bus.subscribe(Notice, implement_listener(progress, files), owner="progress")
        before = baseline(checkout.root)
        result = implement_rfd(work, rid, phase=position, model=command.model)
        work.store.write_phase_summary(rid, label, result.summary)
        environ = {**os.environ, **ctx.environ}
        report = check_run(checkout.root, before, work.config, environ)
        progress.update(stage=Stage.PUSH, items=result.items)
        message = COMMIT.format(ids=rid, what=f"phase {label}", key=ctx.delivery.key)
        if commit_and_push(checkout, [checkout.root], message, ctx.environ):
            ctx.progress.append(f"phase {label} of RFD {rid} pushed to `{branch}`; "
                                "its pull request not yet opened")  # fmt: skip
    finally:
        close(ctx.root, checkout)
    return result, report.lines()
