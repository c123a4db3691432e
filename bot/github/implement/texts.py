"""The texts of ``/rfd implement``: the branch and pull-request names, the pull request's
body, the progress comment's headings and the replies, and the facts of a phase they are
filled with (:mod:`bot.github.implement.command` posts them); where the step keeps a summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.github_markdown import inline, one_line
from bot.model import phase_ids
from bot.state.files import implement_dir

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.plan import PlanPhase

Done = tuple[str, bool]
"""The phase's summary, and whether items failed."""
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
FAILED_PR_BODY = (
    "<!-- rfd-bot:implement:{rid}-{n} -->\nPhase {n} of RFD {rid}: {title}.\n\n"
    "> [!WARNING]\n> Some items failed (listed below): merging this pull request does **not** "
    "record the phase, and the tracking issue keeps it open.\n\n{summary}\n\n"
    "Fix the failed items on this branch; then, or to accept the phase as it is, a person "
    "records it by copying `{kept}` to `{record}` on this branch before merging. "
    "Checks do not start by themselves on PRs the bot opens: push a commit or re-run them."
)
NOT_RECORDED = (
    "Some items failed, so the phase is not recorded (see the pull request for them and for "
    "how to record it anyway)."
)
OPENED_FAILED = "### ⚠️ RFD {rid}, phase {n}: {title} — {pr}\n\n" + NOT_RECORDED
FAILED_REPLY = (
    "Opened {url} for phase {n} of RFD {rid}, with failed items: merging it does not record "
    "the phase (the pull request says how to)."
)
PR_LINK = "pull request [#{number}]({url}) opened"
RETRY = "Comment `/rfd implement {n}` to run the phase again (the job summary has the details)."
OPENED_REPLY = "Opened {url} for phase {n} of RFD {rid}."
RECOVERED = (
    "Opened {url} for phase {n} of RFD {rid} from branch `{branch}`, which an earlier run "
    "pushed before it could open the pull request (nothing was implemented again)."
)
FROM_EARLIER = (
    "From branch `{branch}`, which an earlier run pushed before it could open the pull "
    "request: nothing was implemented again."
)
NOT_ISOLATED = "Implement needs isolation for the commands it runs: {why}. To enable it, {how}."
CHECKED = (
    "The model worked in a copy of the repository; these of its changes were not taken "
    '(`rfd help security`, "What implement\'s commands can reach", says why):\n{lines}'
)
STRAY_BRANCH = (
    "Branch `{branch}` exists but holds no `{summary}`, so it is not an earlier run's work: "
    "delete the branch (or rename it), then comment `/rfd implement {n}` again."
)

NOT_THE_BOTS = (
    "Branch `{branch}` exists, but GitHub does not record the bot pushing its last commit "
    "`{sha}`, so it is not opened as the pull request of phase {n} of RFD {rid}: nothing was "
    "opened. If the branch holds the phase's work, open its pull request yourself; else delete "
    "the branch (or rename it), then comment `/rfd implement {n}` again."
)


def facts_of(ws: Workspace, rid: str, plan: Sequence[PlanPhase], position: int) -> dict[str, Any]:
    """What the texts say of the phase at ``position`` (its title made safe for markdown)."""
    phase = plan[position - 1]
    label = phase_ids.label(phase, position)
    facts: dict[str, Any] = {
        "rid": rid,
        "n": label,
        "label": label,
        "title": inline(phase.title),
        "branch": BRANCH.format(rid=rid, n=label),
        "record": ws.rel(ws.store.path(rid, f"phases/{label}.md")),
        "kept": ws.rel(ws.store.path(rid, f"{implement_dir(position)}/summary.md")),
        "items": ws.rel(ws.store.path(rid, f"{implement_dir(position)}/items.md")),
    }
    facts["pr_title"] = TITLE.format(**facts | {"title": one_line(phase.title)})
    return facts


def pr_link(url: str) -> str:
    return PR_LINK.format(number=url.rsplit("/", 1)[-1], url=url)
