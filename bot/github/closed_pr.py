"""``pull_request`` closed: the status comment's final state, and the label that goes with it.

Once an RFD's pull request is merged or closed nobody pushes to it again, so its status
comment would stay at whatever it said last ("merge this pull request"). Instead it says
what happened and where the RFD lives on: the file on the default branch and its tracking
issue, where every later step is taken.  Nothing in it claims a state that can go stale.
Read from the default branch (the merge is there); the PR's branch may be gone.  The
Decision's commits are the PR's own (``refs/pull/<n>/head``): after a squash or a rebase
merge they are not on the default branch, but GitHub keeps them with the pull request.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from bot.config.discovery import read
from bot.core.errors import RfdError
from bot.core.github_markdown import inline, link_text
from bot.forge.base import Comment, PullRequest, marker
from bot.github.checkout import ChangedRfd, changed_rfds
from bot.github.labels import sync_labels
from bot.github.run import Context
from bot.model.document import Document
from bot.model.status import Status

MERGED = "**Merged into `{branch}`** as {status}."
MERGED_EARLIER = "**Merged into `{branch}`.**"
CLOSED = "**Closed without merging.** {where}"
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
    "<sub>Final: this pull request is closed · rfd-bot updates this comment again only if "
    "it is reopened</sub>"
)


def on_closed(ctx: Context) -> None:
    """``pull_request`` closed (merged or not): the status comment's final state."""
    pr = ctx.delivery.pull_request
    assert pr is not None
    if final_state(ctx, pr) is None:
        ctx.summary.note(f"#{pr.number} changes no RFD: nothing to do")


def final_state(ctx: Context, pr: PullRequest) -> Comment | None:
    """Write the final status comment of the closed ``pr`` and its label (None when it
    changes no RFD); ``/rfd status`` on a closed PR writes the same, never the dashboard."""
    changed = [c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg) if not c.removed]
    if not changed:
        return None
    found = [(c, _on_default_branch(ctx, c)) for c in changed]
    blocks = [_block(ctx, c, doc, pr.merged, pr.number) for c, doc in found]
    how = "merged" if pr.merged else "closed"
    body = "\n\n".join([*blocks, FOOTER_MERGED if pr.merged else FOOTER_CLOSED])
    written = ctx.upsert("status", pr.number, body, number=pr.number, proofs=True)
    sync_labels(ctx, pr.number, pr.labels, [d.status for _, d in found if d is not None])
    if pr.merged:
        for issue in sorted({d.tracking_issue for _, d in found if d and d.tracking_issue}):
            discussed = _relink(ctx, pr, issue)
            if discussed not in (None, pr.number):
                _later(ctx, discussed, pr, [(c, d) for c, d in found if d is not None])
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
) -> str:
    """The RFD's final state on closed pull request ``number`` (``then``: the PR merged
    earlier, the later transition that brought the RFD to ``doc``'s status), and its
    Decision."""
    rid, branch = str(changed.file.rfd_id), ctx.delivery.default_branch
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    url = f"{web}/blob/{quote(branch)}/{quote(changed.file.path)}"
    title = link_text(f"RFD {rid}: {doc.title}" if doc else f"RFD {rid}")
    lines = [f"### [{title}]({url})" if doc else f"### {title}", ""]
    if doc is None:
        return "\n".join([*lines, CLOSED.format(where=NOT_ON_MAIN.format(rid=rid, branch=branch))])
    status = inline(doc.status.value)
    if merged and then:
        lines.append(MERGED_EARLIER.format(branch=branch))
    elif merged:
        lines.append(MERGED.format(branch=branch, status=status))
    else:
        where = ON_MAIN.format(rid=rid, branch=branch, status=status, url=url)
        lines.append(CLOSED.format(where=where))
    if doc.status in (Status.ACCEPTED, Status.IMPLEMENTED) or doc.tracking_issue:
        issue = doc.tracking_issue
        lines += [
            "",
            LIVES_ON.format(issue=issue, issue_url=f"{web}/issues/{issue}") if issue else NO_ISSUE,
        ]
    lines += ["", then] if then else []
    decision = _decision(ctx, changed, doc, number)
    return "\n".join([*lines, "", *decision] if decision else lines)


MERGED_AS = (
    "The commits linked are this pull request's own, which GitHub keeps with it; its merge "
    "brought the accepted RFD to `{branch}` as {commit}."
)
"""Said when the merge gave the default branch other commits (a squash or a rebase)."""


def _decision(ctx: Context, changed: ChangedRfd, doc: Document, number: int) -> tuple[str, ...]:
    """Who accepted the RFD with whose sign-offs at which commit, as the ledger on the
    default branch says (empty when it holds no sign-off and no acceptance).

    The commits linked are the pull request's own (``refs/pull/<n>/head``): the bot's
    accept commit and the commits its sign-offs were given on, whichever way the pull
    request was merged; when the merge gave the default branch other commits, the one that
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
    if ledger.accepted is None or rev == "HEAD":
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


def _relink(ctx: Context, pr: PullRequest, number: int) -> int | None:
    """The tracking issue, opened before the merge, linked the files at the PR's head: now
    they are on the default branch (the head branch may be deleted).  Returns the number of
    the pull request the RFD was discussed in, as the issue names it."""
    from bot.github.accept import head_files

    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    head = head_files(ctx, pr) + "/"
    issue = ctx.forge.get_issue(number)
    body = issue.body.replace(head, f"{web}/blob/{quote(ctx.delivery.default_branch)}/")
    if body != issue.body:
        ctx.forge.edit_issue(number, body=body)
        ctx.summary.note(f"tracking issue #{number} links the RFD on the default branch now")
    found = re.search(rf"Discussed in \[#(\d+)\]\({re.escape(web)}/pull/\1\)", body)
    return int(found[1]) if found else None


LATER = "Since then: RFD {rid} is {status} on `{branch}` — [#{number}]({url}) made it so."


def _later(
    ctx: Context, number: int, by: PullRequest, found: list[tuple[ChangedRfd, Document]]
) -> None:
    """The RFD's own (merged) pull request ``number`` keeps its final status comment, with
    the later transition ``by`` made: the page people find for the RFD's discussion never
    ends at a state the RFD has left."""
    mark = marker("status", number)
    if ctx.forge.find_comment(number, mark) is None:
        return
    web = f"{ctx.server_url}/{ctx.delivery.repository}"
    branch = ctx.delivery.default_branch
    blocks = []
    for changed, doc in found:
        later = LATER.format(
            rid=changed.file.rfd_id,
            status=inline(doc.status.value),
            branch=branch,
            number=by.number,
            url=f"{web}/pull/{by.number}",
        )
        blocks.append(_block(ctx, changed, doc, True, number, then=later))
    ctx.upsert(
        "status", number, "\n\n".join([*blocks, FOOTER_MERGED]), number=number, proofs=True
    )  # the commit markers of quiet sign-offs are never edited away
