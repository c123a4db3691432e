"""The display records of ``rfd status`` (:class:`StatusView`: its lines, reviews, phases
and next actions; :mod:`bot.lifecycle.render` builds them) and their plain text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Action:
    command: str
    description: str


@dataclass(frozen=True)
class PhaseLine:
    number: int
    """Position in the plan (1-based)."""
    title: str
    done: bool
    summary: str | None
    label: str = ""
    """How users name the phase (``3a``); see ``bot.model.phase_ids``."""
    optional: bool = False
    """``(optional)``/``(deferred)``: shown, ticked when recorded, never blocking."""


@dataclass(frozen=True)
class StatusView:
    rfd_id: str
    title: str
    path: str
    status: str
    stage: str  # authoring | review | implementation | final
    lines: tuple[tuple[str, str], ...]
    reviews: tuple[str, ...] = ()
    phases: tuple[PhaseLine, ...] = ()
    actions: tuple[Action, ...] = ()
    problems: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def heading(self) -> str:
        """``RFD 045: Title``, or ``Proposal my-feature: Title`` (an unnumbered RFC)."""
        kind = "Proposal" if self.status == "proposal" else "RFD"
        return f"{kind} {self.rfd_id}: {self.title}"


def to_text(view: StatusView) -> str:
    out = [view.heading, f"{view.path}", ""]
    width = max(len(k) for k, _ in view.lines) + 1
    out += [f"{k + ':':<{width}} {v}" for k, v in view.lines]
    out += [f"  {r}" for r in view.reviews]
    if view.phases and view.stage != "final":
        out += [
            f"  [{'x' if p.done else ' '}] {p.label or p.number}. {p.title}"
            + (f" ({p.summary})" if p.summary else "")
            for p in view.phases
        ]
    out += [f"! {p}" for p in view.problems]
    if view.actions:
        cw = max(len(a.command) for a in view.actions) + 3
        out += ["", "Actions:"] + [f"  {a.command:<{cw}}{a.description}" for a in view.actions]
    return "\n".join(out)
