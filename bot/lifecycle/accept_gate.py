"""Whether an RFD can be accepted now: the one check ``rfd accept`` makes before it writes
and ``rfd status`` makes before it offers ``rfd accept`` (so it never offers a refusal)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import GateError, RfdError, TransitionError
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


UNSIGNED = (
    "RFD {rid} is Accepted, but neither the adoption baseline nor its consensus record says "
    "it was accepted: `[consensus]` asks for sign-offs before an RFD is accepted"
)
UNSIGNED_HINT = (
    "set its Status back to Discussion, then run `rfd accept {rid}` once it is signed off "
    "(`rfd status {rid}` shows who may)"
)


def check_decided_before(ws: Workspace, doc: Document, path: str) -> None:
    """With ``[consensus]``, only an RFD accepted before adoption (the baseline records it
    Accepted) or by the bot (its ledger records the acceptance) is taken on: one whose
    Status line was edited since would skip the sign-offs."""
    if not ws.config.consensus.enabled:
        return
    from bot.lifecycle.lint_corpus import read_baseline

    rid = str(doc.rfd_id)
    baseline = read_baseline(ws.root, ws.config)
    adopted = doc.rfd_id is not None and baseline.grandfathers(doc.rfd_id, Status.ACCEPTED)
    if adopted or ws.store.read_consensus(rid).accepted is not None:
        return
    raise GateError(UNSIGNED.format(rid=rid), path=path, hint=UNSIGNED_HINT.format(rid=rid))


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
    if untracked(ws, doc):  # taken on as it is, when nothing its acceptance asked is skipped
        try:
            check_decided_before(ws, doc, path)
        except RfdError as err:
            return Refusal(err, signoffs=False)
        return None
    for check, signoffs in ((_check_status, False), (_check_signed_off, True)):
        try:
            check(ws, path, doc)
        except RfdError as err:
            return Refusal(err, signoffs)
    return None
