"""Whether an RFD can be accepted now: the one check ``rfd accept`` makes before it writes
and ``rfd status`` makes before it offers ``rfd accept`` (so it never offers a refusal)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import RfdError, TransitionError
from bot.model.status import Status, check_gates

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document


def _check_status(ws: Workspace, path: str, doc: Document) -> None:
    """Draft or Discussion, and the RFDs it requires accepted."""
    from bot.lifecycle.requires import requires_statuses

    if doc.status not in (Status.DRAFT, Status.DISCUSSION):
        hint = (
            f"it is already {doc.status.value}; see `rfd status {doc.rfd_id}`"
            if doc.status is not Status.ABANDONED
            else "an abandoned RFD cannot be accepted"
        )
        raise TransitionError(
            f"RFD {doc.rfd_id} is {doc.status.value}: only Draft or Discussion RFDs are accepted",
            path=path,
            hint=hint,
        )
    check_gates(Status.ACCEPTED, requires_statuses(ws, doc), path=path)


def untracked(ws: Workspace, doc: Document) -> bool:
    """Accepted, with no ``plan.json``: accepted by hand (before rfd-bot, or its Status
    line edited), its plan never extracted — ``rfd accept`` takes it on as it is
    (:func:`bot.lifecycle.accept.accepted_before`)."""
    rid = str(doc.rfd_id)
    return doc.status is Status.ACCEPTED and ws.store.read_text(rid, "plan.json") is None


def check_acceptable(ws: Workspace, path: str, doc: Document) -> None:
    """Everything accept checks before it writes: the status, the Requires gate and the
    sign-offs ``[consensus]`` asks for."""
    _check_status(ws, path, doc)
    _check_signed_off(ws, path, doc)


def _check_signed_off(ws: Workspace, path: str, doc: Document) -> None:
    if ws.config.consensus.enabled:
        from bot.lifecycle.signoff import check_signed_off

        check_signed_off(ws, str(doc.rfd_id), path)


@dataclass(frozen=True)
class Refusal:
    """Why ``rfd accept`` would refuse now."""

    error: RfdError
    signoffs: bool
    """The sign-offs are what is missing (the Decision block says which)."""


def refusal(ws: Workspace, path: str, doc: Document) -> Refusal | None:
    """What ``rfd accept`` would answer now if it refused, None when it would accept (an
    RFD Accepted by hand without ``plan.json`` is taken on as it is: nothing to refuse)."""
    if untracked(ws, doc):
        return None
    for check, signoffs in ((_check_status, False), (_check_signed_off, True)):
        try:
            check(ws, path, doc)
        except RfdError as err:
            return Refusal(err, signoffs)
    return None
