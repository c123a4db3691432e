"""rfd-sync's one write: the tracking issue of an RFD, through the forge interface.

Only the bot's checklist region of the issue body changes (``bot.lifecycle.tracking.merge_body``
keeps boxes a person ticked and everything outside the region), so running it twice
changes nothing the second time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from bot.core.errors import RfdError
from bot.core.text import noun, plural
from bot.model.status import Status
from hooks._common import Layout, decode
from hooks._tree import Tree

if TYPE_CHECKING:
    from bot.forge.base import Forge, Issue
    from bot.model.plan import PlanPhase

CLOSING = (Status.IMPLEMENTED, Status.ABANDONED, Status.SUPERSEDED)


class Update(NamedTuple):
    """What to do to the tracking issue of one RFD."""

    key: str
    """The RFD id, as its state directory is named."""
    path: str | None
    """The RFD file in the newest commit (None when it has none there)."""
    phases: tuple[str, ...]
    """The phases whose summary was added, as named (``1``, ``3a``)."""
    status: Status | None
    """The new status when it changed."""

    def describe(self) -> str:
        parts = (
            [f"tick {noun(len(self.phases), 'phase')} {', '.join(self.phases)}"]
            if self.phases
            else []
        )
        if self.status is not None:
            verb = "close" if self.status in CLOSING else "update"
            parts.append(f"{verb} it (status now {self.status})")
        return f"RFD {self.key}: {' and '.join(parts)} on its tracking issue"


def apply(forge: Forge, update: Update, tree: Tree, layout: Layout) -> str:
    """Tick the done phases of ``update``'s RFD on its tracking issue; what was done."""
    issue = find_issue(forge, update, tree)
    if issue is None:
        return f"RFD {update.key}: no tracking issue yet (`rfd accept` creates it); skipped"
    from bot.lifecycle.tracking import merge_body

    phases = plan_phases(tree, layout, update.key)
    done = done_phases(tree, layout, update.key, phases)
    body = merge_body(issue.body, phases, done) if phases else issue.body
    state = _state(update.status, issue.state)
    if body == issue.body and state is None:
        return f"RFD {update.key}: tracking issue #{issue.number} already up to date"
    forge.edit_issue(issue.number, body=body if body != issue.body else None, state=state)
    closed = " and closed it" if state == "closed" else ""
    return (
        f"RFD {update.key}: updated tracking issue #{issue.number} "
        f"({len(done)}/{plural(len(phases), 'phase')}){closed}"
    )


def find_issue(forge: Forge, update: Update, tree: Tree) -> Issue | None:
    number = None
    if update.path is not None:
        try:
            doc = tree.document(update.path)
        except RfdError:
            doc = None
        number = doc.tracking_issue if doc is not None else None
    if number is not None:
        return forge.get_issue(number)
    from bot.lifecycle.tracking import marker

    return forge.find_issue(marker(update.key))


def plan_phases(tree: Tree, layout: Layout, key: str) -> tuple[PlanPhase, ...]:
    from bot.model import plan

    path = layout.state_path(key, "plan.json")
    data = tree.read(path)
    return () if data is None else plan.loads(decode(data, path), path)


def done_phases(tree: Tree, layout: Layout, key: str, phases: tuple[PlanPhase, ...]) -> set[int]:
    """Positions of the phases with a summary in ``tree`` (``bot.model.phase_ids``)."""
    from bot.model.phase_ids import done

    return done(phases, tree.phase_files(layout, key))


def _state(status: Status | None, current: str) -> str | None:
    if status is None:
        return None
    wanted = "closed" if status in CLOSING else "open"
    return None if wanted == current else wanted
