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
from typing import Any

from bot import phase_ids
from bot.agent.commit_guard import baseline, check_run
from bot.agent.isolation import ENABLE, NO_ISOLATION, choose
from bot.github.checkout import close, commit_and_push, file_at, open_branch, pushed_branch
from bot.github.commands import Command
from bot.github.context import Context
from bot.github.ops import COMMIT, Refused, has_model, open_workspace
from bot.github.verbs import NEEDS_MODEL, rfd_for_implement
from bot.markdown_safe import block, inline, one_line

KEPT = "implement/{position}/summary.md"
"""Where the implement step keeps the summary (``bot.agent.implement.SUMMARY``)."""
Done = tuple[str, bool]
"""The phase's summary, and whether items failed."""
BRANCH = "rfd/{rid}-phase-{n}"
TITLE = "RFD {rid}, phase {n}: {title}"
RUNNING = "⏳ Implementing RFD {rid}, phase {n}: {title} (branch `{branch}`)…"
OPENED = "✅ RFD {rid}, phase {n}: {title} — {url}"
EXISTS = "Phase {n} of RFD {rid} already has a pull request: {url}"
PR_BODY = (
    "<!-- rfd-bot:implement:{rid}-{n} -->\nPhase {n} of RFD {rid}: {title}.\n\n{summary}\n\n"
    "Merging it records the phase (`phases/{label}.md`) and ticks it on the tracking issue. "
    "Checks do not start by themselves on PRs the bot opens: push a commit or re-run them."
)
FAILED_PR_BODY = (
    "<!-- rfd-bot:implement:{rid}-{n} -->\nPhase {n} of RFD {rid}: {title}.\n\n"
    "> [!WARNING]\n> Some items failed (listed below): merging this pull request does **not** "
    "record the phase, and the tracking issue keeps it open.\n\n{summary}\n\n"
    "Fix the failed items on this branch; then, or to accept the phase as it is, a person "
    "records it by copying `{kept}` to `{record}` on this branch before merging. "
    "Checks do not start by themselves on PRs the bot opens: push a commit or re-run them."
)
OPENED_FAILED = (
    "⚠️ RFD {rid}, phase {n}: {title} — {url}: some items failed, so the phase is not "
    "recorded (see the pull request for them and for how to record it anyway)."
)
FAILED_REPLY = (
    "Opened {url} for phase {n} of RFD {rid}, with failed items: merging it does not record "
    "the phase (the pull request says how to)."
)
NO_PHASE = "RFD {rid} has no phase left to implement."
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
    position = _position(rid, state.plan, command.phase, state.next_phase)
    plan = state.plan or ()
    label = phase_ids.label(plan[position - 1], position)
    branch = BRANCH.format(rid=rid, n=label)
    facts: dict[str, Any] = {
        "rid": rid,
        "n": label,
        "label": label,
        "title": inline(plan[position - 1].title),
        "branch": branch,
    }
    facts["record"] = ws.rel(ws.store.path(rid, f"phases/{label}.md"))
    facts["kept"] = ws.rel(ws.store.path(rid, KEPT.format(position=position)))
    key = f"{rid}-{label}"  # the label: unique in the plan, and what users call the phase
    existing = ctx.api.find_pull(branch)
    if existing is not None:
        ctx.upsert("implement", key, OPENED.format(**facts, url=existing[1]))
        return EXISTS.format(**facts, url=existing[1])
    done, reply = _earlier_work(ctx, facts)
    checked: list[str] = []
    if done is None:
        ctx.upsert("implement", key, RUNNING.format(**facts))
        done, checked = _implement(ctx, command, rid, position, label, branch)
    summary, failed = done
    body = (FAILED_PR_BODY if failed else PR_BODY).format(**facts, summary=block(summary))
    title = TITLE.format(**facts | {"title": one_line(plan[position - 1].title)})
    _, url = ctx.api.create_pull(title, branch, ctx.delivery.default_branch, body)
    lines = "\n".join(f"- {inline(line)}" for line in checked)
    extra = f"\n\n{CHECKED.format(lines=lines)}" if lines else ""
    if not failed:
        ctx.upsert("implement", key, OPENED.format(**facts, url=url))
        return reply.format(**facts, url=url) + extra
    progress = OPENED_FAILED.format(**facts, url=url)
    ctx.upsert("implement", key, progress)
    tracking = ws.document(rid).tracking_issue
    if tracking is not None and tracking != ctx.number:  # the tracking issue shows it too
        ctx.upsert("implement", key, progress, number=tracking)
    return (FAILED_REPLY if reply is OPENED_REPLY else reply).format(**facts, url=url) + extra


def _position(rid: str, plan: Sequence[Any] | None, asked: str | None, nxt: int | None) -> int:
    """The position of the phase to implement: the one asked for (by its label), else the
    next one; Refused when there is none."""
    if not plan:
        raise Refused(NO_PHASE.format(rid=rid))
    if asked is None:
        if nxt is None:
            raise Refused(NO_PHASE.format(rid=rid))
        return nxt
    found = phase_ids.named(plan, asked)
    if found is None:
        raise Refused(UNKNOWN_PHASE.format(rid=rid, asked=asked, labels=_labels(plan)))
    return found


def _labels(plan: Sequence[Any]) -> str:
    return ", ".join(phase_ids.labels(plan))


def _earlier_work(ctx: Context, facts: dict[str, Any]) -> tuple[Done | None, str]:
    """``((summary, failed), reply)``: what an earlier run pushed on the branch, if it did —
    the recorded phase, or the kept summary of a phase with failed items."""
    pushed = pushed_branch(ctx.root, facts["branch"], ctx.environ)
    if pushed is None:
        return None, OPENED_REPLY
    found = file_at(ctx.root, pushed, facts["record"])
    if found is not None:
        return (found, False), RECOVERED
    kept = file_at(ctx.root, pushed, facts["kept"])
    if kept is None:
        raise Refused(STRAY_BRANCH.format(**facts, summary=facts["record"]))
    return (kept, True), RECOVERED


def _implement(
    ctx: Context, command: Command, rid: str, position: int, label: str, branch: str
) -> tuple[Done, list[str]]:
    """Run the implement step on a new branch, check and push it: the phase summary, whether
    items failed (then the phase is not recorded: no ``phases/<label>.md``), and what the
    check did."""
    from bot.agent.steps import implement_rfd

    checkout = open_branch(ctx.root, branch, ctx.environ)
    try:
        work = open_workspace(ctx, checkout.root)
        before = baseline(checkout.root)
        result = implement_rfd(work, rid, phase=position, model=command.model)
        if not result.failed:
            work.store.write_phase_summary(rid, label, result.summary)
        environ = {**os.environ, **ctx.environ}
        report = check_run(checkout.root, before, work.config, environ)
        message = COMMIT.format(ids=rid, what=f"phase {label}", key=ctx.delivery.key)
        if commit_and_push(checkout, [checkout.root], message, ctx.environ):
            ctx.progress.append(f"phase {label} of RFD {rid} pushed to `{branch}`; "
                                "its pull request not yet opened")  # fmt: skip
    finally:
        close(ctx.root, checkout)
    return (result.summary, bool(result.failed)), report.lines()
