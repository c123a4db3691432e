"""``pull_request`` closed: the status comment's final state, and the label that goes with it.

Once an RFD's pull request is merged or closed nobody pushes to it again, so its status
comment would stay at whatever it said last ("merge this pull request"). Instead it says
what happened and where the RFD lives on: the file on the default branch and its tracking
issue, where every later step is taken.  Nothing in it claims a state that can go stale.
Read from the default branch (the merge is there); the PR's branch may be gone.

The pull request the tracking issue names ("Discussed in #2") is not always the one that
brought the RFD to the default branch: it can be closed without merging while another pull
request (or a push) brings the RFD there.  Its final comment then says so, and which pull
request brought it when the bot saw it happen; it never says "merged".

The Decision's commits are the pull request's own (``refs/pull/<n>/head``): after a squash
or a rebase merge they are not on the default branch, but GitHub keeps them with the pull
request.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from bot.config.discovery import read
from bot.core.diff_lines import old_side
from bot.core.errors import RfdError
from bot.core.github_markdown import inline, link_text
from bot.forge.base import Comment, Issue, PullRequest, marker
from bot.github.checkout import ChangedRfd, changed_rfds
from bot.github.labels import sync_labels
from bot.github.places import BROUGHT_BY, DISCUSSED
from bot.github.run import Context
from bot.model.document import Document, parse
from bot.model.status import Status, said

MERGED = "**Merged into `{branch}`** as {status}."
MERGED_EARLIER = "**Merged into `{branch}`.**"
CLOSED = "**Closed without merging.** {where}"
BROUGHT = "RFD {rid} reached `{branch}` through [#{number}]({url}) instead{status}."
"""A closed pull request whose RFD another pull request brought to the default branch."""
BROUGHT_AS = ": it is {status} there"
ELSEWHERE = "RFD {rid} reached `{branch}` another way."
"""... when the bot did not see what brought it (a push, or a merge it did not follow)."""
ON_MAIN = "RFD {rid} on `{branch}` is {status}: [read it there]({url})."
NOT_ON_MAIN = "RFD {rid} is not on `{branch}`: reopen this pull request to go on with it here."
LIVES_ON = (
    "Its implementation is followed on tracking issue [#{issue}]({issue_url}), where the "
    "phases are ticked and the next command is named (`/rfd status` there says where it stands)."
)
NO_ISSUE = "It has no tracking issue."
FOOTER_MERGED = (
    "<sub>Final: this pull request is merged · rfd-bot updates this comment only when the "
    "RFD's status changes</sub>"
)
"""Said from the merge on: a later transition (Implemented) edits the comment once more."""
FOOTER_CLOSED = (
    "<sub>Final: this pull request is closed without merging · rfd-bot updates this comment "
    "again only if it is reopened, or when a pull request that changes the RFD is merged</sub>"
)
"""Said from the close on: the RFD can still reach the default branch through another pull
request, whose merge edits the comment (the tracking issue names this one)."""


def on_closed(ctx: Context) -> None:
    """``pull_request`` closed (merged or not): the status comment's final state."""
    pr = ctx.delivery.pull_request
    assert pr is not None
    if final_state(ctx, pr) is None:
        ctx.summary.note(f"#{pr.number} changes no RFD: nothing to do")


def final_state(ctx: Context, pr: PullRequest) -> Comment | None:
    """Write the final status comment of the closed ``pr`` and its label (None when it
    changes no RFD); ``/rfd status`` on a closed PR writes the same, never the dashboard."""
    changed = [
        c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root) if not c.removed
    ]
    if not changed:
        return None
    found = [(c, _on_default_branch(ctx, c)) for c in changed]
    before = None if pr.merged else ctx.forge.find_comment(pr.number, marker("status", pr.number))
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    blocks = [
        _block(ctx, c, doc, pr.merged, pr.number, brought=_brought(before, str(c.file.rfd_id), web))
        for c, doc in found
    ]
    how = "merged" if pr.merged else "closed"
    body = "\n\n".join([*blocks, FOOTER_MERGED if pr.merged else FOOTER_CLOSED])
    written = ctx.upsert("status", pr.number, body, number=pr.number, proofs=True)
    sync_labels(ctx, pr.number, pr.labels, [d.status for _, d in found if d is not None])
    on_main = [(c, d) for c, d in found if d is not None]
    for issue in sorted({d.tracking_issue for _, d in on_main if d.tracking_issue}):
        discussed = _tracking_issue(ctx, pr, issue)
        if discussed is not None:
            _later(ctx, discussed, pr, on_main)
    ctx.summary.note(f"#{pr.number} {how}: its status comment says where the RFD lives on")
    return written


def _on_default_branch(ctx: Context, changed: ChangedRfd) -> Document | None:
    """The RFD as the default branch has it now (None when it is not there)."""
    if not (ctx.root / changed.file.path).is_file():
        return None
    try:
        return read(ctx.root, changed.file)
    except RfdError as err:
        ctx.summary.problem(err)
        return None


def _block(
    ctx: Context,
    changed: ChangedRfd,
    doc: Document | None,
    merged: bool,
    number: int,
    *,
    then: str = "",
    brought: int | None = None,
) -> str:
    """The RFD's final state on closed pull request ``number`` (``then``: the PR was closed earlier,
    the later transition that brought the RFD to ``doc``'s status; ``brought``: the pull
    request that brought the RFD to the default branch, when this one was closed without
    merging and the bot saw which), and its Decision."""
    rid, branch = str(changed.file.rfd_id), ctx.delivery.default_branch
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    url = f"{web}/blob/{quote(branch)}/{quote(changed.file.path)}"
    title = link_text(f"RFD {rid}: {doc.title}" if doc else f"RFD {rid}")
    lines = [f"### [{title}]({url})" if doc else f"### {title}", ""]
    if doc is None:
        return "\n".join([*lines, CLOSED.format(where=NOT_ON_MAIN.format(rid=rid, branch=branch))])
    status = inline(said(doc.status, doc.status_word))  # the repository's word
    if merged and then:
        lines.append(MERGED_EARLIER.format(branch=branch))
    elif merged:
        lines.append(MERGED.format(branch=branch, status=status))
    else:
        lines.append(CLOSED.format(where=_where(ctx, rid, status, url, then, brought)))
    if doc.status in (Status.ACCEPTED, Status.IMPLEMENTED) or doc.tracking_issue:
        issue = doc.tracking_issue
        lines += [
            "",
            LIVES_ON.format(issue=issue, issue_url=f"{web}/issues/{issue}") if issue else NO_ISSUE,
        ]
    lines += ["", then] if then else []
    decision = _decision(ctx, changed, doc, number, merged)
    return "\n".join([*lines, "", *decision] if decision else lines)


def _where(ctx: Context, rid: str, status: str, url: str, then: str, brought: int | None) -> str:
    """Where the RFD of a pull request closed without merging is: on the default branch
    (``url``), brought there by pull request ``brought``, or another way (``then``: a later
    transition says its status)."""
    branch = ctx.delivery.default_branch
    if brought is not None:
        shown = "" if then else BROUGHT_AS.format(status=status)
        at = f"{ctx.server_url}/{ctx.delivery.repository}/pull/{brought}"
        return BROUGHT.format(rid=rid, branch=branch, number=brought, url=at, status=shown)
    if then:
        return ELSEWHERE.format(rid=rid, branch=branch)
    return ON_MAIN.format(rid=rid, branch=branch, status=status, url=url)


MERGED_AS = (
    "The commits linked are this pull request's own, which GitHub keeps with it; its merge "
    "brought the accepted RFD to `{branch}` as {commit}."
)
"""Said when the merge gave the default branch other commits (a squash or a rebase)."""


def _decision(
    ctx: Context, changed: ChangedRfd, doc: Document, number: int, merged: bool
) -> tuple[str, ...]:
    """Who accepted the RFD with whose sign-offs at which commit, as the ledger on the
    default branch says (empty when it holds no sign-off and no acceptance).

    The commits linked are pull request ``number``'s own (``refs/pull/<n>/head``): the
    bot's accept commit and the commits its sign-offs were given on, whichever way the pull
    request was merged; when its merge gave the default branch other commits, the one that
    brought the accepted RFD there is named too.  Without the pull request's ref the
    default branch's history is read (a squash then shows no sign-off's commit)."""
    from bot.github.checkout import pull_head
    from bot.github.status_comment import commit_links
    from bot.lifecycle.consensus_gate import decided
    from bot.state import StateStore

    try:
        ledger = StateStore(ctx.root, ctx.cfg).read_consensus(changed.file.rfd_id)
    except RfdError as err:
        ctx.summary.problem(err)
        return ()
    if ledger.accepted is None and not ledger.approvals:
        return ()
    web, path = f"{ctx.server_url}/{ctx.delivery.repository}", changed.file.path
    rev = pull_head(ctx.root, number, ctx.environ) or "HEAD"
    lines = decided(ledger, doc.status, commit_links(ctx.root, path, web, rev))
    if ledger.accepted is None or rev == "HEAD" or not merged:
        return lines
    return (*lines, *_merged_as(ctx, path, ledger.accepted.revision, rev))


def _merged_as(ctx: Context, path: str, accepted: str, rev: str) -> tuple[str, ...]:
    """The commit of the default branch that brought the ``accepted`` content, named when
    it is not the pull request's own (``rev``) commit that did."""
    from bot.github.approved_at import commits_of

    theirs, ours = commits_of(ctx.root, path, rev).get(accepted), commits_of(ctx.root, path)
    merged = ours.get(accepted)
    if theirs is None or merged is None or merged == theirs:
        return ()
    link = f"[`{merged[:7]}`]({ctx.server_url}/{ctx.delivery.repository}/commit/{merged})"
    return ("", MERGED_AS.format(branch=ctx.delivery.default_branch, commit=link))


def _tracking_issue(ctx: Context, pr: PullRequest, number: int) -> PullRequest | None:
    """The tracking issue ``number`` of an RFD that ``pr``'s close leaves on the default
    branch: its links at the PR's head relinked there (merged, or the PR it names), and the
    pull request it names when another one's merge changed the RFD since (None otherwise)."""
    issue = ctx.forge.get_issue(number)
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    named = re.search(DISCUSSED.format(web=re.escape(web)), issue.body)
    discussed = int(named[1]) if named else None
    if discussed == pr.number:
        _relink(ctx, issue, (pr,))
        return None
    if not pr.merged:
        return None
    earlier = _pull(ctx, discussed) if discussed is not None else None
    _relink(ctx, issue, (pr, earlier) if earlier else (pr,))
    return earlier


def _pull(ctx: Context, number: int) -> PullRequest | None:
    """Pull request ``number`` (None, and a warning in the job summary, when GitHub does not
    answer: this run's own comment is written already)."""
    try:
        return ctx.api.pull(number)
    except RfdError as err:
        ctx.summary.problem(err, level="warning")
        return None


def _relink(ctx: Context, issue: Issue, prs: tuple[PullRequest, ...]) -> None:
    """The tracking issue, opened at accept, linked the files at the head of the pull
    request they were accepted on: now they are on the default branch (the head branch may
    be deleted)."""
    from bot.github.accept import head_files

    main = f"{ctx.server_url}/{ctx.delivery.repository}/blob/{quote(ctx.delivery.default_branch)}/"
    body = issue.body
    for pr in prs:
        body = body.replace(head_files(ctx, pr) + "/", main)
    if body != issue.body:
        ctx.forge.edit_issue(issue.number, body=body)
        ctx.summary.note(f"tracking issue #{issue.number} links the RFD on the default branch now")


LATER = "Since then: RFD {rid} is {status} on `{branch}` — [#{number}]({url}) made it so."
"""The merge of pull request ``number`` changed the RFD's status."""
LATER_SAME = "Since then: [#{number}]({url}) changed RFD {rid} on `{branch}`; it is still {status}."
"""... changed the RFD, not its status."""
LATER_NOW = "Since then: [#{number}]({url}) changed RFD {rid} on `{branch}`; it is {status} now."
"""... changed the RFD; whether its status too, the bot cannot tell (GitHub left the diff
out, or the file changed again since)."""


def _later(
    ctx: Context,
    discussed: PullRequest,
    by: PullRequest,
    found: list[tuple[ChangedRfd, Document]],
) -> None:
    """The pull request the RFD was ``discussed`` in keeps its final status comment, with the
    later transition the merge of ``by`` made: the page people find for the RFD's discussion
    never ends at a state the RFD has left.  Merged, it says so; closed without merging, it
    says which pull request brought the RFD to the default branch (``by``, when it added the
    file; else the one this comment named before), never that it was merged.  Open again,
    its status comment is the live one: left alone."""
    number = discussed.number
    before = None if discussed.open else ctx.forge.find_comment(number, marker("status", number))
    if before is None:
        return
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    branch = ctx.delivery.default_branch
    blocks = []
    for changed, doc in found:
        rid = str(changed.file.rfd_id)
        moved = _status_moved(ctx, changed, doc)
        later = (LATER if moved else LATER_SAME if moved is False else LATER_NOW).format(
            rid=rid,
            status=inline(said(doc.status, doc.status_word)),
            branch=branch,
            number=by.number,
            url=f"{web}/pull/{by.number}",
        )
        if discussed.merged:
            blocks.append(_block(ctx, changed, doc, True, number, then=later))
            continue
        brought = by.number if changed.status == "added" else _brought(before, rid, web)
        then = "" if brought == by.number else later
        blocks.append(_block(ctx, changed, doc, False, number, then=then, brought=brought))
    footer = FOOTER_MERGED if discussed.merged else FOOTER_CLOSED
    ctx.upsert(
        "status", number, "\n\n".join([*blocks, footer]), number=number, proofs=True
    )  # the commit markers of quiet sign-offs are never edited away


def _brought(before: Comment | None, rid: str, web: str) -> int | None:
    """The pull request that brought RFD ``rid`` to the default branch, as the bot's own
    earlier final comment ``before`` named it (None when it named none): a refresh
    (``/rfd status``) or a later transition keeps saying it."""
    if before is None:
        return None
    said = re.search(BROUGHT_BY.format(rid=re.escape(rid), web=re.escape(web)), before.body)
    return int(said[1]) if said else None


def _status_moved(ctx: Context, changed: ChangedRfd, doc: Document) -> bool | None:
    """Did the merged pull request change the RFD's status (to ``doc``'s, on the default
    branch now)?  Its status before is read from the file before the pull request's diff
    (None when that cannot be rebuilt or read)."""
    if changed.status == "added":
        return True
    try:
        text = (ctx.root / changed.file.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    before = old_side(text, changed.patch)
    if before is None:
        return None
    try:
        return parse(before, changed.file.path).status is not doc.status
    except RfdError:
        return None
