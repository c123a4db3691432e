"""``/rfd status`` on a tracking issue: where the implementation stands and what to run next.

Read from the default branch (where the RFD is Accepted and phases are recorded):
each phase with its summary once done and its pull request (the branch
``/rfd implement`` opens is named after the phase), then the next command.
"""

from __future__ import annotations

from urllib.parse import quote

from bot.core.github_markdown import inline
from bot.core.text import plural
from bot.github.implement.texts import BRANCH
from bot.github.ops import open_workspace
from bot.github.run import Context
from bot.model import phase_ids
from bot.model.status import Status

HEADER = "### Implementation of RFD {rid} — {status}"
PROGRESS = "{done} of {total} done{optional}."
NEXT_PHASE = "**Next step:** comment `/rfd implement` here to start phase {label}: {title}."
NEXT_DONE = (
    "**Next step:** every required phase is done: comment `/rfd done` here, and the bot opens "
    "the pull request that marks the RFD Implemented (merging it closes this issue)."
)
NO_PLAN = "RFD {rid} has no plan on `{branch}` yet: merge the pull request that accepts it."
FINISHED = "RFD {rid} is {status}: nothing is left to run."


def implementation_status(ctx: Context, rid: str) -> str:
    ws = open_workspace(ctx, ctx.root)
    doc = ws.document(rid)
    state = ws.store.read(rid)
    plan = state.plan or ()
    if doc.status is not Status.ACCEPTED:
        return FINISHED.format(rid=rid, status=doc.status_word)
    if not plan:
        return NO_PLAN.format(rid=rid, branch=ctx.delivery.default_branch)
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    lines = [HEADER.format(rid=rid, status=doc.status_word), ""]
    for n, phase in enumerate(plan, start=1):
        label = phase_ids.label(phase, n)
        branch = BRANCH.format(rid=rid, n=label)
        prs = f"[pull request]({web}/pulls?q={quote(f'is:pr head:{branch}')})"
        done = n in state.completed
        summary = ws.rel(ws.store.path(rid, f"phases/{label}.md"))
        extra = f" · [summary]({web}/blob/{ctx.delivery.default_branch}/{summary})" if done else ""
        where = "done" if done else "to do"
        lines.append(f"- Phase {label}: {inline(phase.title)} — {where} · {prs}{extra}")
    required = [p for p in plan if not phase_ids.optional(p)]
    missing = phase_ids.missing(plan, state.completed)
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
        lines.append(
            NEXT_PHASE.format(label=phase_ids.label(nxt, missing[0]), title=inline(nxt.title))
        )
    else:
        lines.append(NEXT_DONE)
    return "\n".join(lines)
