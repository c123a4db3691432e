"""Label ``rfd:review`` (or ``/rfd review``): review every RFD the PR changes.

Design review for RFDs in Discussion, implementation review for Accepted ones
(the lifecycle's ``review`` decides).  The review files go back to the PR branch
in one bot commit; then each review is posted with a footer (model, tokens,
cost) and the label is removed so it can be applied again.  A re-delivered
event finds its reviews by their marker and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.github import status_comment
from bot.github.api import PullRequest
from bot.github.auth import authorize
from bot.github.changed import ChangedRfd, changed_rfds
from bot.github.checkout import Checkout, close, commit_and_push, open_pull
from bot.github.commands import REGISTRY, Verb
from bot.github.context import Context
from bot.github.ops import COMMIT, offline_note, open_workspace, refuse_label
from bot.github.revisions import head_marker, posted_reviews, review_marker, short

if TYPE_CHECKING:
    from bot.review import ReviewOutcome

NOTHING_TO_REVIEW = "This pull request changes no RFD: there is nothing to review."


@dataclass(frozen=True)
class Reviewed:
    posted: int
    already: int


def on_label(ctx: Context) -> None:
    pr = ctx.delivery.pull_request
    assert pr is not None
    label = ctx.cfg.labels.review
    what = f"the {label} label"
    decision = authorize(REGISTRY[Verb.REVIEW], ctx.delivery.actor, ctx.cfg, ctx.api.permission,
                         what=what)  # fmt: skip
    if not decision.allowed:
        refuse_label(ctx, pr.number, label, decision.reason)
        return
    done = review_pr(ctx, pr)
    if done.posted or not done.already:
        ctx.forge.remove_label(pr.number, label)


def review_pr(
    ctx: Context, pr: PullRequest, model: str | None = None, *, only: list[str] | None = None
) -> Reviewed:
    """Review the PR's RFDs (``only`` those) not yet reviewed at its head; post and commit."""
    changed = [c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg) if not c.removed]
    changed = [c for c in changed if only is None or str(c.file.rfd_id) in only]
    if not changed:
        ctx.reply(NOTHING_TO_REVIEW)
        return Reviewed(0, 0)
    done = {p.rfd for p in posted_reviews(ctx.forge.comments(pr.number))
            if p.reviewed == short(pr.head_sha)}  # fmt: skip
    todo = [c for c in changed if str(c.file.rfd_id) not in done]
    if not todo:
        ctx.summary.note(f"every RFD of #{pr.number} is already reviewed at {short(pr.head_sha)}")
        return Reviewed(0, len(changed))
    checkout = open_pull(ctx.root, pr, ctx.api, ctx.environ, paths=[c.file.path for c in changed])
    try:
        head = _review_in(ctx, pr, checkout, todo, model)
        status_comment.refresh(ctx, pr, checkout.root, head, changed)
    finally:
        close(ctx.root, checkout)
    return Reviewed(len(todo), len(changed) - len(todo))


def _review_in(ctx: Context, pr: PullRequest, checkout: Checkout, todo: list[ChangedRfd],
               model: str | None) -> str:  # fmt: skip
    from bot.review import review

    ws = open_workspace(ctx, checkout.root)
    results = [review(ws, str(c.file.rfd_id), model=model) for c in todo]
    message = COMMIT.format(ids=", ".join(r.rfd_id for r in results), what="review",
                            key=ctx.delivery.key)  # fmt: skip
    paths = [p for r in results for p in r.changed]
    head = commit_and_push(checkout, paths, message, ctx.environ) or pr.head_sha
    notes = [n for n in (offline_note(ws, model), checkout.note) if n]
    for result in results:
        saved = ws.rel(result.path) if checkout.writable else None
        body = review_comment(result, pr.head_sha, head, saved, notes)
        ctx.forge.create_comment(pr.number, body)
        ctx.summary.note(f"posted {result.message}")
    return head


def review_comment(result: ReviewOutcome, reviewed: str, head: str, saved: str | None,
                   notes: list[str]) -> str:  # fmt: skip
    """The review as posted: markers, the review's own markdown, notes (the review's own
    notices too: what was cut, the diff's base) and a footer."""
    markers = [review_marker(result.rfd_id, reviewed), head_marker(head)]
    notes = [*notes, *result.notices]
    return "\n".join([*markers, result.text.strip(), "", *(f"> {n}" for n in notes),
                      "", footer(result, reviewed, saved)])  # fmt: skip


def footer(result: ReviewOutcome, reviewed: str, saved: str | None) -> str:
    offline = result.review.reviewer == "offline"
    model = "offline structural checks" if offline else f"model `{result.model}`"
    tokens = f"{result.usage.total:,} tokens"
    cost = "cost unknown" if result.cost_usd is None else f"${result.cost_usd:.4f}"
    where = f"saved as `{saved}`" if saved else "not saved to the branch"
    return f"<sub>{model} · {tokens} · {cost} · of `{short(reviewed)}` · {where}</sub>"
