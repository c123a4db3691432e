"""Where each ``/rfd`` command works, and the answer that links there when it is given
elsewhere.

One RFD lives in a few places on GitHub: its pull request (open, then merged or closed),
its tracking issue (opened at accept) and the pull requests of its phases (opened by
``/rfd implement``).  Each command works in some of them (:data:`WORKS`); anywhere else
the answer names the place where it works, as a link — never a dead end such as
"changes no RFD".

:func:`redirect` finds which place a comment is in and gathers the links of the RFD's
other places into a :class:`Where`, read from the delivery, the pull request's files,
the default branch's checkout and, only when needed, GitHub; nothing is read when the
command works where it was given.  Writing the answer from a :class:`Where`
(:func:`answer`) is pure.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from bot.core.errors import RfdError
from bot.core.github_markdown import inline
from bot.forge.base import PullRequest, marker
from bot.github.checkout import changed_rfds
from bot.github.commands import Verb
from bot.github.run import Context
from bot.github.tracked import rfd_of_issue
from bot.model.status import Status, named, said


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
    status: str | None = None
    """The RFD's status on the default branch (once there)."""
    word: str = ""
    """That status as the file there says it (``published``): answers say the repository's
    words (:func:`bot.model.status.said`)."""
    brought: Link | None = None
    """The pull request that brought it there, when its discussion pull request was closed
    without merging and the bot said which (on that pull request's status comment)."""
    on_pr: bool = False
    """The command was given on :attr:`pr` itself (the answer says "this pull request")."""
    decided: Link | None = None
    """The pull request the RFD was accepted on, as its tracking issue names it: read when
    the command is on :attr:`pr`, closed without merging, whose status comment names no
    :attr:`brought` (None when the tracking issue names :attr:`pr` itself)."""


GO_ISSUE = "`/rfd {verb}` for RFD {rid} works on its tracking issue: comment it on {issue}."
DONE_THERE = ", and the bot opens the pull request that marks the RFD {implemented}"
NO_ISSUE_YET = (
    "RFD {rid} has no tracking issue yet: it is opened when the RFD is accepted{on}. "
    "`/rfd {verb}` works there afterwards."
)
NO_ISSUE_CLOSED = (
    "RFD {rid} is not accepted: it has no tracking issue yet, which is opened when the RFD is "
    "accepted on an open pull request that changes it. {closed} — reopen it, then accept the "
    "RFD there. `/rfd {verb}` works on the tracking issue afterwards."
)
NO_ISSUE_CLOSED_ON_MAIN = (
    "RFD {rid} has no tracking issue yet: it is opened when the RFD is accepted on an open "
    "pull request that changes it. {closed}, but the RFD reached "
    "[`{branch}`]({file}) {how}: open a pull request that edits the file and accept the RFD "
    "there. `/rfd {verb}` works on the tracking issue afterwards."
)
"""``/rfd implement`` and ``/rfd done`` on a pull request closed without merging whose RFD
has no tracking issue: the closed pull request is no longer where it is accepted."""
NO_ISSUE_MERGED = (
    "RFD {rid} has no tracking issue yet: it is opened when the RFD is accepted on an open "
    "pull request that changes it. {merged}, and the RFD's status on [`{branch}`]({file}) is "
    "{status}: open a pull request that edits the file and accept the RFD there. "
    "`/rfd {verb}` works on the tracking issue afterwards."
)
"""... on a merged pull request whose RFD was never accepted: a new pull request is where."""
NO_ISSUE_BY_HAND = (
    "RFD {rid} is {status} on [`{branch}`]({file}) but has no tracking issue: it was accepted "
    "without the bot. **Next step:** open a pull request that edits the file and comment "
    "`/rfd accept` there: the bot extracts the RFD's plan and opens its tracking issue (the "
    "status stays {word}). `/rfd {verb}` works on the tracking issue afterwards."
)
"""The RFD is Accepted on the default branch with no tracking issue, wherever the command
was given: accepted by hand (before the bot, or its Status line edited)."""
MERGED_HERE = "This pull request was merged"
MERGED_THERE = "RFD {rid}'s pull request {pr} was merged"
GO_PR = "`/rfd {verb}` for RFD {rid} works on its pull request: comment it on {pr}."
REOPEN = (
    "RFD {rid}'s pull request {pr} is closed without merging: reopen it, then comment "
    "`/rfd {verb}` there."
)
REOPEN_HERE = (
    "This pull request was closed without merging, and RFD {rid} is not on `{branch}`: reopen "
    "this pull request, then comment `/rfd {verb}` again."
)
"""Said on the closed pull request itself, the only place its RFD lives."""
MERGED = (
    "RFD {rid} was merged{pr} and lives on [on `{branch}`]({file}): `/rfd {verb}` works "
    "on an open pull request that changes it — open one that edits the file and comment it "
    "there.{issue}"
)
ITS_ISSUE = " Its implementation is followed on tracking issue {issue}."
CLOSED_ON_MAIN = (
    "{closed}, but the RFD reached "
    "[`{branch}`]({file}) {how}, and its status there is {status}: `/rfd {verb}` works on an "
    "open pull request that changes it — open one that edits the file and comment it "
    "there.{issue}"
)
"""A closed discussion pull request whose RFD is on the default branch: reopening it is
not the way on (its branch is behind the RFD there)."""
CLOSED_HERE = "This pull request {was} closed without merging"
CLOSED_THERE = "RFD {rid}'s pull request {pr} {was} closed without merging"
"""The closed discussion pull request, named from itself or from elsewhere."""
THROUGH = "through {pr}"
ANOTHER_WAY = "another way"
DECIDED = "another way (it was accepted on {pr})"
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
        go = GO_ISSUE.format(verb=verb.value, rid=where.rid, issue=where.tracking.md)
        there = DONE_THERE.format(**stage_words(where.word))
        return go.removesuffix(".") + there + "." if verb is Verb.DONE else go
    pr = where.pr
    if where.file_url is not None and where.status == Status.ACCEPTED.value:
        return NO_ISSUE_BY_HAND.format(
            rid=where.rid,
            branch=where.branch,
            file=where.file_url,
            status=inline(named(Status.ACCEPTED, where.word)),
            word=inline(said(Status.ACCEPTED, where.word)),
            verb=verb.value,
        )
    if pr is not None and where.pr_place is Place.CLOSED_PR:
        if where.file_url is None:
            closed = _closed(where, pr, "is")
            return NO_ISSUE_CLOSED.format(rid=where.rid, closed=closed, verb=verb.value)
        return NO_ISSUE_CLOSED_ON_MAIN.format(
            rid=where.rid,
            closed=_closed(where, pr, "was"),
            branch=where.branch,
            file=where.file_url,
            how=_how(where),
            verb=verb.value,
        )
    if pr is not None and where.pr_place is Place.MERGED_PR and where.file_url is not None:
        merged = MERGED_HERE if where.on_pr else MERGED_THERE.format(rid=where.rid, pr=pr.md)
        return NO_ISSUE_MERGED.format(
            rid=where.rid,
            merged=merged,
            branch=where.branch,
            file=where.file_url,
            status=_status(where),
            verb=verb.value,
        )
    on = f" on {pr.md}" if pr is not None else ""
    return NO_ISSUE_YET.format(rid=where.rid, on=on, verb=verb.value)


def _status(where: Where) -> str:
    """The RFD's status on the default branch, in the repository's word."""
    return inline(said(Status(where.status), where.word)) if where.status else ""


def _to_pr(verb: Verb, where: Where) -> str:
    pr, rid = where.pr, where.rid
    if pr is not None and where.pr_place is Place.OPEN_PR:
        return GO_PR.format(verb=verb.value, rid=rid, pr=pr.md)
    issue = ITS_ISSUE.format(issue=where.tracking.md) if where.tracking else ""
    if pr is not None and where.pr_place is Place.CLOSED_PR and where.file_url is not None:
        return CLOSED_ON_MAIN.format(
            closed=_closed(where, pr, "was"),
            branch=where.branch,
            file=where.file_url,
            how=_how(where),
            status=_status(where),
            verb=verb.value,
            issue=issue,
        )
    if pr is not None and where.pr_place is Place.CLOSED_PR and where.on_pr:
        return REOPEN_HERE.format(rid=rid, branch=where.branch, verb=verb.value)
    if pr is not None and where.pr_place is Place.CLOSED_PR:
        return REOPEN.format(verb=verb.value, rid=rid, pr=pr.md)
    if where.file_url is not None:
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


def _closed(where: Where, pr: Link, was: str) -> str:
    """The closed discussion pull request: "this pull request" when the command is on it."""
    if where.on_pr:
        return CLOSED_HERE.format(was=was)
    return CLOSED_THERE.format(rid=where.rid, pr=pr.md, was=was)


def _how(where: Where) -> str:
    if where.brought is not None:
        return THROUGH.format(pr=where.brought.md)
    return DECIDED.format(pr=where.decided.md) if where.decided else ANOTHER_WAY


PHASE_BRANCH = re.compile(r"^rfd/(?P<rid>\d{1,5})-phase-")
"""The branch of a phase's pull request (:data:`bot.github.implement.texts.BRANCH`)."""


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
    changed = [
        c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root) if not c.removed
    ]
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
    doc_issue, path, status, word = _on_default_branch(ctx, rid)
    tracking = _tracking(ctx, rid, place, doc_issue, web)
    if Place.TRACKING in WORKS[verb] and tracking is not None:
        return Where(rid, tracking=tracking, branch=branch, word=word)
    discussion, state = _discussion(ctx, place, pr, tracking, web)
    file_url = f"{web}/blob/{quote(branch)}/{quote(path)}" if path else None
    closed = discussion if state is Place.CLOSED_PR and path else None
    brought = _brought(ctx, rid, closed.number, web) if closed else None
    decided = None
    if place is Place.CLOSED_PR and closed and tracking and not brought:
        decided = _decided(ctx, closed, tracking, web)
    on_pr = pr is not None and discussion is not None and discussion.number == pr.number
    return Where(
        rid, discussion, state, tracking, file_url, branch, status, word, brought, on_pr, decided
    )


def _on_default_branch(ctx: Context, rid: str) -> tuple[int | None, str | None, str | None, str]:
    """The RFD's tracking issue, path, status and status word as the default branch's
    checkout has them."""
    from bot.config import discovery

    try:
        file = discovery.resolve(rid, discovery.scan(ctx.root, ctx.cfg))
        doc = discovery.read(ctx.root, file)
    except RfdError:
        return None, None, None, ""
    return doc.tracking_issue, file.path, doc.status.value, doc.status_word


def status_on_default_branch(ctx: Context, rid: str) -> Status | None:
    """RFD ``rid``'s status on the default branch's checkout (None: not there)."""
    status = _on_default_branch(ctx, rid)[2]
    return Status(status) if status is not None else None


def stage_words(word: str) -> dict[str, str]:
    """Each stage as a document whose status is ``word`` says it, for a text's fields
    (``{accepted}``: ``published`` on Oxide's RFDs, ``Accepted`` on rfd's), made inert."""
    return {stage.name.lower(): inline(said(stage, word)) for stage in Status}


def words_on_default_branch(ctx: Context, rid: str) -> dict[str, str]:
    """:func:`stage_words` of RFD ``rid`` as the default branch has it (rfd's own words when
    it is not there)."""
    return stage_words(_on_default_branch(ctx, rid)[3])


def _brought(ctx: Context, rid: str, closed: int, web: str) -> Link | None:
    """The pull request that brought RFD ``rid`` to the default branch, as the status
    comment of its ``closed`` discussion pull request names it (no request when this run
    listed that pull request's comments already, as it has for a command given there)."""
    try:
        comment = ctx.forge.find_comment(closed, marker("status", closed))
    except RfdError:
        return None  # the answer still says where the RFD is, only not through which PR
    pattern = BROUGHT_BY.format(rid=re.escape(rid), web=re.escape(web))
    found = re.search(pattern, comment.body) if comment is not None else None
    return Link(int(found[1]), f"{web}/pull/{found[1]}") if found else None


def _decided(ctx: Context, closed: Link, tracking: Link, web: str) -> Link | None:
    """The pull request the RFD was accepted on, as its ``tracking`` issue names it ("Discussed
    in #5", written at accept), when that is not the ``closed`` one the command was given on
    and nothing named what brought the RFD to the default branch (None when GitHub does not
    answer: the answer still says where the RFD is)."""
    try:
        body = ctx.forge.get_issue(tracking.number).body
    except RfdError:
        return None
    named = re.search(DISCUSSED.format(web=re.escape(web)), body)
    if named is None or int(named[1]) == closed.number:
        return None
    return Link(int(named[1]), f"{web}/pull/{named[1]}")


def _tracking(ctx: Context, rid: str, place: Place, number: int | None, web: str) -> Link | None:
    if place is Place.TRACKING:
        issue = ctx.delivery.payload["issue"]
        return Link(ctx.number, str(issue.get("html_url") or f"{web}/issues/{ctx.number}"))
    if number is not None:
        return Link(number, f"{web}/issues/{number}")
    found = ctx.forge.find_issue(marker("tracking", rid))
    return Link(found.number, found.url) if found is not None else None


DISCUSSED = r"Discussed in \[#(\d+)\]\({web}/pull/\1\)"
BROUGHT_BY = r"RFD {rid} reached `[^`\n]*` through \[#(\d+)\]\({web}/pull/\1\)"
""":data:`bot.github.closed_pr.BROUGHT` read back from the bot's own status comment."""


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
    number, *_ = _on_default_branch(ctx, phase["rid"])
    tracking = _tracking(ctx, phase["rid"], Place.PHASE_PR, number, web)
    return PHASE_STATUS.format(rid=phase["rid"], issue=tracking.md) if tracking else None
