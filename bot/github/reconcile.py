"""``workflow_dispatch`` / ``schedule``: repair drift and report it.

Every accepted or implemented RFD's tracking issue is synced from the files
(created if missing, phases ticked, closed when done); an RFD header that does
not link its issue is reported with the line to commit (this job may not write
files, see ``tracked.unlinked``).  On every open pull
request, a review or accept label left behind by a run that died is removed
(so applying it again starts a new run), an elapsed final comment period is
ended (see :mod:`bot.github.fcp_end`), and the status comment is rebuilt
from the PR's files — edited in place by its marker, created if missing.  On open
tracking issues and PRs, the progress comment of a run that died says it ended.  A
trigger label renamed in ``[labels]`` is created and the old one, which no longer triggers
anything, reported.  Everything is idempotent: a second run finds nothing to change and
writes nothing.  The job summary says what changed.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.errors import InvalidStructure
from bot.core.text import plural
from bot.forge.base import PullRequest
from bot.github.fcp_end import end_elapsed
from bot.github.ops import open_workspace
from bot.github.progress import repair
from bot.github.run import Context
from bot.github.status_comment import post_status
from bot.github.tracked import sync

STALE_AFTER = timedelta(minutes=30)
"""A label older than the label job's timeout (20 minutes) was left by a run that died."""
NOTHING = "reconcile: nothing to repair, {writes}"
SKIPPED = "#{number}: status comment not rebuilt (its branch is refused, see above)"
DONE = "reconcile: {writes}"


def on_dispatch(ctx: Context) -> None:
    from bot.events import TrackingIssueUpdated

    ws = open_workspace(ctx, ctx.root)
    renamed_labels(ctx)
    issues: list[int] = []

    def open_issue(event: TrackingIssueUpdated) -> None:
        if not event.closed:
            issues.append(event.number)

    ws.bus.subscribe(TrackingIssueUpdated, open_issue, owner="reconcile")
    sync(ctx, ws, [str(f.rfd_id) for f in ws.files()])
    for pr in ctx.api.open_pulls():
        for line in remove_stale_labels(ctx, pr) + end_elapsed(ctx, pr):
            ctx.summary.note(line)
        try:
            post_status(ctx, pr)  # notes each comment posted, updated or unchanged
            issues.append(pr.number)  # its comments are read now: dead runs' progress too
        except InvalidStructure as err:  # a link on the PR's branch: said, the others go on
            ctx.summary.problem(err)
            ctx.summary.note(SKIPPED.format(number=pr.number))
    for number in dict.fromkeys(issues):  # tracking issues and PRs: where progress is shown
        for line in repair(ctx, number):
            ctx.summary.note(line)
    writes = ctx.forge.pacer.writes
    ctx.summary.note((DONE if writes else NOTHING).format(writes=plural(writes, "write")))


def renamed_labels(ctx: Context) -> None:
    """A trigger label renamed in ``[labels]`` is created, and the old one, still on the
    repository and triggering nothing any more, reported (no request when none is renamed)."""
    from bot.core.errors import ConfigError
    from bot.lifecycle.workflow_setup import renamed_labels as check

    repository = ctx.environ.get("GITHUB_REPOSITORY", "the repository")
    for line, warning in check(ctx.forge, ctx.cfg, repository):
        if warning:
            ctx.summary.problem(ConfigError(line), level="warning")
        else:
            ctx.summary.note(line)


def remove_stale_labels(ctx: Context, pr: PullRequest) -> list[str]:
    """Remove the review/accept labels a dead run left on ``pr``; what was removed."""
    ours = (ctx.cfg.labels.review, ctx.cfg.labels.accept)
    stale = [label for label in pr.labels if label in ours]
    if not stale or not _older_than(pr.updated_at, ctx.clock(), STALE_AFTER):
        return []
    for label in stale:
        ctx.forge.remove_label(pr.number, label)
    return [
        f"#{pr.number}: removed `{label}` (its run ended without removing it): "
        "apply it again to retry"
        for label in stale
    ]


def _older_than(stamp: str, now: float, age: timedelta) -> bool:
    """Was ``stamp`` (ISO 8601) more than ``age`` before ``now``? Unknown times are not."""
    try:
        then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return False
    return now - then.timestamp() > age.total_seconds()
