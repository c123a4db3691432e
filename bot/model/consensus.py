"""People decide: sign-offs, concerns and a final comment period, as pure records, and
which of them count.

A :class:`Ledger` is what ``consensus.json`` in an RFD's state directory holds: who
approved at which revision (the RFD file's git blob sha), numbered concerns and who
resolved them, the final comment period, and once decided who accepted the RFD with
whose sign-offs (:class:`Acceptance`).  The operations return a new ledger
or raise a :class:`~bot.core.errors.ValidationError` saying why the step cannot be taken;
:mod:`bot.lifecycle.consensus_gate` decides what acceptance still needs.

Which entries count: ``consensus.json`` on a pull request's branch is a file anyone who
can push to the branch can edit.  What counts is the ledger the default branch has
(maintainers merged it) changed only by the bot's own commits on the branch, the ones it
can prove it made (:mod:`bot.github.bot_records`): each such commit adds what it changed
between its parent's ledger and its own.  Whatever else the branch's ledger holds (an
approval, a concern marked resolved, a final comment period, or a concern taken out) was
written by hand and is *forged*: it is left out, and the bot names it.  After a rebase, a
squash or a force-push the bot's commits the branch lost still count: a branch commit that
copies one exactly stands for it, and one nothing copies counts as the bot made it
(:func:`in_place`).  Pure functions.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.core.errors import ParseError, ValidationError

FILE = "consensus.json"
"""The ledger's file, inside the RFD's state directory."""

DAY = 86_400

ALREADY_APPROVED = "{login} already approved RFD {rfd} at this revision"
NO_CONCERN = "RFD {rfd} has no concern {number}"
ALREADY_RESOLVED = "concern {number} of RFD {rfd} was already resolved by {login}"
EMPTY_CONCERN = "a concern needs a text saying what blocks the RFD"
FCP_RUNNING = "RFD {rfd}'s final comment period is already running (until {end})"


def revision(text: str) -> str:
    """The git blob sha of an RFD file's text: the revision an approval is of."""
    data = text.encode("utf-8")
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def same_login(a: str, b: str) -> bool:
    return a.strip().lstrip("@").lower() == b.strip().lstrip("@").lower()


@dataclass(frozen=True)
class Approval:
    login: str
    revision: str
    at: float
    reviewer: str = ""
    """The ``consensus.reviewers`` entry it counts for: the login, or the team it is in."""


@dataclass(frozen=True)
class Concern:
    number: int
    author: str
    text: str
    link: str = ""
    at: float = 0.0
    resolved_by: str = ""

    @property
    def open(self) -> bool:
        return not self.resolved_by


@dataclass(frozen=True)
class Fcp:
    """A final comment period: started by ``by`` at ``start``, ending at ``end``; a concern
    raised during it pauses it (``paused``) until a reviewer starts it again."""

    by: str
    start: float
    end: float
    paused: bool = False

    def elapsed(self, now: float) -> bool:
        return not self.paused and now >= self.end


@dataclass(frozen=True)
class Acceptance:
    """The decision: who accepted the RFD (the event's verified actor), when, with the
    sign-offs that counted, and the RFD's content as accepted (a git blob: the commit that
    brought it is the accept commit, a page GitHub shows)."""

    by: str
    revision: str
    at: float
    signers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ledger:
    approvals: tuple[Approval, ...] = ()
    concerns: tuple[Concern, ...] = ()
    fcp: Fcp | None = None
    accepted: Acceptance | None = None

    @property
    def open_concerns(self) -> tuple[Concern, ...]:
        return tuple(c for c in self.concerns if c.open)

    def approval_of(self, login: str) -> Approval | None:
        return next((a for a in self.approvals if same_login(a.login, login)), None)


def approve(
    ledger: Ledger, rfd: str, login: str, rev: str, now: float, *, reviewer: str = ""
) -> Ledger:
    """``login`` (as ``reviewer``, the entry of the list it counts for) agrees with revision
    ``rev``; an approval of an older revision is renewed."""
    earlier = ledger.approval_of(login)
    if earlier is not None and earlier.revision == rev:
        raise ValidationError(ALREADY_APPROVED.format(login=login, rfd=rfd))
    others = tuple(a for a in ledger.approvals if a is not earlier)
    return replace(ledger, approvals=(*others, Approval(login, rev, now, reviewer or login)))


def raise_concern(ledger: Ledger, login: str, text: str, link: str, now: float) -> Ledger:
    """A new numbered concern; it pauses a running final comment period."""
    text = " ".join(text.split())
    if not text:
        raise ValidationError(EMPTY_CONCERN, hint='write it after the command: concern "why"')
    number = max((c.number for c in ledger.concerns), default=0) + 1
    fcp = ledger.fcp
    if fcp is not None and not fcp.elapsed(now):
        fcp = replace(fcp, paused=True)
    concern = Concern(number, login, text, link, now)
    return replace(ledger, concerns=(*ledger.concerns, concern), fcp=fcp)


def resolve(ledger: Ledger, rfd: str, number: int, login: str) -> Ledger:
    """Concern ``number`` resolved by ``login`` (who may do it is the caller's decision)."""
    found = next((c for c in ledger.concerns if c.number == number), None)
    if found is None:
        numbers = ", ".join(str(c.number) for c in ledger.open_concerns) or "none open"
        raise ValidationError(NO_CONCERN.format(rfd=rfd, number=number), hint=f"open: {numbers}")
    if not found.open:
        raise ValidationError(
            ALREADY_RESOLVED.format(number=number, rfd=rfd, login=found.resolved_by)
        )
    done = replace(found, resolved_by=login)
    return replace(ledger, concerns=tuple(done if c is found else c for c in ledger.concerns))


def start_fcp(ledger: Ledger, rfd: str, login: str, days: int, now: float) -> Ledger:
    """A final comment period of ``days`` from ``now`` (a paused one starts over)."""
    fcp = ledger.fcp
    if fcp is not None and not fcp.paused and not fcp.elapsed(now):
        raise ValidationError(FCP_RUNNING.format(rfd=rfd, end=day(fcp.end)))
    return replace(ledger, fcp=Fcp(login, now, now + days * DAY))


def accept(ledger: Ledger, by: str, rev: str, now: float, signers: Iterable[str]) -> Ledger:
    """The RFD accepted by ``by`` at its content ``rev``, with the sign-offs of ``signers``."""
    return replace(ledger, accepted=Acceptance(by, rev, now, tuple(signers)))


def day(stamp: float) -> str:
    """A date as the status shows it (UTC)."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


# --------------------------------------------------------------------------- the file


def dumps(ledger: Ledger) -> str:
    data = {
        "approvals": [vars(a) for a in ledger.approvals],
        "concerns": [vars(c) for c in ledger.concerns],
        "fcp": vars(ledger.fcp) if ledger.fcp else None,
    }
    if ledger.accepted is not None:  # written once decided: earlier ledgers keep their bytes
        data["accepted"] = {**vars(ledger.accepted), "signers": list(ledger.accepted.signers)}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def loads(text: str, path: str) -> Ledger:
    """The ledger of ``consensus.json``; ParseError naming the file and what is wrong."""
    try:
        data = json.loads(text)
        approvals = tuple(_record(Approval, a) for a in data["approvals"])
        concerns = tuple(_record(Concern, c) for c in data["concerns"])
        fcp = _record(Fcp, data["fcp"]) if data.get("fcp") is not None else None
        accepted = _acceptance(data["accepted"]) if data.get("accepted") is not None else None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ParseError(
            f"is not a consensus ledger: {exc}",
            path=path,
            hint="restore it from git (`git checkout -- <file>`): it records who signed off",
        ) from exc
    return Ledger(approvals, concerns, fcp, accepted)


def _acceptance(data: Any) -> Acceptance:
    found: Acceptance = _record(
        Acceptance, {**data, "signers": ()} if isinstance(data, dict) else data
    )
    signers = data.get("signers", [])
    if not isinstance(signers, list) or not all(isinstance(s, str) for s in signers):
        raise TypeError(f"acceptance.signers must be a list of logins, not {signers!r}")
    return replace(found, signers=tuple(signers))


_TYPES: dict[str, type | tuple[type, ...]] = {
    "str": str,
    "float": (int, float),
    "int": int,
    "bool": bool,
    "tuple[str, ...]": tuple,
}


def _record(cls: Any, data: Any) -> Any:
    name = cls.__name__.lower()
    if not isinstance(data, dict):
        raise TypeError(f"{name} entries must be objects, not {data!r}")
    for f in fields(cls):
        if f.name in data and not isinstance(data[f.name], _TYPES[str(f.type)]):
            raise TypeError(f"{name}.{f.name} must be {f.type}, not {data[f.name]!r}")
    return cls(**data)


FORGED_APPROVAL = "an approval by {login}"
FORGED_CONCERN = "concern {number} as written"
REMOVED_CONCERN = "concern {number} taken out"
FORGED_FCP = "a final comment period"
FORGED_ACCEPTANCE = "an acceptance"


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
    accepted = after.accepted if after.accepted != before.accepted else ledger.accepted
    return replace(ledger, approvals=tuple(approvals), concerns=ordered, fcp=fcp, accepted=accepted)


def in_place(
    branch: Sequence[tuple[str, bool]],
    olds: Sequence[str],
    kept: Collection[str],
    change: Callable[[str], str],
) -> list[tuple[str, bool]]:
    """The branch's commits ``(sha, proven)`` with the bot's commits it no longer has
    (``olds``, oldest first: a rebase, a squash or a force-push replaced them) put back.  An
    unproven commit whose ``change`` is exactly an old's (``git rebase``'s copy) is replaced
    by that old, proven.  The olds no commit copies, those of them in ``kept``, count as the
    bot made them: before the first copy of a later old, else after the branch's commits."""
    left = list(olds)
    out: list[tuple[str, bool]] = []
    for sha, proven in branch:
        made = change(sha) if left and not proven else None
        copied = next((old for old in left if change(old) == made), None) if made else None
        if copied is None:
            out.append((sha, proven))
            continue
        at = left.index(copied)
        out += [(old, True) for old in left[:at] if old in kept] + [(copied, True)]
        left = left[at + 1 :]
    return out + [(old, True) for old in left if old in kept]


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
    if head.accepted is not None and head.accepted != counted.accepted:
        found.append(FORGED_ACCEPTANCE)
    return tuple(found)
