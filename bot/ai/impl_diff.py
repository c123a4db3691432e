"""The diff an implementation review sees: the code changed since the RFD was accepted.

The acceptance commit is derived from history, not stored: among the commits that
changed the RFD (renames followed), newest first, it is the oldest of the unbroken run
whose version of the file says ``Accepted`` — the commit that set the status.  The diff
runs from there to the working tree.  When it cannot be found (the acceptance is not
committed yet, a shallow clone stops before it, no git) the review falls back to
``rfd.main_branch`` and says so: to the model in the diff's label, to the person in a
notice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import RfdError
from bot.model import document
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.core.vcs import Vcs
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document

NO_GIT = "not a git repository: the implementation review sees no diff"
NOT_FOUND = (
    "the commit that accepted RFD {rid} was not found in the git history (is the acceptance "
    "committed? is the clone shallow?): the implementation review sees the diff against "
    "{main!r} instead"
)


@dataclass(frozen=True)
class ReviewDiff:
    text: str
    """The diff itself; empty when there is none."""
    label: str
    """How the model is told what the diff is measured from."""
    notices: tuple[str, ...] = ()


def acceptance_commit(
    history: Sequence[tuple[str, str]],
    read: Callable[[str, str], str | None],
    *,
    complete: bool = True,
) -> str | None:
    """The commit that set the status to Accepted, from ``(commit, path)`` newest first.

    A file Accepted in the oldest commit there is was added Accepted — unless the history
    is not ``complete`` (a shallow clone), where the acceptance may lie further back."""
    found = None
    for sha, path in history:
        if _status(read(sha, path), path) is not Status.ACCEPTED:
            return found
        found = sha
    return found if complete else None


def _status(text: str | None, path: str) -> Status | None:
    if text is None:
        return None
    try:
        return document.parse(text, path).status
    except RfdError:  # a broken version in history: not an accepted one
        return None


def review_diff(ws: Workspace, doc: Document) -> ReviewDiff:
    """The diff since acceptance, or against the main branch with a notice saying why."""
    main = ws.config.rfd.main_branch
    if ws.vcs is None:
        return ReviewDiff("", "diff", (NO_GIT,))
    vcs = ws.vcs
    history = vcs.file_history(ws.root / doc.path)
    since = acceptance_commit(history, vcs.read_at, complete=not vcs.is_shallow())
    if since is not None:
        return _diff(vcs, since, f"diff since acceptance (commit {since[:12]})", "retry")
    notice = NOT_FOUND.format(rid=doc.rfd_id or doc.path, main=main)
    label = f"diff against {main} (the commit that accepted the RFD was not found)"
    return _diff(vcs, main, label, "check rfd.main_branch", notice)


def _diff(vcs: Vcs, rev: str, label: str, hint: str, *notices: str) -> ReviewDiff:
    try:
        return ReviewDiff(vcs.diff_since(rev), label, notices)
    except Exception as exc:  # an edge: any VCS failure only costs the review its diff
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ReviewDiff("", label, (*notices, f"no diff against {rev!r} ({first}): {hint}"))
