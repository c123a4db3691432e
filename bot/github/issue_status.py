"""``/rfd status`` on a tracking issue: where the implementation stands and what to run next.

Read from the default branch (where the RFD is Accepted and phases are recorded):
each phase with its summary once done and its pull request (the branch
``/rfd implement`` opens is named after the phase), then the next step.  While the next
phase's pull request is open, the next step is to review and merge it; when it is the last
phase's and it also marks the RFD Implemented (``[implement] finish_in_last_phase``), its
merge is the end: no ``/rfd done``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

from bot.core.github_markdown import inline
from bot.core.text import plural
from bot.github.implement.texts import BRANCH
from bot.github.ops import open_workspace
from bot.github.places import stage_words, words_on_default_branch
from bot.github.run import Context
from bot.lifecycle.tracking import PULL_LINK
from bot.model import phase_ids
from bot.model.plan import PlanPhase
from bot.model.status import Status

HEADER = "### Implementation of RFD {rid} — {status}"
PROGRESS = "{done} of {total} done{optional}."
NEXT_PHASE = "**Next step:** comment `/rfd implement` here to start phase {label}: {title}."
NEXT_DONE = (
    "**Next step:** every required phase is done: comment `/rfd done` here, and the bot opens "
    "the pull request that marks the RFD {implemented} (merging it closes this issue)."
)
MERGE_PHASE = "**Next step:** review and merge {pr} (phase {label}: {title}), then {then}."
THEN_IMPLEMENT = "comment `/rfd implement` here for the next phase"
THEN_DONE = "comment `/rfd done` here to mark the RFD {implemented}"
MERGE_FINISHES = (
    "**Next step:** review and merge {pr}: it records phase {label} and marks RFD {rid} "
    "{implemented}, and the merge closes this issue (no `/rfd done` needed)."
)
NO_PLAN = "RFD {rid} has no plan on `{branch}` yet: merge the pull request that accepts it."
FINISHED = "RFD {rid} is {status}: nothing is left to run."


def implementation_status(ctx: Context, rid: str) -> str:
    ws = open_workspace(ctx, ctx.root)
    doc = ws.document(rid)
    state = ws.store.read(rid)
    plan = state.plan or ()
    if doc.status is not Status.ACCEPTED:
        return FINISHED.format(rid=rid, status=inline(doc.status_word))
    if not plan:
        return NO_PLAN.format(rid=rid, branch=ctx.delivery.default_branch)
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    missing = phase_ids.missing(plan, state.completed)
    merge = pull_to_merge(ctx, rid, ws.find(rid).path, plan, missing) if missing else None
    lines = [HEADER.format(rid=rid, status=inline(doc.status_word)), ""]
    for n, phase in enumerate(plan, start=1):
        label = phase_ids.label(phase, n)
        branch = BRANCH.format(rid=rid, n=label)
        prs = f"[pull request]({web}/pulls?q={quote(f'is:pr head:{branch}')})"
        done = n in state.completed
        summary = ws.rel(ws.store.path(rid, f"phases/{label}.md"))
        extra = f" · [summary]({web}/blob/{ctx.delivery.default_branch}/{summary})" if done else ""
        where = "done" if done else "to do"
        if merge is not None and merge.position == n:
            where, prs = "in review", merge.pr
        lines.append(f"- Phase {label}: {inline(phase.title)} — {where} · {prs}{extra}")
    required = [p for p in plan if not phase_ids.optional(p)]
    optional = len(plan) - len(required)
    note = f" ({plural(optional, 'optional phase')} not counted)" if optional else ""
    done_count = len(required) - len(missing)
    lines += [
        "",
        PROGRESS.format(done=done_count, total=plural(len(required), "phase"), optional=note),
        "",
    ]
    if missing:
        nxt = plan[missing[0] - 1]
        label = phase_ids.label(nxt, missing[0])
        lines.append(
            merge.step if merge else NEXT_PHASE.format(label=label, title=inline(nxt.title))
        )
    else:
        lines.append(NEXT_DONE.format(**stage_words(doc.status_word)))
    return "\n".join(lines)


@dataclass(frozen=True)
class Merge:
    """The open pull request of the phase at ``position`` (``pr``: its link) and the next
    step it makes: review and merge it."""

    position: int
    pr: str
    step: str


def pull_to_merge(
    ctx: Context, rid: str, path: str, plan: Sequence[PlanPhase], missing: Sequence[int]
) -> Merge | None:
    """The next step while the pull request of the first missing phase is open: review and
    merge it (its link); when it is the last phase's and also changes the RFD at ``path``
    (to Implemented), its merge finishes the RFD.  None when that phase has no open one."""
    phase = plan[missing[0] - 1]
    label = phase_ids.label(phase, missing[0])
    found = ctx.api.find_pull(BRANCH.format(rid=rid, n=label), state="open")
    if found is None:
        return None
    number, url = found
    pr = PULL_LINK.format(number=number, url=url)
    if len(missing) > 1:
        then = THEN_IMPLEMENT
    elif any(f.path == path for f in ctx.api.pull_files(number)):
        finishes = MERGE_FINISHES.format(
            pr=pr, label=label, rid=rid, **words_on_default_branch(ctx, rid)
        )
        return Merge(missing[0], pr, finishes)
    else:
        then = THEN_DONE.format(**words_on_default_branch(ctx, rid))
    step = MERGE_PHASE.format(pr=pr, label=label, title=inline(phase.title), then=then)
    return Merge(missing[0], pr, step)
