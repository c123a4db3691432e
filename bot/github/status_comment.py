"""The one status comment per pull request, edited in place as the PR changes.

It lists the RFDs the PR changes: status, reviews (and whether they are of an
older revision), plan progress, tracking issue, and the commands available.
When new commits arrive, review comments of earlier revisions get a banner.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from bot.comments import marker
from bot.config import Config
from bot.discovery import read
from bot.errors import RfdError
from bot.github.api import PullRequest
from bot.github.changed import ChangedRfd, changed_rfds
from bot.github.checkout import close, open_pull
from bot.github.context import Context
from bot.github.revisions import PostedReview, posted_reviews, short, with_stale_banner
from bot.state import StateStore
from bot.status import Status
from bot.text import plural

HEADER = "### RFDs in this pull request"
COMMANDS = (
    "Label `{review}` or comment `/rfd review` for a review · `/rfd refine` · "
    "`/rfd dismiss <n…|all>` · label `{accept}` or `/rfd accept` · `/rfd status` · `/rfd help`"
)

SIGNING = " · `/rfd approve` · `/rfd concern <text>` · `/rfd resolve <n>` · `/rfd fcp`"


@dataclass(frozen=True)
class Row:
    changed: ChangedRfd
    title: str = ""
    status: str = ""
    reviews: int = 0
    impl_reviews: int = 0
    plan: str = "—"
    tracking: int | None = None
    problem: RfdError | None = None
    decision: tuple[str, ...] = ()
    """The sign-offs block (``[consensus]``): who approved, open concerns, the FCP."""


def read_row(root: Path, cfg: Config, changed: ChangedRfd, now: float | None = None) -> Row:
    """What the PR's version of one RFD says (a broken file becomes ``problem``)."""
    if changed.removed:
        return Row(changed, status="removed")
    try:
        doc = read(root, changed.file)
    except RfdError as err:
        return Row(changed, problem=err)
    store = StateStore(root, cfg)
    state = store.read(changed.file.rfd_id)
    plan = f"{state.done}/{plural(state.total, 'phase')}" if state.plan else "—"
    try:
        decision = _decision(store, cfg, doc.text, str(changed.file.rfd_id), now or time.time())
    except RfdError as err:
        return Row(changed, doc.title, problem=err)
    return Row(changed, doc.title, doc.status.value, len(state.reviews), len(state.impl_reviews),
               plan, doc.tracking_issue, decision=decision)  # fmt: skip


def _decision(store: StateStore, cfg: Config, text: str, rid: str, now: float) -> tuple[str, ...]:
    if not cfg.consensus.enabled:
        return ()
    from bot.consensus import revision
    from bot.consensus_gate import block

    ledger = store.read_consensus(rid)
    heading = f"#### Decision on RFD {rid}"
    return tuple(block(cfg.consensus, ledger, rid, revision(text), now, heading))


def read_rows(ctx: Context, pr: PullRequest) -> list[Row]:
    """Rows of every RFD the PR changes; empty when it changes none (no checkout made)."""
    changed = changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg)
    if not changed:
        return []
    paths = [c.file.path for c in changed]
    checkout = open_pull(ctx.root, pr, ctx.api, ctx.environ, paths=paths, guarded=[ctx.cfg.rfd_dir])
    try:
        rows = [read_row(checkout.root, ctx.cfg, c, ctx.clock()) for c in changed]
        annotate_lint(ctx, checkout.root, rows)
        return rows
    finally:
        close(ctx.root, checkout)


def _reviews_cell(row: Row, posted: list[PostedReview], head: str) -> str:
    count = row.reviews + row.impl_reviews
    older = sum(
        1 for p in posted if p.rfd == str(row.changed.file.rfd_id) and not p.is_current(head)
    )
    text = str(count) if count else "none"
    return f"{text} ({older} of an older revision)" if older else text


def render(rows: list[Row], posted: list[PostedReview], *, repo: str, head: str,
           ctx: Context, header: str = HEADER) -> str:  # fmt: skip
    """The status table of ``rows`` at ``head`` (a sha or a branch) of ``repo``."""
    lines = [header, "", f"At `{short(head)}`.", "",
             "| RFD | status | reviews | plan | tracking |", "|---|---|---|---|---|"]  # fmt: skip
    for row in rows:
        url = f"{ctx.server_url}/{repo}/blob/{head}/{row.changed.file.path}"
        rfd = f"[RFD {row.changed.file.rfd_id}]({url}) {row.title}".strip()
        if row.problem is not None:
            lines.append(f"| {rfd} | ⚠️ {row.problem.message} | | | |")
            continue
        tracking = f"#{row.tracking}" if row.tracking else "—"
        reviews = _reviews_cell(row, posted, head)
        lines.append(f"| {rfd} | {row.status} | {reviews} | {row.plan} | {tracking} |")
    for row in rows:
        if row.decision and row.problem is None:
            lines += ["", *row.decision]
    labels = ctx.cfg.labels
    commands = COMMANDS.format(review=labels.review, accept=labels.accept)
    if ctx.cfg.consensus.enabled:
        commands += SIGNING
    return "\n".join([*lines, "", commands])


def annotate_lint(ctx: Context, root: Path, rows: list[Row]) -> None:
    """Lint findings of the changed RFDs as annotations on the PR's diff."""
    from bot.discovery import scan
    from bot.lint import LintSettings, lint_text

    files = scan(root, ctx.cfg)
    settings = LintSettings.of(ctx.cfg.lint)
    known = {f.rfd_id: Status.DRAFT if f.rfd_id.draft else Status.DISCUSSION for f in files}
    count = 0
    for row in rows:
        if row.changed.removed or row.problem is not None:
            continue
        path = row.changed.file.path
        text = (root / path).read_text(encoding="utf-8")
        for f in lint_text(text, path, known=known, file=row.changed.file, settings=settings):
            level = "error" if f.severity.name == "ERROR" else "warning"
            ctx.summary.annotate(level, f"{f.code} {f.message} ({f.hint})", file=path, line=f.line)
            count += 1
    if count:
        ctx.summary.note(f"{plural(count, 'lint finding')} annotated on the changed RFDs")


def on_pull_request(ctx: Context) -> None:
    """``pull_request`` opened / synchronize / reopened."""
    pr = ctx.delivery.pull_request
    assert pr is not None
    if not post_status(ctx, pr):
        ctx.summary.note(f"#{pr.number} changes no RFD: nothing to do")


def post_status(ctx: Context, pr: PullRequest) -> bool:
    """Post or edit ``pr``'s status comment and mark reviews of older revisions.

    False when the PR changes no RFD.  Shared with ``reconcile``, which rebuilds the
    comment of every open PR this way; the job summary notes what was written.
    """
    rows = read_rows(ctx, pr)
    if not rows:
        return False
    for row in rows:
        if row.problem is not None:
            ctx.summary.problem(row.problem)
    posted = posted_reviews(ctx.forge.comments(pr.number))
    body = render(rows, posted, repo=pr.head_repo, head=pr.head_sha, ctx=ctx)
    ctx.upsert("status", pr.number, body, number=pr.number)
    mark_older(ctx, pr, posted)
    return True


def refresh(
    ctx: Context, pr: PullRequest, root: Path, head: str, changed: list[ChangedRfd]
) -> None:
    """After the bot changed the PR (a review, a dismissal): edit the status comment, if any."""
    comments = ctx.forge.comments(pr.number)
    if not any(marker("status", pr.number) in c.body for c in comments):
        return
    rows = [read_row(root, ctx.cfg, c, ctx.clock()) for c in changed]
    body = render(rows, posted_reviews(comments), repo=pr.head_repo, head=head, ctx=ctx)
    ctx.upsert("status", pr.number, body)


def mark_older(ctx: Context, pr: PullRequest, posted: list[PostedReview]) -> None:
    for review in posted:
        if not review.is_current(pr.head_sha) and not review.marked_stale:
            ctx.forge.edit_comment(pr.number, review.comment.id, with_stale_banner(review))
            ctx.summary.note(f"review of RFD {review.rfd} marked as of an older revision")
