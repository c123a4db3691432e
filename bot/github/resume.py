"""Finishing an event an earlier run left half-done: its review commit is on the branch.

A run commits the review files first and posts them second.  When posting failed,
the re-run of the same event finds the commit by its ``Rfd-Bot-Event`` trailer and
posts the reviews from the committed files: no second review, no second file.  Each
records the RFD content of that commit (its blob), not the branch's now: after a
force-push to other text the review is of an older revision, whatever the heads say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.markdown_safe import inline
from bot.forge.base import PullRequest
from bot.github.changed import ChangedRfd
from bot.github.checkout import Checkout, blob_at, committed_paths, parent_of
from bot.github.context import Context
from bot.github.inline_review import submit_inline
from bot.github.ops import NO_KEY
from bot.github.review_post import Kept, Where, render
from bot.github.revisions import blob_markers, head_marker, review_marker, review_numbers, short
from bot.github.run_link import run_url

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
    model = "offline structural checks" if offline else f"model `{inline(review.model)}`"
    notes = [f"> {NO_KEY}", ""] if offline else []
    markers = [review_marker(rid, where.sha), head_marker(head), *blob_markers(blob)]
    saved = f"saved as `{inline(kept.saved or '')}`"
    parts = [model, f"of {where.commit()}", saved, RESUMED, *where.run_link(kept)]
    text = render(review, rid=rid, where=where, number=kept.number)
    return "\n".join([*markers, text, *notes, f"<sub>{' · '.join(parts)}</sub>"])
