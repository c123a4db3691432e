"""The ``rfd:review`` label (and ``/rfd review``): review the PR's RFDs, commit the
reviews, post them (also inline, as a pull-request review), and finish a half-done run.

Every RFD the PR changes is reviewed: a design review for RFDs in Discussion, an
implementation review for Accepted ones (the lifecycle's ``review`` decides).  The review
files go back to the PR branch in one bot commit (trailer ``Rfd-Bot-Event: <delivery
key>``); then each review is posted with a footer (model, tokens, cost) and the label is
removed so it can be applied again.  A label applied again where every RFD is already
reviewed is taken off with a reply that links the reviews.

Commit first, post second.  When posting failed, the re-run of the same event finds the
commit by its trailer and posts the reviews from the committed files instead of
reviewing again: no second review, no second file.  Each records the RFD content of
that commit (its blob), not the branch's now: after a force-push to other text the
review is of an older revision, whatever the heads say.  A re-delivered event finds
its reviews by their marker and writes nothing.

With ``review.inline``, a review's blocker and major findings that name a line of the
PR's diff also become comments on that line, in one pull-request review (GitHub takes
none elsewhere: 422); the others stay in the review comment only.  That review opens
with ``<!-- rfd-bot:pr-review:<id>:<sha> -->`` (the RFD and the head reviewed): the bot
submits nothing when its own marked one is already there, so a re-run never submits a
second.  It is submitted before the review comment is posted: a run that fails between
the two is finished by its re-run, which posts the committed review and finds this
one.  With the option off none of this runs (no request at all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.diff_lines import commentable
from bot.core.github_markdown import code, inline
from bot.core.text import plural
from bot.forge.base import LineComment, PullRequest, carries, marker
from bot.github import review_post, status_comment
from bot.github.auth import authorize
from bot.github.bot_records import delivery_commit
from bot.github.checkout import (
    ChangedRfd,
    Checkout,
    blob_at,
    changed_rfds,
    close,
    committed_paths,
    open_pull,
    parent_of,
)
from bot.github.commands import REGISTRY, Verb
from bot.github.ops import NO_KEY, bot_commit, offline_note, open_workspace, refuse_label
from bot.github.review_post import (
    ICON,
    VISIBLE,
    Kept,
    PostedReview,
    Where,
    blob_markers,
    head_marker,
    posted_reviews,
    render,
    review_marker,
    review_numbers,
    short,
)
from bot.github.run import Context, cosmetic, run_url
from bot.model.reviews import Review, ReviewFinding

BODY = "{kind} of RFD {rid}: {shown} on the lines this pull request changes."
ELSEWHERE = " {n} on other lines {are} in the review comment only."
FINDING = "**{icon}{severity}** · {section}: {message}"
SUBMITTED = "submitted the inline review of RFD {rid} ({n})"
ALREADY = "the inline review of RFD {rid} at {sha} was already submitted"


def pr_review_marker(rid: str, reviewed: str) -> str:
    return marker("pr-review", f"{rid}:{short(reviewed)}")


def finding_text(finding: ReviewFinding) -> str:
    icon = f"{ICON[finding.severity]} " if ICON[finding.severity] else ""
    section, message = inline(finding.section), inline(finding.message)
    return FINDING.format(
        icon=icon, severity=finding.severity.value, section=section, message=message
    )


def line_comments(
    review: Review, path: str, on_diff: Callable[[int], bool]
) -> tuple[list[LineComment], int]:
    """The comments of the blocker/major findings on diff lines, and how many are elsewhere."""
    shown = [f for f in review.findings if f.severity in VISIBLE and f.line]
    placed = [
        LineComment(path, f.line, finding_text(f)) for f in shown if f.line and on_diff(f.line)
    ]
    return placed, len(shown) - len(placed)


def review_body(rid: str, review: Review, reviewed: str, placed: int, left: int) -> str:
    kind = "Implementation review" if review.kind == "implementation" else "Review"
    text = BODY.format(kind=kind, rid=rid, shown=plural(placed, "finding"))
    if left:
        text += ELSEWHERE.format(n=plural(left, "finding"), are="is" if left == 1 else "are")
    return f"{pr_review_marker(rid, reviewed)}\n{text}"


def submit_inline(ctx: Context, pr: PullRequest, rid: str, review: Review, where: Where) -> None:
    """Submit the review's inline comments once (``review.inline`` on, some line in the diff)."""
    if not ctx.cfg.review.inline:
        return
    changed = next((f for f in ctx.api.pull_files(pr.number) if f.path == where.path), None)
    if changed is None:
        return

    def on_diff(line: int) -> bool:
        return commentable(line, changed.status, changed.patch)

    placed, left = line_comments(review, where.path, on_diff)
    if not placed:
        return
    if _submitted(ctx, pr.number, pr_review_marker(rid, where.sha)):
        ctx.summary.note(ALREADY.format(rid=rid, sha=short(where.sha)))
        return
    body = review_body(rid, review, where.sha, len(placed), left)
    ctx.api.submit_review(pr.number, where.sha, body, placed)
    ctx.progress.append(SUBMITTED.format(rid=rid, n=plural(len(placed), "line comment")))


def _submitted(ctx: Context, number: int, mark: str) -> bool:
    """Is the bot's PR review carrying ``mark`` there already (a re-run, a re-delivery)?"""
    reviews = ctx.api.reviews(number)
    return any(carries(r.body, mark) and ctx.forge.is_mine(r.author) for r in reviews)


if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.reviews import Review

RESUMED = "posted by a re-run from the committed file"


def parse_review(text: str) -> Review:
    from bot.model.reviews import parse

    return parse(text)


def resume_reviews(
    ctx: Context,
    pr: PullRequest,
    checkout: Checkout,
    ws: Workspace,
    earlier: str,
    todo: list[ChangedRfd],
) -> set[str]:
    """Post the reviews of ``todo`` that the commit ``earlier`` holds; the RFDs posted."""
    paths = committed_paths(checkout, earlier)
    # what was reviewed: the event's head, unless that is the bot's commit (a live head)
    reviewed = parent_of(checkout, earlier) if earlier == pr.head_sha else pr.head_sha
    posted: set[str] = set()
    for changed in todo:
        rid = str(changed.file.rfd_id)
        folder = ws.rel(ws.store.dir(rid))
        saved = [p for p in paths if p.startswith(f"{folder}/") and "reviews/" in p]
        texts = [
            (p, (checkout.root / p).read_text(encoding="utf-8"))
            for p in saved
            if (checkout.root / p).is_file()
        ]
        rfd = changed.file.path
        where = Where.at(
            f"{ctx.server_url}/{pr.head_repo}",
            rfd,
            reviewed,
            (checkout.root / rfd).read_text(encoding="utf-8"),
        )
        for path, text in texts:
            of = (earlier, blob_at(checkout, earlier, changed.file.path))
            submit_inline(ctx, pr, rid, parse_review(text), where)
            number = next(iter(review_numbers(ws, rid, [path])), None)
            kept = Kept(path, number, run_url(ctx.environ))
            ctx.forge.create_comment(pr.number, resumed_comment(rid, text, where, of, kept))
            ctx.progress.append(f"review of RFD {rid} posted")
            ctx.summary.note(f"posted the review of RFD {rid} committed as {short(earlier)}")
        if texts:
            posted.add(rid)
    return posted


def resumed_comment(rid: str, text: str, where: Where, of: tuple[str, str], kept: Kept) -> str:
    """The comment of a committed review (the file has no tokens or cost: the footer says so);
    ``of``: the head with the bot's commit and the RFD's blob reviewed."""
    head, blob = of
    review = parse_review(text)
    offline = review.reviewer == "offline"
    model = "offline structural checks" if offline else f"model {code(review.model)}"
    notes = [f"> {NO_KEY}", ""] if offline else []
    markers = [review_marker(rid, where.sha), head_marker(head), *blob_markers(blob)]
    saved = f"saved as {code(kept.saved or '')}"
    parts = [model, f"of {where.commit()}", saved, RESUMED, *where.run_link(kept)]
    text = render(review, rid=rid, where=where, number=kept.number)
    return "\n".join([*markers, text, *notes, f"<sub>{' · '.join(parts)}</sub>"])


if TYPE_CHECKING:
    from bot.lifecycle.review import ReviewOutcome

NOTHING_TO_REVIEW = "This pull request changes no RFD: there is nothing to review."
FINISHED = "✅ Finished by a re-run of this job: {n} posted above, the label taken off."
ALREADY_REVIEWED = (
    "Already reviewed at this revision (`{sha}`): {links}. Nothing was done; push a change "
    "to the RFD, then apply the label again for a fresh review."
)


@dataclass(frozen=True)
class Reviewed:
    posted: int
    already: int
    found: tuple[PostedReview, ...] = ()
    """The reviews that were already there, of this revision."""


def already_reviewed(found: tuple[PostedReview, ...], head: str) -> str:
    links = ", ".join(f"[RFD {p.rfd}]({p.comment.url})" for p in found) or "see the reviews above"
    return ALREADY_REVIEWED.format(sha=short(head), links=links)


def on_label(ctx: Context) -> None:
    pr = ctx.delivery.pull_request
    assert pr is not None
    label = ctx.cfg.labels.review
    what = f"the {label} label"
    decision = authorize(
        REGISTRY[Verb.REVIEW], ctx.delivery.actor, ctx.cfg, ctx.api.permission, what=what
    )
    if not decision.allowed:
        refuse_label(ctx, pr.number, label, decision.reason)
        return
    done = review_pr(ctx, pr)
    failed_before = ctx.failure_report() is not None
    if not done.posted and done.already and not failed_before:
        if any(ctx.written_after_event(p.comment) for p in done.found):
            return  # a re-delivery: its reviews are the answer and the label was taken off
        ctx.reply(already_reviewed(done.found, pr.head_sha))
    ctx.forge.remove_label(pr.number, label)
    if failed_before:  # an earlier run of this event failed after posting: now it is finished
        ctx.settle_failure(FINISHED.format(n=plural(done.posted + done.already, "review")))


def review_pr(
    ctx: Context, pr: PullRequest, model: str | None = None, *, only: list[str] | None = None
) -> Reviewed:
    """Review the PR's RFDs (``only`` those) not yet reviewed at its head; post and commit."""
    changed = [
        c for c in changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root) if not c.removed
    ]
    changed = [c for c in changed if only is None or str(c.file.rfd_id) in only]
    if not changed:
        ctx.reply(NOTHING_TO_REVIEW)
        return Reviewed(0, 0)
    blobs = {str(c.file.rfd_id): c.blob for c in changed}
    found = tuple(
        p
        for p in posted_reviews(ctx.forge.comments(pr.number))
        if p.rfd in blobs and p.is_current(pr.head_sha, blobs[p.rfd])
    )
    todo = [c for c in changed if str(c.file.rfd_id) not in {p.rfd for p in found}]
    if not todo:
        ctx.summary.note(f"every RFD of #{pr.number} is already reviewed at {short(pr.head_sha)}")
        return Reviewed(0, len(changed), found)
    checkout = open_pull(
        ctx.root,
        pr,
        ctx.api,
        ctx.environ,
        paths=[c.file.path for c in changed],
        guarded=[ctx.cfg.rfd_dir],
    )
    try:
        head = _review_in(ctx, pr, checkout, todo, model)
        with cosmetic(ctx.summary, "refreshing the status comment"):
            status_comment.refresh(ctx, pr, checkout.root, head, changed)
    finally:
        close(ctx.root, checkout)
    return Reviewed(len(todo), len(changed) - len(todo))


def _review_in(
    ctx: Context, pr: PullRequest, checkout: Checkout, todo: list[ChangedRfd], model: str | None
) -> str:
    from bot.lifecycle.review import review

    ws = open_workspace(ctx, checkout.root, pr)
    earlier = delivery_commit(ctx, checkout, pr.number)
    resumed = resume_reviews(ctx, pr, checkout, ws, earlier, todo) if earlier else set()
    results = [
        review(ws, str(c.file.rfd_id), model=model)
        for c in todo
        if str(c.file.rfd_id) not in resumed
    ]
    if not results:
        return earlier or pr.head_sha
    ids = ", ".join(r.rfd_id for r in results)
    noted = f"review of RFD {ids} committed to `{{branch}}` as {{sha}}; not yet posted"
    sha = bot_commit(
        ctx, checkout, [p for r in results for p in r.changed], ids, "review", noted=noted
    )
    head = sha or pr.head_sha
    notes = [n for n in (offline_note(ws, model), checkout.note) if n]
    paths = {str(c.file.rfd_id): c.file.path for c in todo}
    blobs = {str(c.file.rfd_id): c.blob for c in todo}
    for result in results:
        saved = ws.rel(result.path) if checkout.writable else None
        web = f"{ctx.server_url}/{pr.head_repo or ctx.delivery.repository}"
        path = paths[result.rfd_id]
        where = Where.at(web, path, pr.head_sha, (checkout.root / path).read_text("utf-8"))
        number = next(iter(review_numbers(ws, result.rfd_id, [saved] if saved else [])), None)
        kept = Kept(saved, number, run_url(ctx.environ))
        body = review_comment(result, (head, blobs.get(result.rfd_id, "")), kept, notes, where)
        submit_inline(ctx, pr, result.rfd_id, result.review, where)
        ctx.forge.create_comment(pr.number, body)
        ctx.progress.append(f"review of RFD {result.rfd_id} posted")
        ctx.summary.note(f"posted {result.message}")
    return head


def review_comment(
    result: ReviewOutcome, of: tuple[str, str], kept: Kept, notes: list[str], where: Where
) -> str:
    """The review as posted: markers (``of``: the head after the bot's commit and the RFD's
    blob reviewed), the verdict-first review under its number, notes (the review's own
    notices too: what was cut, the diff's base) and a footer."""
    head, blob = of
    markers = [review_marker(result.rfd_id, where.sha), head_marker(head), *blob_markers(blob)]
    notes = [*notes, *result.notices]
    text = review_post.render(result.review, rid=result.rfd_id, where=where, number=kept.number)
    return "\n".join(
        [*markers, text, *(f"> {inline(n)}" for n in notes), "", footer(result, where, kept)]
    )


def footer(result: ReviewOutcome, where: Where, kept: Kept) -> str:
    """Who reviewed, what it cost (not for offline checks), which commit (linked), where it
    is kept, and the run that made it."""
    place = f"saved as {code(kept.saved)}" if kept.saved else "not saved to the branch"
    run = where.run_link(kept)
    if result.review.reviewer == "offline":
        parts = ["offline structural checks", f"of {where.commit()}", place, *run]
    else:
        cost = "cost unknown" if result.cost_usd is None else f"${result.cost_usd:.4f}"
        parts = [
            f"model {code(result.model)}",
            f"{result.usage.total:,} tokens",
            cost,
            f"of {where.commit()}",
            place,
            *run,
        ]
    return f"<sub>{' · '.join(parts)}</sub>"
