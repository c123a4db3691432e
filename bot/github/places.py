"""Where each ``/rfd`` command works, and the answer that sends a command given elsewhere there.

One RFD lives in a few places on GitHub: its pull request (open, then merged or closed),
its tracking issue (opened at accept) and the pull requests of its phases (opened by
``/rfd implement``).  Each command works in some of them; anywhere else the answer names
the place where it works, as a link — never a dead end such as "changes no RFD".
Pure: the links come in a :class:`Where`, gathered by :mod:`bot.github.redirect`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from bot.github.verb_specs import Verb


class Place(enum.Enum):
    OPEN_PR = "the RFD's open pull request"
    MERGED_PR = "the RFD's merged pull request"
    CLOSED_PR = "the RFD's pull request closed without merging"
    TRACKING = "the RFD's tracking issue"
    PHASE_PR = "a phase's pull request"


ON_THE_PR = frozenset({Place.OPEN_PR})
EVERYWHERE = frozenset(Place)
WORKS: Mapping[Verb, frozenset[Place]] = {
    Verb.REVIEW: ON_THE_PR,
    Verb.REFINE: ON_THE_PR,
    Verb.DISMISS: ON_THE_PR,
    Verb.ACCEPT: ON_THE_PR,
    Verb.APPROVE: ON_THE_PR,
    Verb.CONCERN: ON_THE_PR,
    Verb.RESOLVE: ON_THE_PR,
    Verb.FCP: ON_THE_PR,
    # on the open pull request: the answer says to merge it first, then where to go on
    Verb.IMPLEMENT: frozenset({Place.TRACKING, Place.OPEN_PR}),
    Verb.DONE: frozenset({Place.TRACKING, Place.OPEN_PR}),
    Verb.STATUS: EVERYWHERE,
    Verb.HELP: EVERYWHERE,
}
"""The places where each verb runs (it may still refuse there, saying why)."""


@dataclass(frozen=True)
class Link:
    number: int
    url: str

    @property
    def md(self) -> str:
        return f"[#{self.number}]({self.url})"


@dataclass(frozen=True)
class Where:
    """What is known of one RFD's places: the links an answer may give."""

    rid: str
    pr: Link | None = None
    """The pull request the RFD was discussed in."""
    pr_place: Place = Place.OPEN_PR
    """Its state: open, merged or closed."""
    tracking: Link | None = None
    file_url: str | None = None
    """The RFD's file on the default branch (once there)."""
    branch: str = "main"


GO_ISSUE = "`/rfd {verb}` for RFD {rid} works on its tracking issue: comment it on {issue}."
DONE_THERE = ", and the bot opens the pull request that marks the RFD Implemented"
NO_ISSUE_YET = (
    "RFD {rid} has no tracking issue yet: it is opened when the RFD is accepted{on}. "
    "`/rfd {verb}` works there afterwards."
)
GO_PR = "`/rfd {verb}` for RFD {rid} works on its pull request: comment it on {pr}."
REOPEN = (
    "RFD {rid}'s pull request {pr} is closed without merging: reopen it, then comment "
    "`/rfd {verb}` there."
)
MERGED = (
    "RFD {rid} was merged{pr} and lives on [on `{branch}`]({file}): `/rfd {verb}` works "
    "on an open pull request that changes it — open one that edits the file and comment it "
    "there.{issue}"
)
ITS_ISSUE = " Its implementation is followed on tracking issue {issue}."
NOWHERE = "`/rfd {verb}` works on {places}: RFD {rid} has none open now."


def works(verb: Verb, place: Place) -> bool:
    return place in WORKS[verb]


def answer(verb: Verb, where: Where) -> str:
    """Where ``/rfd verb`` works for the RFD of ``where``, said with a link (the command
    was given in a place where it does not)."""
    if Place.TRACKING in WORKS[verb]:
        return _to_issue(verb, where)
    return _to_pr(verb, where)


def _to_issue(verb: Verb, where: Where) -> str:
    if where.tracking is not None:
        said = GO_ISSUE.format(verb=verb.value, rid=where.rid, issue=where.tracking.md)
        return said.removesuffix(".") + DONE_THERE + "." if verb is Verb.DONE else said
    on = f" on {where.pr.md}" if where.pr is not None else ""
    return NO_ISSUE_YET.format(rid=where.rid, on=on, verb=verb.value)


def _to_pr(verb: Verb, where: Where) -> str:
    pr, rid = where.pr, where.rid
    if pr is not None and where.pr_place is Place.OPEN_PR:
        return GO_PR.format(verb=verb.value, rid=rid, pr=pr.md)
    if pr is not None and where.pr_place is Place.CLOSED_PR:
        return REOPEN.format(verb=verb.value, rid=rid, pr=pr.md)
    if where.file_url is not None:
        issue = ITS_ISSUE.format(issue=where.tracking.md) if where.tracking else ""
        merged_in = f" in {pr.md}" if pr is not None else ""
        return MERGED.format(
            rid=rid,
            pr=merged_in,
            branch=where.branch,
            file=where.file_url,
            verb=verb.value,
            issue=issue,
        )
    places = " or ".join(p.value for p in sorted(WORKS[verb], key=lambda p: p.name))
    return NOWHERE.format(verb=verb.value, places=places, rid=rid)
