"""The state directory's gates of a status change (the document's own gates — the
transition and Requires — are ``bot.model.status``'s).

→ Accepted needs ``plan.json`` with at least one phase; → Implemented needs a summary for
every phase that is not ``(optional)``/``(deferred)``, and never passes on an empty plan —
unless ``[process] accepted_needs_plan`` is off: an RFD accepted without a plan has no phase
to record.  ``[process] accepted_needs_plan`` / ``implemented_needs_phases`` turn these off.
"""

from __future__ import annotations

from bot.config.discovery import RfdFile
from bot.core.errors import GateError
from bot.lifecycle.workspace import Workspace
from bot.model import phase_ids
from bot.model.plan import syntax_of as plan_syntax
from bot.model.status import Status


def check(ws: Workspace, file: RfdFile, target: Status) -> None:
    """GateError unless the state directory lets ``file`` move to ``target``."""
    rid = str(file.rfd_id)
    process = ws.config.process
    if target is Status.ACCEPTED and not process.accepted_needs_plan:
        return
    if target is Status.IMPLEMENTED and not process.implemented_needs_phases:
        return  # no phases recorded: no plan needed either
    if target not in (Status.ACCEPTED, Status.IMPLEMENTED):
        return
    plan = ws.store.read_plan(rid)
    if plan is None:
        hint = f"run `rfd accept {rid}`: it extracts the plan, then promotes"
        if target is Status.IMPLEMENTED:
            hint = f"see what its Implementation Plan gives with `rfd plan {rid}` and save it as "
            hint += ws.rel(ws.store.path(rid, "plan.json"))
        raise GateError(
            f"RFD {rid} has no extracted plan, so it cannot become {target.value}",
            path=file.path,
            hint=hint,
        )
    if not plan and target is Status.IMPLEMENTED and not process.accepted_needs_plan:
        return  # accepted without a plan, as the process allows: no phase to record
    if not plan:
        raise GateError(
            f"RFD {rid}'s plan ({ws.rel(ws.store.path(rid, 'plan.json'))}) has no phases, "
            f"so it cannot become {target.value}",
            path=file.path,
            hint=f"add {plan_syntax(file.path).phase} headings to its Implementation Plan, "
            f"check them with `rfd plan {rid}`, then copy them into plan.json (or delete "
            f"plan.json and run `rfd accept {rid}`)",
        )
    if target is Status.IMPLEMENTED:
        missing = phase_ids.missing(plan, ws.store.done_phases(rid, plan))
        if missing:
            names = ", ".join(
                f"{phase_ids.label(plan[i - 1], i)}. {plan[i - 1].title}" for i in missing
            )
            raise GateError(
                f"RFD {rid} still has phases to do: {names}",
                path=file.path,
                hint=f"record each: `rfd phase {rid} done <label> --summary FILE` "
                "(or `rfd implement`); (optional) and (deferred) phases need not be done",
            )
