"""The one status comment per pull request: the PR's dashboard, edited in place.

For each RFD the PR changes it shows the lifecycle with the current status marked,
the next step and who may take it, the reviews numbered as ``/rfd dismiss`` takes
them and the lint findings (annotated on the diff).  Every bot action on the PR
refreshes it as part of its run (the bot's own pushes start no workflow), and the
PR's lifecycle label follows.  When new commits arrive, review comments of earlier
revisions get a banner.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from bot.config.site_address import page_url
from bot.core.text import plural
from bot.forge.base import Comment, PullRequest
from bot.forge.comments import marker
from bot.github import dashboard
from bot.github.changed import ChangedRfd, changed_rfds
from bot.github.checkout import close, open_pull
from bot.github.commands import command_table, who_may
from bot.github.context import Context
from bot.github.labels import sync_labels
from bot.github.panels import Row, panel, read_row
from bot.github.revisions import (
    DISMISSED_MARK,
    STALE_MARK,
    PostedReview,
    brought_up_to_date,
    posted_reviews,
    short,
)
from bot.github.verb_specs import REGISTRY, Verb
from bot.model.status import Status

Lint = dict[str, tuple[int, int]]


def read_rows(ctx: Context, pr: PullRequest) -> tuple[list[Row], Lint]:
    """Rows and lint counts of every RFD the PR changes; empty when it changes none (no
    checkout made)."""
    changed = changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg)
    if not changed:
        return [], {}
    paths = [c.file.path for c in changed]
    checkout = open_pull(ctx.root, pr, ctx.api, ctx.environ, paths=paths, guarded=[ctx.cfg.rfd_dir])
    try:
        if ctx.cfg.consensus.enabled:
            from bot.github.bot_records import trust_ledgers

            trust_ledgers(ctx, checkout, pr.number)
        web = f"{ctx.server_url}/{pr.head_repo}"
        rows = [read_row(checkout.root, ctx.cfg, c, ctx.clock(), web) for c in changed]
        return rows, lint(ctx, checkout.root, rows)
    finally:
        close(ctx.root, checkout)


def lint(ctx: Context, root: Path, rows: list[Row]) -> Lint:
    """Lint the changed RFDs: each finding an annotation on the PR's diff; the counts
    ``(errors, warnings)`` by path."""
    from bot.config.discovery import scan
    from bot.lifecycle.lint import LintSettings, lint_text

    files = scan(root, ctx.cfg)
    settings = LintSettings.of(ctx.cfg.lint)
    known = {f.rfd_id: Status.DRAFT if f.rfd_id.draft else Status.DISCUSSION for f in files}
    counts: Lint = {}
    for row in rows:
        if row.changed.removed or row.problem is not None:
            continue
        path = row.changed.file.path
        text = (root / path).read_text(encoding="utf-8")
        found = lint_text(text, path, known=known, file=row.changed.file, settings=settings)
        for f in found:
            level = "error" if f.severity.name == "ERROR" else "warning"
            ctx.summary.annotate(level, f"{f.code} {f.message} ({f.hint})", file=path, line=f.line)
        errors = sum(1 for f in found if f.severity.name == "ERROR")
        counts[path] = (errors, len(found) - errors)
    total = sum(e + w for e, w in counts.values())
    if total:
        ctx.summary.note(f"{plural(total, 'lint finding')} annotated on the changed RFDs")
    return counts


def status_body(
    ctx: Context, rows: list[Row], lint: Lint, posted: list[PostedReview], *, repo: str, head: str
) -> str:
    """The status comment of ``rows`` at ``head`` (a sha or a branch) of ``repo``."""
    panels = []
    for row in rows:
        path = row.changed.file.path
        web = f"{ctx.server_url}/{repo}"
        url = f"{web}/blob/{quote(head)}/{quote(path)}"
        found = panel(row, posted, url=url, head=head, lint=lint.get(path, (0, 0)), web=web)
        site = page_url(ctx.cfg.site.url, row.changed.file.rfd_id)
        panels.append(_with_forged(ctx, replace(found, site=site) if site else found))
    cfg = ctx.cfg
    who = dashboard.Who(who_may(REGISTRY[Verb.REVIEW], cfg), who_may(REGISTRY[Verb.ACCEPT], cfg))
    labels = cfg.labels
    return dashboard.render(
        panels,
        head=short(head),
        who=who,
        review_label=labels.review,
        accept_label=labels.accept,
        commands=command_table(cfg),
    )


def _with_forged(ctx: Context, made: dashboard.Panel) -> dashboard.Panel:
    """``made`` whose Decision block also says what edited or deleted sign-off comments now
    count for, and names the ledger entries written by hand on the branch that it left out
    (:mod:`bot.github.bot_records`)."""
    from bot.github.bot_records import followed_line, forged_line

    notes, found = ctx.followed.get(made.rfd_id), ctx.forged.get(made.rfd_id)
    lines = [followed_line(made.rfd_id, notes)] if notes else []
    lines += [forged_line(made.rfd_id, found)] if found else []
    if not lines:
        return made
    return replace(
        made, decision=(*made.decision, *(x for line in lines for x in ("", f"> {line}")))
    )


def on_pull_request(ctx: Context) -> None:
    """``pull_request`` opened / synchronize / reopened."""
    pr = ctx.delivery.pull_request
    assert pr is not None
    if post_status(ctx, pr) is None:
        ctx.summary.note(f"#{pr.number} changes no RFD: nothing to do")


def post_status(ctx: Context, pr: PullRequest) -> Comment | None:
    """Post or edit ``pr``'s status comment, sync its label, mark reviews of older revisions.

    None when the PR changes no RFD.  Shared with ``reconcile``, which rebuilds the
    comment of every open PR this way; the job summary notes what was written.
    """
    rows, counts = read_rows(ctx, pr)
    if not rows:
        return None
    for row in rows:
        if row.problem is not None:
            ctx.summary.problem(row.problem)
    posted = posted_reviews(ctx.forge.comments(pr.number))
    body = status_body(ctx, rows, counts, posted, repo=pr.head_repo, head=pr.head_sha)
    found = _write(ctx, pr, body, rows)
    update_reviews(ctx, pr, posted, rows, head=pr.head_sha)
    return found


def refresh(
    ctx: Context,
    pr: PullRequest,
    root: Path,
    head: str,
    changed: list[ChangedRfd] | None = None,
    *,
    dismissed_by: str = "",
) -> Comment:
    """After the bot changed the PR (accept, review, dismiss, refine, done): the status
    comment and the label as of ``head``, read from the checkout at ``root``; the review
    comments renumbered, a dismissed one folded (``dismissed_by``: who dismissed it)."""
    if changed is None:
        changed = changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg)
    web = f"{ctx.server_url}/{pr.head_repo}"
    rows = [read_row(root, ctx.cfg, c, ctx.clock(), web) for c in changed]
    posted = posted_reviews(ctx.forge.comments(pr.number))
    body = status_body(ctx, rows, lint(ctx, root, rows), posted, repo=pr.head_repo, head=head)
    found = _write(ctx, pr, body, rows)
    update_reviews(ctx, pr, posted, rows, by=dismissed_by)
    return found


def _write(ctx: Context, pr: PullRequest, body: str, rows: list[Row]) -> Comment:
    """Write the status comment; when it changed, the PR's lifecycle label follows (an
    unchanged comment means the label was synced when it was written: no request)."""
    before = ctx.forge.find_comment(pr.number, marker("status", pr.number))
    found = ctx.upsert("status", pr.number, body, number=pr.number, proofs=True)
    if found != before:
        sync_labels(ctx, pr.number, pr.labels, [r.status for r in rows if r.status])
    return found


def update_reviews(
    ctx: Context,
    pr: PullRequest,
    posted: list[PostedReview],
    rows: list[Row],
    *,
    head: str = "",
    by: str = "",
) -> None:
    """Bring the bot's review comments in line with the branch: a dismissed one folded (by
    ``by``, when known), the others under the number they have now; with ``head`` (a push),
    those of another content of their RFD get a banner.  One edit per comment that changed."""
    web = f"{ctx.server_url}/{pr.head_repo}"
    for row in rows:
        if row.changed.removed or row.problem is not None:
            continue  # what is on file is not known: nothing is renumbered or dismissed
        numbers = {name: n for n, (name, _) in enumerate(row.reviews, start=1)}
        for review in (p for p in posted if p.rfd == str(row.changed.file.rfd_id)):
            current = not head or review.is_current(head, row.changed.blob)
            number = numbers.get(review.saved_name or "")
            body = brought_up_to_date(review, number, current=current, web=web, by=by)
            if body != review.comment.body:
                ctx.forge.edit_comment(pr.number, review.comment.id, body)
                ctx.summary.note(f"review of RFD {review.rfd} {_why(body)}")


def _why(body: str) -> str:
    if DISMISSED_MARK in body:
        return "marked as dismissed, its text folded"
    return "marked as of an older revision" if STALE_MARK in body else "renumbered"
