"""``rfd track``: make an RFD accepted before rfd-bot (its Status line edited by hand)
trackable — its plan extracted into ``plan.json`` deterministically (phase headings or a
numbered list of bold titles, never a model), so phases can be recorded against it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from bot.core.errors import AlreadyExists, InvalidStructure, TransitionError
from bot.lifecycle.workspace import Workspace
from bot.model import phase_ids, plan
from bot.model.plan import PlanPhase
from bot.model.status import Status

TRACKED = (Status.ACCEPTED, Status.IMPLEMENTED)
NOT_ACCEPTED_HINT = "run `rfd accept {id}`: it extracts the plan as it accepts"
HAS_PLAN_HINT = "`rfd status {id}` shows it; delete {plan} to extract it again"
NO_PLAN_HINT = "{how}, check it with `rfd plan {id}`, then run `rfd track {id}` again"


class TrackOutcome(NamedTuple):
    rfd_id: str
    phases: tuple[PlanPhase, ...]
    path: Path
    message: str


def track(ws: Workspace, query: str) -> TrackOutcome:
    """Write the plan of a legacy Accepted/Implemented RFD; nothing else changes."""
    file = ws.find(query)
    rid = str(file.rfd_id)
    doc = ws.document(file)
    if doc.status not in TRACKED:
        raise TransitionError(
            f"RFD {rid} is {doc.status.value}: `rfd track` takes an RFD that is "
            "Accepted or Implemented already",
            path=file.path,
            hint=NOT_ACCEPTED_HINT.format(id=rid),
        )
    plan_path = ws.rel(ws.store.path(rid, "plan.json"))
    if ws.store.read_plan(rid) is not None:
        raise AlreadyExists(
            f"RFD {rid} is tracked already: {plan_path} exists",
            path=file.path,
            hint=HAS_PLAN_HINT.format(id=rid, plan=plan_path),
        )
    found = plan.extract(doc)
    if not found.phases:
        raise InvalidStructure(
            f"no plan to extract: {found.problem}",
            path=file.path,
            line=found.line,
            hint=NO_PLAN_HINT.format(id=rid, how=plan.syntax_of(file.path).how_to_write()),
        )
    path = ws.store.write_plan(rid, found.phases)
    labels = ", ".join(phase_ids.labels(found.phases))
    message = (
        f"RFD {rid} is tracked: {plan_path} holds its {len(found.phases)} phases ({labels}); "
        f"commit it, then record each with `rfd phase {rid} done <label>`"
    )
    return TrackOutcome(rid, found.phases, path, message)
