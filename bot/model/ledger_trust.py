"""Which entries of a sign-off ledger count: those the bot can show came through GitHub.

``consensus.json`` on a pull request's branch is a file anyone who can push to the
branch can edit.  What counts is the ledger the default branch has (maintainers merged
it) changed only by the bot's own commits on the branch, the ones it can prove it made
(:mod:`bot.github.bot_records`): each such commit adds what it changed between its
parent's ledger and its own.  Whatever else the branch's ledger holds (an approval, a
concern marked resolved, a final comment period, or a concern taken out) was written by
hand and is *forged*: it is left out, and the bot names it.  Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.model.consensus import Ledger, same_login

FORGED_APPROVAL = "an approval by {login}"
FORGED_CONCERN = "concern {number} as written"
REMOVED_CONCERN = "concern {number} taken out"
FORGED_FCP = "a final comment period"


@dataclass(frozen=True)
class Step:
    """One commit that changed the ledger: its ledger before and after, and whether the bot
    can prove it made it."""

    before: Ledger
    after: Ledger
    proven: bool


def trusted(base: Ledger, steps: Iterable[Step]) -> Ledger:
    """``base`` changed by the proven ``steps`` only, in order."""
    ledger = base
    for step in steps:
        if step.proven:
            ledger = _applied(ledger, step.before, step.after)
    return ledger


def _applied(ledger: Ledger, before: Ledger, after: Ledger) -> Ledger:
    approvals = list(ledger.approvals)
    for new in (a for a in after.approvals if a not in before.approvals):
        approvals = [a for a in approvals if not same_login(a.login, new.login)] + [new]
    concerns = {c.number: c for c in ledger.concerns}
    old = {c.number: c for c in before.concerns}
    for concern in after.concerns:
        if old.get(concern.number) != concern:
            concerns[concern.number] = concern
    fcp = after.fcp if after.fcp != before.fcp else ledger.fcp
    ordered = tuple(concerns[n] for n in sorted(concerns))
    return replace(ledger, approvals=tuple(approvals), concerns=ordered, fcp=fcp)


def forged(head: Ledger, counted: Ledger) -> tuple[str, ...]:
    """What ``head`` (the branch's ledger) holds that ``counted`` does not, in words."""
    found = [
        FORGED_APPROVAL.format(login=a.login) for a in head.approvals if a not in counted.approvals
    ]
    mine = {c.number: c for c in counted.concerns}
    theirs = {c.number: c for c in head.concerns}
    found += [FORGED_CONCERN.format(number=n) for n, c in theirs.items() if mine.get(n) != c]
    found += [REMOVED_CONCERN.format(number=n) for n in mine if n not in theirs]
    if head.fcp is not None and head.fcp != counted.fcp:
        found.append(FORGED_FCP)
    return tuple(found)
