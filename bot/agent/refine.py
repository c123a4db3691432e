"""Refine an RFD with the rule of five (seed 004).

Pass 1 applies every active review; passes 2–5 each look at the document with one
focus (completeness, correctness, edge cases, then scope and clarity together; with no
review to apply, passes 1–5 take the five focuses one by one).  Each pass is one model
call answered with ``submit_revision`` (:mod:`bot.agent.revision`), on the prefix review
and accept share; the pass applies the sections it proposes with ``rfd_section`` semantics.
The loop stops when the model answers ``CONVERGED``, after two passes in a row that
change nothing, when a pass brings the document back to what it was two passes
earlier (oscillation), or after five passes.  A provider
failure, a timeout or Ctrl-C mid-loop keeps every section already written and says
so (the result's ``warning``); a pass that takes the step over its budget
(``steps.refine.budget_*``) ends the loop the same way, as cleanly as the cap.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.agent.context import Step
from bot.agent.files import unified_diff
from bot.agent.revision import Asked, revise
from bot.agent.session import Session
from bot.ai.answers import MAX_PASSES
from bot.core.atomic import read_exact
from bot.core.errors import BudgetExceeded, ProviderError, RfdError, ValidationError
from bot.events import Notice
from bot.llm.base import Usage
from bot.llm.guard import Meter, require_input
from bot.model import document

CONVERGED = re.compile(r"^\W*CONVERGED\b", re.MULTILINE)
"""The model's way to say it has nothing left to change (a line starting with it)."""
PARTIAL = "pass {n} failed ({error}); the changes of the earlier passes are kept"
OVER_BUDGET = (
    "{reached} during pass {n}; every section written before is kept; "
    "raise steps.refine.budget_tokens / budget_usd (0: no limit) to let refine go further"
)


class Focus(enum.Enum):
    """What one pass looks at (values are the ``refine_pass`` template's focus keys)."""

    REVIEWS = "reviews"
    COMPLETENESS = "completeness"
    CORRECTNESS = "correctness"
    EDGE_CASES = "edge_cases"
    SCOPE = "scope"
    CLARITY = "clarity"
    SCOPE_AND_CLARITY = "scope_and_clarity"
    IMPLEMENTATION = "implementation"
    """An Accepted RFD: the one conversation that changes the code (bot.agent.refine_impl)."""


ROTATION = (Focus.COMPLETENESS, Focus.CORRECTNESS, Focus.EDGE_CASES, Focus.SCOPE, Focus.CLARITY)
AFTER_REVIEWS = (
    Focus.COMPLETENESS,
    Focus.CORRECTNESS,
    Focus.EDGE_CASES,
    Focus.SCOPE_AND_CLARITY,
)
"""When pass 1 applies the reviews, four passes are left for the five focuses: the last
one looks at scope and clarity together, so every focus is reached within the cap."""


class StopReason(enum.Enum):
    CONVERGED = "converged"
    UNCHANGED = "two passes without change"
    OSCILLATION = "oscillation"
    CAP = "pass limit"
    INTERRUPTED = "interrupted"
    BUDGET = "budget reached"


@dataclass(frozen=True)
class ReviewText:
    path: str
    text: str


@dataclass(frozen=True)
class RefinePass:
    number: int
    focus: Focus
    diff: str
    changed_sections: tuple[str, ...]
    reply: str
    usage: Usage


@dataclass(frozen=True)
class RefineResult:
    passes: tuple[RefinePass, ...]
    reviews: tuple[str, ...]
    """The reviews pass 1 applied (candidates for the dismiss prompt)."""
    stop: StopReason
    usage: Usage
    cost_usd: float = 0.0
    warning: str = ""

    @property
    def changed(self) -> bool:
        return any(p.diff for p in self.passes)

    @property
    def implementation(self) -> bool:
        """It changed the code of an Accepted RFD (its reviews are implementation reviews)."""
        return any(p.focus is Focus.IMPLEMENTATION for p in self.passes)


def focus_for(number: int, *, reviews: bool) -> Focus:
    """The focus of pass ``number`` (1-based)."""
    if reviews and number == 1:
        return Focus.REVIEWS
    rotation = AFTER_REVIEWS if reviews else ROTATION
    return rotation[(number - (2 if reviews else 1)) % len(rotation)]


def refine(
    session: Session, reviews: Sequence[ReviewText] = (), *, max_passes: int = MAX_PASSES
) -> RefineResult:
    """Run the rule-of-five loop on ``session.rfd_path``; the file is changed in place."""
    target = _rfd_file(session)
    meter = session.meter(Step.REFINE)
    history = [require_input(read_exact(target), f"RFD {session.rfd_path}")]
    passes: list[RefinePass] = []
    stop, warning = StopReason.CAP, ""
    for number in range(1, min(max_passes, MAX_PASSES) + 1):
        focus = focus_for(number, reviews=bool(reviews))
        try:
            reply, usage = _pass(session, meter, number, focus, reviews)
        except (ProviderError, TimeoutError, KeyboardInterrupt) as exc:
            reply, usage, stop = "", Usage(), StopReason.INTERRUPTED
            warning = PARTIAL.format(n=number, error=str(exc) or type(exc).__name__)
        except BudgetExceeded:
            reply, usage, stop = "", Usage(), StopReason.BUDGET
            warning = OVER_BUDGET.format(reached=meter.reached(), n=number)
        if warning:
            session.bus.emit(Notice(rfd_id=session.event_id, message=warning, level="warning"))
        after = read_exact(target)
        passes.append(_record(session, number, focus, history[-1], after, reply, usage))
        if stop in (StopReason.INTERRUPTED, StopReason.BUDGET):
            break
        found = _stop(reply, history, after, passes)
        history.append(after)
        if found is not None:
            stop = found
            break
    names = tuple(r.path for r in reviews)
    return RefineResult(tuple(passes), names, stop, meter.usage, meter.cost_usd, warning)


def _rfd_file(session: Session) -> Path:
    if not session.rfd_path:
        raise ValidationError("refine needs the RFD file")
    return session.tool_context().sandbox.resolve(session.rfd_path)


def _pass(
    session: Session,
    meter: Meter,
    number: int,
    focus: Focus,
    reviews: Sequence[ReviewText],
) -> tuple[str, Usage]:
    """One pass: the model's notes and its usage (the RFD file holds the result)."""
    item = f"refine pass {number} ({focus.value.replace('_', ' ')})"
    if focus is Focus.REVIEWS:
        variables: dict[str, object] = {"review_count": len(reviews), "max_passes": MAX_PASSES}
        asked = Asked("refine_pass1", variables, item)
    else:
        asked = Asked("refine_pass", {"pass_number": number, "focus": focus.value}, item)
    if number == 1:  # --edit steers the loop through its first pass (bot.ai.steer)
        asked = dataclasses.replace(asked, steer=session.steer)
    return revise(session, meter, asked, [(r.path, r.text) for r in reviews])


def _stop(
    reply: str, history: list[str], after: str, passes: list[RefinePass]
) -> StopReason | None:
    """Why the loop ends after this pass (``history`` holds the texts before it)."""
    if CONVERGED.search(reply):
        return StopReason.CONVERGED
    if after != history[-1] and len(history) >= 2 and after == history[-2]:
        return StopReason.OSCILLATION
    if len(passes) >= 2 and not passes[-1].diff and not passes[-2].diff:
        return StopReason.UNCHANGED
    return None


def _record(
    session: Session, number: int, focus: Focus, before: str, after: str, reply: str, usage: Usage
) -> RefinePass:
    path = session.rfd_path or ""
    diff = unified_diff(before, after, path)
    return RefinePass(number, focus, diff, changed_sections(before, after, path), reply, usage)


def changed_sections(before: str, after: str, path: str) -> tuple[str, ...]:
    """Titles of the sections whose body differs (added and removed ones included)."""
    old, new = _bodies(before, path), _bodies(after, path)
    titles = list(old) + [t for t in new if t not in old]
    return tuple(t for t in titles if old.get(t) != new.get(t))


def _bodies(text: str, path: str) -> dict[str, str]:
    try:
        doc = document.parse(text, path)
    except RfdError:
        return {}
    lines = text.splitlines()
    return {s.title: "\n".join(lines[s.start : s.end]) for s in doc.sections}
