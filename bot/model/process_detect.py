"""The process rules a repository's history shows, for ``rfd adopt`` to write into
``[process]`` with the evidence of each.  Pure: the caller gathers the facts (git
history, the RFDs as they are); this module only judges them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.core.text import plural
from bot.model.status import Status

FIRST_STATUSES = (Status.DRAFT, Status.DISCUSSION)


class RfdFacts(NamedTuple):
    """One RFD as it is now."""

    status: Status
    has_plan: bool
    """``plan.json``, or an Implementation Plan that gives one."""
    has_phases: bool
    """Any ``phases/<label>.md`` recorded."""
    extends_behind: bool
    """It is Accepted/Implemented and Extends an RFD that is not as far along."""


class History(NamedTuple):
    added_as: Sequence[Status]
    """The status each RFD file had in the commit that added it."""
    published_deleted: Sequence[str]
    """Published RFD files that a commit deleted."""


class Setting(NamedTuple):
    key: str
    value: bool | tuple[str, ...]
    evidence: str

    def toml(self) -> str:
        if isinstance(self.value, bool):
            shown = "true" if self.value else "false"
        else:
            shown = "[" + ", ".join(f'"{v}"' for v in self.value) + "]"
        return f"{self.key} = {shown}  # {self.evidence}"


def detect(rfds: Sequence[RfdFacts], history: History) -> list[Setting]:
    """Each ``[process]`` setting with what shows it; strict where nothing shows otherwise."""
    return [
        _new_statuses(history),
        _phases(rfds),
        _plans(rfds),
        _extends(rfds),
        _deletions(history),
    ]


def render(settings: Sequence[Setting]) -> str:
    """The ``[process]`` table, one commented line per setting."""
    lines = ["[process]  # detected by `rfd adopt` from the repository's history"]
    return "\n".join(lines + [s.toml() for s in settings]) + "\n"


def _new_statuses(history: History) -> Setting:
    seen = set(history.added_as)
    extra = [s for s in (Status.ACCEPTED, Status.IMPLEMENTED) if s in seen]
    words = tuple(s.value for s in (*FIRST_STATUSES, *extra))
    if not extra:
        return Setting(
            "new_statuses",
            words,
            f"none of {plural(len(history.added_as), 'RFD')} was added as Accepted or Implemented",
        )
    counts = ", ".join(f"{sum(1 for a in history.added_as if a is s)} as {s.value}" for s in extra)
    return Setting("new_statuses", words, f"RFDs were added {counts}")


def _phases(rfds: Sequence[RfdFacts]) -> Setting:
    done = [r for r in rfds if r.status is Status.IMPLEMENTED]
    without = sum(1 for r in done if not r.has_phases)
    evidence = f"Implemented RFDs without recorded phases: {without} of {len(done)}"
    return Setting("implemented_needs_phases", not without, evidence)


def _plans(rfds: Sequence[RfdFacts]) -> Setting:
    taken = [r for r in rfds if r.status in (Status.ACCEPTED, Status.IMPLEMENTED)]
    without = sum(1 for r in taken if not r.has_plan)
    evidence = f"Accepted/Implemented RFDs without a plan: {without} of {len(taken)}"
    return Setting("accepted_needs_plan", not without, evidence)


def _extends(rfds: Sequence[RfdFacts]) -> Setting:
    behind = sum(1 for r in rfds if r.extends_behind)
    evidence = f"accepted RFDs that Extend one not as far along: {behind}"
    return Setting("extends_gates", not behind, evidence)


def _deletions(history: History) -> Setting:
    gone = history.published_deleted
    names = ", ".join(sorted(gone)[:3]) + (" …" if len(gone) > 3 else "")
    evidence = f"{plural(len(gone), 'published RFD')} deleted" + (f" ({names})" if gone else "")
    return Setting("delete_published", bool(gone), evidence)
