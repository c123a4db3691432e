"""Which RFDs a default-branch push touches, and syncing their tracking issues.

Shared by ``push`` (the RFDs the pushed commits touch) and ``reconcile`` (every
accepted RFD) through ``tracking.due``, which the forge answers: it re-reads the
issue and merges, so a person's ticks and text outside the bot region survive,
and an unchanged issue costs no write.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.config.load import Config
from bot.core.errors import RfdError
from bot.forge.base import leading_markers
from bot.github.checkout import as_rfd
from bot.github.run import Context
from bot.model.header import normalize_key
from bot.model.ids import RfdId
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.forge.base import Issue
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document

TRACKED = (Status.ACCEPTED, Status.IMPLEMENTED, Status.ABANDONED, Status.SUPERSEDED)
"""Statuses whose tracking issue the bot keeps: open, closed as done or as not planned."""
_TRACKING = re.compile(r"<!-- rfd-bot:tracking:(?P<rfd>[A-Za-z0-9]+) -->")


def rfd_of_issue(body: str) -> str | None:
    """The RFD a tracking issue tracks (from the hidden marker opening it), if it is one."""
    found = next((m for m in map(_TRACKING.fullmatch, leading_markers(body)) if m), None)
    return found["rfd"] if found else None


STATE_FILES = ("plan.json", "phases/")


def touched_rfds(paths: Iterable[str], cfg: Config) -> set[str]:
    """RFD ids whose file, plan or phase summaries the paths touch."""
    found: set[str] = set()
    state = f"{cfg.state_root}/"
    for path in paths:
        rfd = as_rfd(path, cfg)
        if rfd is not None:
            found.add(str(rfd.rfd_id))
        elif path.startswith(state):
            key, _, rest = path[len(state) :].partition("/")
            if rest.startswith(STATE_FILES) and _is_id(key):
                found.add(str(RfdId.parse(key)))
    return found


def _is_id(key: str) -> bool:
    try:
        RfdId.parse(key)
    except RfdError:
        return False
    return True


def sync(ctx: Context, ws: Workspace, ids: Iterable[str]) -> None:
    """Sync the tracking issue of each accepted or implemented RFD among ``ids``."""
    from bot.events import TrackingIssueUpdated
    from bot.lifecycle.tracking_issue import track

    def report(event: TrackingIssueUpdated) -> None:
        what = "created" if event.created else "closed" if event.closed else "in sync"
        ctx.summary.note(f"RFD {event.rfd_id}: tracking issue #{event.number} {what}")

    ws.bus.subscribe(TrackingIssueUpdated, report, owner="github")
    for rid in sorted(ids):
        try:
            doc = ws.document(rid)
        except RfdError as err:
            ctx.summary.problem(err, level="warning")
            continue
        if doc.status in TRACKED and ws.store.read_plan(rid):
            problem = unlinked(doc, track(ws, rid, "sync"))
            if problem is not None:
                ctx.summary.problem(problem, level="warning")


UNLINKED = "RFD {rid}'s header does not link its tracking issue #{number}"
MISLINKED = "RFD {rid}'s header links #{linked}, but its tracking issue is #{number}"
LINK_HINT = (
    "{verb} `- **Tracking Issue**: [#{number}]({url})` in the header and commit it to the "
    "default branch: the bot's jobs there may not write to the repository's files"
)


def unlinked(doc: Document, issue: Issue) -> RfdError | None:
    """What the RFD's header lacks to link ``issue`` back (None when it does).

    The tracking issue links the RFD from its body; the header's link is written by
    accept, on the PR branch.  A default-branch job (push, reconcile) has read-only
    contents, so it reports a missing or wrong link with the exact line to commit.
    """
    linked = doc.tracking_issue
    if linked == issue.number:
        return None
    field = next((f for f in doc.fields if normalize_key(f.key) == "tracking issue"), None)
    line = field.line if field else doc.heading_line
    rid, number = str(doc.rfd_id), issue.number
    message = (
        UNLINKED.format(rid=rid, number=number)
        if linked is None
        else MISLINKED.format(rid=rid, linked=linked, number=number)
    )
    verb = "add the line" if field is None else "make that line"
    hint = LINK_HINT.format(verb=verb, number=number, url=issue.url)
    return RfdError(message, path=doc.path, line=line, hint=hint)
