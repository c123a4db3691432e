"""Which RFDs a commit (or the index) touches, and how: new, renamed or modified.

git's rename detection (``-M``) catches ``D32-x.md → 045-x.md`` when the text stayed
similar; a promotion that also rewrites much of a short draft shows up as a deletion
plus an addition instead, so a deleted draft and an added published RFD with the same
slug are paired as a rename too.  Deletions alone are not status changes.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import NamedTuple

from bot.model.ids import split_file_name
from hooks._common import Layout
from hooks._git import Change


class Kind(enum.Enum):
    NEW = "new"
    RENAMED = "renamed"
    MODIFIED = "modified"


class RfdChange(NamedTuple):
    kind: Kind
    path: str
    old_path: str | None
    """Where the RFD was before the change (None for a new RFD)."""


def rfd_changes(
    changes: Sequence[Change], layout: Layout, only: Collection[str] | None = None
) -> list[RfdChange]:
    """The RFD files among ``changes`` (restricted to paths in ``only`` when given)."""
    deleted = {
        _slug(c.path): c.path
        for c in changes
        if c.kind == "D" and layout.rfd_id(c.path) is not None
    }
    out: list[RfdChange] = []
    for change in changes:
        if change.kind == "D" or layout.rfd_id(change.path) is None:
            continue
        if only is not None and change.path not in only:
            continue
        out.append(_classify(change, layout, deleted))
    return out


def _classify(change: Change, layout: Layout, deleted: dict[str, str]) -> RfdChange:
    if change.kind == "R" and layout.rfd_id(change.old) is not None:
        return RfdChange(Kind.RENAMED, change.path, change.old)
    if change.kind in ("A", "C", "R"):
        old = deleted.pop(_slug(change.path), None)
        if old is not None:
            return RfdChange(Kind.RENAMED, change.path, old)
        return RfdChange(Kind.NEW, change.path, None)
    return RfdChange(Kind.MODIFIED, change.path, change.path)


def _slug(path: str) -> str:
    split = split_file_name(path.rpartition("/")[2])
    return split[1] if split else path


def added_phases(changes: Sequence[Change], layout: Layout) -> list[tuple[str, str]]:
    """``(state key, phase key)`` of each phase summary (``phases/3a.md``) ``changes`` add."""
    from bot.model.phase_ids import file_key

    out = []
    for change in changes:
        found = layout.state_file(change.path) if change.kind in ("A", "C") else None
        if found is None:
            continue
        key, rel = found
        head, _, name = rel.partition("/")
        phase = file_key(name) if head == "phases" else None
        if phase is not None:
            out.append((key, phase))
    return out
