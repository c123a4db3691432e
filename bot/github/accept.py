"""Label ``rfd:accept`` (or ``/rfd accept``): accept the RFDs the pull request changes.

The lifecycle's ``accept`` extracts the plan, promotes the RFD, creates or
updates its tracking issue and links it from the RFD header; the bot commits
what it changed to the PR branch in one commit.  Nothing is promoted when the
plan cannot be extracted (the reply says what to fix).  An RFD already Accepted
on the branch is left alone: a re-delivered event (its reply written after it)
writes nothing, and a new labeling is taken off with a reply saying so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from bot.config.discovery import RfdFile
from bot.core.github_markdown import code, inline
from bot.core.text import plural
from bot.forge.base import PullRequest
from bot.github.auth import AUTHOR_MAY_NOT_ACCEPT, authorize
from bot.github.authorship import is_author
from bot.github.checkout import Checkout, changed_rfds
from bot.github.commands import REGISTRY, Verb
from bot.github.ops import Refused, commit, forged_lines, pr_workspace, refreshed, refuse_label
from bot.github.run import Context
from bot.model import phase_ids
from bot.model.status import Status, named, said

if TYPE_CHECKING:
    from bot.lifecycle.accept import AcceptOutcome
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document

ACCEPTABLE = (Status.DRAFT, Status.DISCUSSION)
ALREADY = "Every RFD of this pull request is already accepted: nothing to do."
ALREADY_KEY = "{key}-already"
MARKED_HERE = (
    "RFD {rid} is marked {accepted} on this pull request but not on `{branch}` ({where}): the "
    "bot's accept makes an RFD {accepted}, after its checks and the sign-offs the repository "
    "asks for. **Next step:** set its Status back to {discussion} on this branch, then comment "
    "`/rfd accept`."
)
NO_RFD = "This pull request changes no RFD: there is nothing to accept."
NOT_SIGNED_OFF = "RFD {rfd} cannot be accepted yet: it lacks its sign-offs.\n\n{missing}"
MANY_PROPOSALS = (
    "This pull request adds {n} RFC proposals ({slugs}): one pull request numbers one. "
    "**Next step:** move all but one into pull requests of their own, then comment "
    "`/rfd accept` again."
)
PROPOSAL_NUMBERED = "🔢 {old} is now RFD {rid} ({new}): {why}."
BY_PULL = "the number of this pull request, #{number}, as the repository numbers its RFCs"
NEXT_FREE = "the next free number"
ACCEPTED = "🚀 RFD {rid} is {status}: {phases}, tracking issue #{issue}."
"""``{status}``: the repository's word, with rfd's name once where it has its own
(``published (Accepted)``); the label and the file say the repository's word."""
WAS_ACCEPTED = (
    "🚀 RFD {rid} was already {status} on `{branch}`: its plan has {phases}, tracking issue "
    "#{issue} (the status stays {word})."
)
NEXT = (
    "**Next step:** merge this pull request into `{base}`, then comment `/rfd implement` "
    "on {where}."
)
NEXT_MERGE = (
    "**Next step:** merge this pull request into `{base}`; there is no phase to implement: "
    "once the work is done, comment `/rfd done` on {where}."
)
NEXT_DONE_MANY = "tracking issues {each}"
NEXT_DONE_EACH = "#{issue} (RFD {rid})"
NEXT_ONE = "tracking issue #{issue} to start phase {first}: {title}"
NEXT_MANY = "tracking issues {each}"
NEXT_EACH = "#{issue} (RFD {rid}, phase {first}: {title})"


def on_label(ctx: Context) -> None:
    pr = ctx.delivery.pull_request
    assert pr is not None
    label = ctx.cfg.labels.accept
    decision = authorize(
        REGISTRY[Verb.ACCEPT],
        ctx.delivery.actor,
        ctx.cfg,
        ctx.api.permission,
        authors=(pr.author,),
        what=f"the {label} label",
    )
    try:
        if not decision.allowed:
            raise Refused(decision.reason)
        message = accept_pr(ctx, pr)
    except Refused as refusal:
        refuse_label(ctx, pr.number, label, str(refusal))
        return
    if message.startswith(ALREADY):
        again = ALREADY_KEY.format(key=ctx.delivery.key)
        if ctx.replied_after_event() or ctx.replied_after_event(again):
            ctx.summary.note(f"{label} on #{pr.number} was already answered: nothing to do")
            return
        ctx.reply(message, key=again)
    else:
        ctx.reply(message)
    ctx.forge.remove_label(pr.number, label)


def accept_pr(ctx: Context, pr: PullRequest, only: str | None = None) -> str:
    """Accept the PR's RFDs (or ``only`` that one); the reply text."""
    from bot.lifecycle.accept import accept

    changed = [
        c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root) if not c.removed
    ]
    changed = [c for c in changed if only is None or _same(str(c.file.rfd_id), only)]
    if not changed:
        raise Refused(NO_RFD)
    with pr_workspace(ctx, pr, [c.file.path for c in changed]) as (ws, checkout):
        proposals = [c.file for c in changed if c.file.proposal]
        if proposals:
            return number_proposal(ctx, pr, ws, checkout, proposals)
        docs = [ws.document(str(c.file.rfd_id)) for c in changed]
        todo = [d for d in docs if d.status in ACCEPTABLE]
        if not todo and (before := _by_hand(ctx, ws, docs)):
            return take_on(ctx, pr, ws, checkout, before)
        if not todo:
            return already(
                ctx,
                pr,
                [(str(d.rfd_id), d.tracking_issue, said(d.status, d.status_word)) for d in docs],
                [c.file.path for c in changed],
            )
        _check_authors(ctx, pr, checkout, todo)
        _check_signed_off(ctx, ws, [str(d.rfd_id) for d in todo])
        with ctx.forge.on_pull(head_files(ctx, pr), pull_url(ctx, pr)):  # not merged yet
            by = ctx.delivery.actor.login  # verified by GitHub, never text from the PR
            outcomes = [accept(ws, str(d.rfd_id), by=by) for d in todo]
        words = [d.status_word for d in todo]
        ids = ", ".join(o.rfd_id for o in outcomes)
        done = commit(ctx, pr, checkout, [p for o in outcomes for p in o.changed], ids, "accepted")
        refreshed(ctx, pr, checkout)
    lines = [
        ACCEPTED.format(rid=o.rfd_id, status=_named(w), phases=_planned(o), issue=o.issue.number)
        for o, w in zip(outcomes, words, strict=True)
    ]
    return "\n".join([*lines, "", done, "", next_step(outcomes, pr.base_ref)])


def number_proposal(
    ctx: Context, pr: PullRequest, ws: Workspace, checkout: Checkout, proposals: list[RfdFile]
) -> str:
    """The pull request's RFC proposal (``text/0000-slug.md``) accepted: numbered by the pull
    request where the corpus numbers RFCs so (else the next free number), renamed, its header
    given the pull request, then accepted; one commit on the PR branch."""
    from bot.lifecycle.accept import accept
    from bot.lifecycle.publish import numbered_by_pull

    if len(proposals) > 1:
        slugs = ", ".join(code(f.slug) for f in proposals)
        raise Refused(MANY_PROPOSALS.format(n=len(proposals), slugs=slugs))
    (file,) = proposals
    word = ws.document(file).status_word
    _check_authors(ctx, pr, checkout, [ws.document(file)])
    _check_signed_off(ctx, ws, [file.path])
    number = pr.number if numbered_by_pull(ws) else None
    with ctx.forge.on_pull(head_files(ctx, pr), pull_url(ctx, pr)):  # not merged yet
        by = ctx.delivery.actor.login  # verified by GitHub, never text from the PR
        outcome = accept(ws, file.path, by=by, number=number, pull_url=pull_url(ctx, pr))
    done = commit(ctx, pr, checkout, list(outcome.changed), outcome.rfd_id, "accepted")
    _refreshed_renamed(ctx, pr, checkout, file, ws.find(outcome.rfd_id))
    numbered = PROPOSAL_NUMBERED.format(
        old=code(file.path),
        rid=outcome.rfd_id,
        new=code(ws.rel(outcome.path)),
        why=BY_PULL.format(number=pr.number) if number else NEXT_FREE,
    )
    accepted = ACCEPTED.format(
        rid=outcome.rfd_id,
        status=_named(word),
        phases=_planned(outcome),
        issue=outcome.issue.number,
    )
    return "\n".join([numbered, accepted, "", done, "", next_step([outcome], pr.base_ref)])


def _refreshed_renamed(
    ctx: Context, pr: PullRequest, checkout: Checkout, old: RfdFile, new: RfdFile
) -> None:
    """The status comment after a proposal was numbered: its row under its new name (the
    pull request's file list, read before the rename, still names ``0000``)."""
    from dataclasses import replace

    from bot.github.checkout import head_of
    from bot.github.run import cosmetic
    from bot.github.status_comment import refresh

    changed = [
        replace(c, file=new, status="added", blob="") if c.file == old else c
        for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root)
    ]
    with cosmetic(ctx.summary, "refreshing the status comment"):
        refresh(ctx, pr, checkout.root, head_of(checkout, pr), changed)


def take_on(
    ctx: Context, pr: PullRequest, ws: Workspace, checkout: Checkout, docs: list[Document]
) -> str:
    """RFDs Accepted on the default branch before the bot: their plans extracted and their
    tracking issues opened, committed to the PR branch; the status is not touched."""
    from bot.lifecycle.accept import accepted_before

    _check_authors(ctx, pr, checkout, docs)
    with ctx.forge.on_pull(head_files(ctx, pr), ""):  # discussed before, not on this PR
        outcomes = [accepted_before(ws, str(d.rfd_id)) for d in docs]
    ids = ", ".join(o.rfd_id for o in outcomes)
    done = commit(ctx, pr, checkout, [p for o in outcomes for p in o.changed], ids, "tracked")
    refreshed(ctx, pr, checkout)
    lines = [
        WAS_ACCEPTED.format(
            rid=o.rfd_id,
            status=_named(d.status_word),
            word=inline(said(Status.ACCEPTED, d.status_word)),
            branch=inline(ctx.delivery.default_branch),
            phases=plural(len(o.phases), "phase"),
            issue=o.issue.number,
        )
        for o, d in zip(outcomes, docs, strict=True)
    ]
    return "\n".join([*lines, "", done, "", next_step(outcomes, pr.base_ref)])


def _by_hand(ctx: Context, ws: Workspace, docs: list[Document]) -> list[Document]:
    """The RFDs Accepted by hand, without a plan, to take on: each Accepted on the default
    branch already — decided before the bot, never by this pull request, so no sign-off the
    bot would still ask for is skipped.  Refused when one is Accepted on this pull request
    only (its Status line edited here): that is the accept step's to do."""
    from bot.github.places import status_on_default_branch
    from bot.lifecycle.accept_gate import untracked

    found = []
    for doc in docs:
        rid = str(doc.rfd_id)
        if not untracked(ws, doc):
            continue
        there = status_on_default_branch(ctx, rid)
        if there is not Status.ACCEPTED:
            branch, word = inline(ctx.delivery.default_branch), doc.status_word
            where = f"{inline(said(there, word))} there" if there else "not there yet"
            raise Refused(
                MARKED_HERE.format(
                    rid=rid,
                    branch=branch,
                    where=where,
                    accepted=inline(said(Status.ACCEPTED, word)),
                    discussion=inline(said(Status.DISCUSSION, word)),
                )
            )
        found.append(doc)
    return found


def _named(word: str) -> str:
    """Accepted as the repository says it: ``published (Accepted)`` on Oxide's RFDs."""
    return inline(named(Status.ACCEPTED, word))


def pull_url(ctx: Context, pr: PullRequest) -> str:
    return f"{ctx.server_url}/{ctx.delivery.repository}/pull/{pr.number}"


def head_files(ctx: Context, pr: PullRequest) -> str:
    """Where the PR's files are until the merge: its head branch."""
    return f"{ctx.server_url}/{pr.head_repo or ctx.delivery.repository}/blob/{quote(pr.head_ref)}"


def _planned(outcome: AcceptOutcome) -> str:
    """``2 phases``, or why there are none (the repository accepts RFDs without a plan)."""
    from bot.lifecycle.accept import NO_PLAN, NO_PLAN_NOTE

    if outcome.method == NO_PLAN:
        return NO_PLAN_NOTE
    return plural(len(outcome.phases), "phase")


def next_step(outcomes: list[AcceptOutcome], base: str) -> str:
    """One line: merge, then ``/rfd implement`` on each tracking issue for its first phase
    (when no RFD accepted has a phase: merge, then ``/rfd done`` on their tracking issues)."""
    planned = [o for o in outcomes if o.phases]
    if not planned:
        return NEXT_MERGE.format(base=inline(base), where=_done_where(outcomes))
    outcomes = planned
    facts = [
        {
            "rid": o.rfd_id,
            "issue": o.issue.number,
            "title": inline(o.phases[0].title),
            "first": phase_ids.label(o.phases[0], 1),
        }
        for o in outcomes
    ]
    if len(facts) == 1:
        where = NEXT_ONE.format(**facts[0])
    else:
        where = NEXT_MANY.format(each=" and ".join(NEXT_EACH.format(**f) for f in facts))
    return NEXT.format(base=inline(base), where=where)


def _done_where(outcomes: list[AcceptOutcome]) -> str:
    """The tracking issue(s) where ``/rfd done`` finishes RFDs accepted without a plan."""
    if len(outcomes) == 1:
        return f"tracking issue #{outcomes[0].issue.number}"
    each = [NEXT_DONE_EACH.format(issue=o.issue.number, rid=o.rfd_id) for o in outcomes]
    return NEXT_DONE_MANY.format(each=" and ".join(each))


def already(
    ctx: Context, pr: PullRequest, docs: list[tuple[str, int | None, str]], paths: list[str]
) -> str:
    """The answer when nothing is left to accept: each RFD, linked, its status in its own
    words (``docs``: id, tracking issue, status) and its tracking issue."""
    blob = f"{ctx.server_url}/{pr.head_repo or ctx.delivery.repository}/blob/{quote(pr.head_ref)}"
    lines = [
        f"- [RFD {rid}]({blob}/{quote(path)}) is {inline(status)}"
        + (f", tracking issue #{issue}" if issue else "")
        for (rid, issue, status), path in zip(docs, paths, strict=True)
    ]
    return "\n".join([ALREADY, "", *lines])


def _check_authors(ctx: Context, pr: PullRequest, checkout: Checkout, docs: list[Document]) -> None:
    """Refused when the one accepting is an author of an RFD being accepted (unless allowed)."""
    login = ctx.delivery.actor.login
    if not ctx.cfg.accept.allow_author and is_author(ctx, pr, checkout, docs, login):
        raise Refused(AUTHOR_MAY_NOT_ACCEPT.format(login=login))


def _check_signed_off(ctx: Context, ws: Workspace, ids: list[str]) -> None:
    """The sign-offs ``[consensus]`` asks for: a refusal (the label comes off) naming what
    is missing and who can give it."""
    if not ws.config.consensus.enabled:
        return
    from bot.lifecycle.signoff import current_standing

    for rid in ids:
        missing = current_standing(ws, rid).missing
        if missing:
            lines = "\n".join(f"- {inline(m)}" for m in missing)
            forged = "".join(f"\n\n{line}" for line in forged_lines(ctx))
            raise Refused(NOT_SIGNED_OFF.format(rfd=rid, missing=lines) + forged)


def _same(a: str, b: str) -> bool:
    from bot.model.ids import RfdId

    return RfdId.parse(a) == RfdId.parse(b)
