"""The statuses of the RFDs one RFD requires: what the promotion gates compare (kept apart
from :mod:`bot.lifecycle.lifecycle` so that ``rfd status`` asks it without importing the
promotions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document
    from bot.model.ids import RfdId
    from bot.model.status import Status


def requires_statuses(ws: Workspace, doc: Document) -> dict[RfdId, Status | None]:
    """The status of each RFD this one Requires — and Extends, when ``[process]
    extends_gates`` — (None when it does not exist or is broken)."""
    out: dict[RfdId, Status | None] = {}
    by_id = {f.rfd_id: f for f in ws.files()}
    keys = ("Requires", "Extends") if ws.config.process.extends_gates else ("Requires",)
    for rid in dict.fromkeys(r for key in keys for r in doc.links(key)):
        file = by_id.get(rid)
        try:
            out[rid] = ws.document(file).status if file else None
        except Exception:  # a broken target counts as missing; lint reports it
            out[rid] = None
    return out
