"""The process rules of a repository (``[process]`` of ``.github/rfd.toml``), as the hooks
and the CLI's gates read them.  Strict by default; an adopting repository writes the rules
its history shows (``rfd adopt``).  Imports nothing heavy: the hooks read it on every commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from bot.model.status import Status


class Process(NamedTuple):
    implemented_needs_phases: bool = True
    """Implemented needs every phase of the plan recorded."""
    accepted_needs_plan: bool = True
    """Accepted needs a plan (``plan.json`` or one to extract)."""
    new_statuses: tuple[Status, ...] = (Status.DRAFT, Status.DISCUSSION)
    """Statuses a new RFD may be added with."""
    extends_gates: bool = True
    """Extends gates Accepted/Implemented as Requires does."""
    delete_published: bool = False
    """A published RFD may be deleted."""

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> Process:
        """From ``[process]`` as TOML data, or :class:`bot.config.schema.ProcessSection`'s
        fields (both validated already)."""
        values = dict(table)
        if "new_statuses" in values:
            values["new_statuses"] = tuple(Status(word) for word in values["new_statuses"])
        return cls(**values)

    def gating_keys(self) -> tuple[str, ...]:
        """The header fields whose RFDs gate a promotion."""
        return ("Requires", "Extends") if self.extends_gates else ("Requires",)
