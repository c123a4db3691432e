"""A command given where it does not work: the answer that links where it does.

Which place a comment is in (the RFD's pull request, open, merged or closed; its tracking
issue; a phase's pull request) and the links of the RFD's other places, read from the
delivery, the pull request's files, the default branch's checkout and, only when needed,
GitHub; :mod:`bot.github.places` says where each command works and writes the answer.
Nothing is read when the command works where it was given.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from bot.core.errors import RfdError
from bot.forge.base import PullRequest
from bot.forge.comments import marker
from bot.github.changed import changed_rfds
from bot.github.context import Context
from bot.github.places import WORKS, Link, Place, Where, answer, works
from bot.github.tracked import rfd_of_issue
from bot.github.verb_specs import Verb

PHASE_BRANCH = re.compile(r"^rfd/(?P<rid>\d{1,5})-phase-")
"""The branch of a phase's pull request (:data:`bot.github.implement_texts.BRANCH`)."""


def redirect(ctx: Context, verb: Verb, pr: PullRequest | None = None) -> str | None:
    """The answer sending ``/rfd verb`` to where it works, when the comment's place is not
    one (``pr``: the pull request it is on, None on an issue); None when it works here or
    the comment is on no place of an RFD (the usual answers say so)."""
    found = _place(ctx, pr)
    if found is None or works(verb, found[1]):
        return None
    rid, place = found
    return answer(verb, _where(ctx, verb, rid, place, pr))


def _place(ctx: Context, pr: PullRequest | None) -> tuple[str, Place] | None:
    """The RFD the comment is about and the place it is in (None: not an RFD's place)."""
    if pr is None:
        issue = ctx.delivery.payload.get("issue") or {}
        author = str((issue.get("user") or {}).get("login", ""))
        mine = ctx.forge.is_mine(author)
        rid = rfd_of_issue(str(issue.get("body") or "")) if mine else None
        return (rid, Place.TRACKING) if rid else None
    phase = PHASE_BRANCH.match(pr.head_ref)
    if phase is not None:
        return phase["rid"], Place.PHASE_PR
    changed = [c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg) if not c.removed]
    if not changed:
        return None
    rid = str(changed[0].file.rfd_id)
    return rid, _pr_place(pr)


def _pr_place(pr: PullRequest) -> Place:
    if pr.open:
        return Place.OPEN_PR
    return Place.MERGED_PR if pr.merged else Place.CLOSED_PR


def _where(ctx: Context, verb: Verb, rid: str, place: Place, pr: PullRequest | None) -> Where:
    """The links the answer needs (the tracking issue for the verbs that work there; the
    discussion, its state and the file on the default branch for the others)."""
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    branch = ctx.delivery.default_branch
    doc_issue, path = _on_default_branch(ctx, rid)
    tracking = _tracking(ctx, rid, place, doc_issue, web)
    if Place.TRACKING in WORKS[verb] and tracking is not None:
        return Where(rid, tracking=tracking, branch=branch)
    discussion, state = _discussion(ctx, place, pr, tracking, web)
    file_url = f"{web}/blob/{quote(branch)}/{quote(path)}" if path else None
    return Where(rid, discussion, state, tracking, file_url, branch)


def _on_default_branch(ctx: Context, rid: str) -> tuple[int | None, str | None]:
    """The RFD's tracking issue and path as the default branch's checkout has them."""
    from bot.config import discovery

    try:
        file = discovery.resolve(rid, discovery.scan(ctx.root, ctx.cfg))
        return discovery.read(ctx.root, file).tracking_issue, file.path
    except RfdError:
        return None, None


def _tracking(ctx: Context, rid: str, place: Place, number: int | None, web: str) -> Link | None:
    if place is Place.TRACKING:
        issue = ctx.delivery.payload["issue"]
        return Link(ctx.number, str(issue.get("html_url") or f"{web}/issues/{ctx.number}"))
    if number is not None:
        return Link(number, f"{web}/issues/{number}")
    found = ctx.forge.find_issue(marker("tracking", rid))
    return Link(found.number, found.url) if found is not None else None


DISCUSSED = r"Discussed in \[#(\d+)\]\({web}/pull/\1\)"


def _discussion(
    ctx: Context, place: Place, pr: PullRequest | None, tracking: Link | None, web: str
) -> tuple[Link | None, Place]:
    """The pull request the RFD was discussed in and its state: the comment's own, or the
    one its tracking issue names."""
    if pr is not None and place is not Place.PHASE_PR:
        return Link(pr.number, f"{web}/pull/{pr.number}"), place
    if tracking is None:
        return None, Place.MERGED_PR
    body = _issue_body(ctx, place, tracking)
    named = re.search(DISCUSSED.format(web=re.escape(web)), body)
    if named is None:
        return None, Place.MERGED_PR
    number = int(named[1])
    return Link(number, f"{web}/pull/{number}"), _pr_place(ctx.api.pull(number))


def _issue_body(ctx: Context, place: Place, tracking: Link) -> str:
    if place is Place.TRACKING:
        return str(ctx.delivery.payload["issue"].get("body") or "")
    return ctx.forge.get_issue(tracking.number).body


PHASE_STATUS = (
    "This is a pull request of a phase of RFD {rid}: where the RFD stands, and each phase, is "
    "on its tracking issue {issue} (`/rfd status` there lists the phases and the next step)."
)


def phase_status(ctx: Context, pr: PullRequest) -> str | None:
    """``/rfd status`` on a phase's pull request, which changes no RFD: the tracking issue,
    linked (None on any other pull request)."""
    phase = PHASE_BRANCH.match(pr.head_ref)
    if phase is None:
        return None
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    number, _ = _on_default_branch(ctx, phase["rid"])
    tracking = _tracking(ctx, phase["rid"], Place.PHASE_PR, number, web)
    return PHASE_STATUS.format(rid=phase["rid"], issue=tracking.md) if tracking else None
