"""The RFDs that depend on one (``Requires``/``Extends`` it): what ``rfd abandon`` warns about.

An RFD that requires an abandoned one cannot be accepted any more (the Requires gate), and
one that extends it extends nothing alive: their authors have a decision to make.  RFDs
that are themselves Abandoned or Superseded are left out (nothing is waiting on them).
"""

from __future__ import annotations

from typing import NamedTuple

from bot.core.errors import RfdError
from bot.lifecycle.workspace import Workspace
from bot.model.status import Status

DEPENDENT_KEYS = {"Requires": "requires", "Extends": "extends"}
SETTLED = (Status.ABANDONED, Status.SUPERSEDED)
WARNING = "RFD {other} ({status}, {path}) {verb} RFD {rfd}, now {new}: revise it or abandon it too"


class Dependent(NamedTuple):
    rfd_id: str
    path: str
    status: Status
    verb: str
    """``requires`` or ``extends`` (both when it does both: ``requires and extends``)."""

    def warning(self, rfd_id: str, new: Status) -> str:
        return WARNING.format(
            other=self.rfd_id,
            status=self.status.value,
            path=self.path,
            verb=self.verb,
            rfd=rfd_id,
            new=new.value,
        )


def dependents(ws: Workspace, rfd_id: str) -> list[Dependent]:
    """The live RFDs whose ``Requires`` or ``Extends`` name ``rfd_id``, in id order."""
    target = ws.find(rfd_id).rfd_id
    found = []
    for file in sorted(ws.files(), key=lambda f: (f.rfd_id.draft, f.rfd_id.number)):
        try:
            doc = ws.document(file)
        except RfdError:
            continue  # a broken RFD: `rfd lint` reports it
        verbs = [verb for key, verb in DEPENDENT_KEYS.items() if target in doc.links(key)]
        if verbs and doc.status not in SETTLED and file.rfd_id != target:
            found.append(Dependent(str(file.rfd_id), file.path, doc.status, " and ".join(verbs)))
    return found
