"""What to do next: the last line of a step that changed an RFD.

The event lines (``  → …``) have already said what happened — the status change, the
phase recorded, the issue updated — so the closing ``✓`` line does not repeat them: it
names the next action, the one ``rfd status`` would list first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.lifecycle.views import Action, StatusView
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document

STEPS = ("explore", "converge", "draft", "review", "refine", "implement")
FINISHED = "RFD {rid} has nothing left to do"


def status_of(ws: Workspace, query: str) -> StatusView:
    """What ``rfd status`` shows for ``query``, with each step's configured model."""
    from bot.lifecycle import render

    file = ws.find(query)
    doc = ws.document(file)
    models = {step: getattr(ws.config.steps, step).model for step in STEPS}
    state = ws.store.read(str(file.rfd_id))
    planned = doc.status.value not in ("Draft", "Discussion")  # only those have an issue
    recorded = doc.field("Tracking Issue") or not planned
    tracking = "" if recorded else _tracking_issue(ws, str(file.rfd_id))
    view = render.status_view(doc, state, path=file.path, models=models, tracking=tracking)
    if file.proposal:
        return _as_proposal(view, file.slug)
    return _without_refused(ws, file.path, doc, view)


NOT_YET = ("Phases", "Plan", "Tracking issue", "Accept")
"""What a proposal has not reached: its plan, its phases, its tracking issue."""
PROPOSAL_LINE = "no number yet: accepting it gives it one and renames the file"
PROPOSAL_ACTION = "Accept the proposal: number it, rename the file, extract the plan"


def _as_proposal(view: StatusView, slug: str) -> StatusView:
    """An unnumbered RFC proposal: named by its slug, its status ``proposal`` whatever the
    stage its template wrote, accept the step that numbers it."""
    from dataclasses import replace

    from bot.lifecycle.views import Action

    lines = tuple((k, v) for k, v in view.lines if k not in ("Status", *NOT_YET))
    actions = (Action(f"rfd accept {slug}", PROPOSAL_ACTION),)
    return replace(
        view,
        rfd_id=slug,
        status="proposal",
        lines=(("Status", "proposal"), *lines, ("Proposal", PROPOSAL_LINE)),
        phases=(),
        actions=actions,
    )


ACCEPT_LATER = "not yet: it waits for the sign-offs (Decision, below)"
ACCEPT_REFUSED = "not yet: {reason}"


def _without_refused(ws: Workspace, path: str, doc: Document, view: StatusView) -> StatusView:
    """The view without ``rfd accept`` when accept would refuse now — the same check the
    command makes — and a line saying why instead."""
    from dataclasses import replace

    from bot.lifecycle.accept_gate import refusal

    if not any(a.command.startswith("rfd accept ") for a in view.actions):
        return view
    refused = refusal(ws, path, doc)
    if refused is None:
        return view
    said = ACCEPT_LATER if refused.signoffs else ACCEPT_REFUSED.format(reason=refused.error.message)
    actions = tuple(a for a in view.actions if not a.command.startswith("rfd accept "))
    return replace(view, actions=actions, lines=(*view.lines, ("Accept", said)))


def _tracking_issue(ws: Workspace, rfd_id: str) -> str:
    """The tracking issue kept in the state directory only (found by its marker)."""
    from bot.lifecycle.tracking import marker

    issue = ws.forge.find_issue(marker(rfd_id))
    return "" if issue is None else f"#{issue.number} ({issue.url.removeprefix('local:')})"


def next_action(view: StatusView) -> Action | None:
    """The action that moves the RFD on: ``rfd done`` once it is possible, else the first."""
    done = [a for a in view.actions if a.command.startswith("rfd done ")]
    if done:
        return done[0]
    return view.actions[0] if view.actions else None


def next_step(ws: Workspace, rfd_id: str) -> str:
    """``RFD 001: next, `rfd implement 001` — Implement phase 2: … (opus)``."""
    ws.refresh()  # a promotion may have renamed the file
    view = status_of(ws, rfd_id)
    action = next_action(view)
    if action is None:
        return FINISHED.format(rid=view.rfd_id)
    return f"RFD {view.rfd_id}: next, `{action.command}` — {action.description}"
