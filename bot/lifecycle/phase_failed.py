"""A phase that ended with failed items, shown on its tracking issue (the phase stays unticked).

One comment per phase, found by its hidden marker and edited in place, so running
implement again changes it rather than adding another.  The failed items come as the
implement step lists them (labels and reasons as code spans: model text cannot become
markdown structure there).
"""

from __future__ import annotations

from bot.forge.base import Comment, marker, upsert_comment
from bot.lifecycle.tracking_issue import tracking_marker
from bot.lifecycle.workspace import Workspace

KIND = "phase-failed"
BODY = (
    "⚠️ Phase {label} of RFD {rid} ({title}) is not recorded: some items failed.\n{items}\n"
    "Fix them and run `rfd implement {rid}` again (it retries them), or record the phase as "
    "it is: `rfd phase {rid} done {label} --summary {kept}`."
)


def report_failed(
    ws: Workspace, rid: str, label: str, title: str, items: str, kept: str
) -> Comment | None:
    """Post (or edit) the failed-items comment on the RFD's tracking issue; None without one."""
    issue = ws.forge.find_issue(tracking_marker(rid))
    if issue is None:
        return None
    body = BODY.format(
        rid=rid, label=label, title=f"`{title.replace('`', chr(39))}`", items=items, kept=kept
    )
    comment, _ = upsert_comment(ws.forge, issue.number, marker(KIND, f"{rid}-{label}"), body)
    return comment
