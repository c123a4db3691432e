"""rfd-status's checks: each changed RFD's old and new status, the transition, the gates.

Imported by :mod:`hooks.rfd_status` only when the commit touches an RFD file.
"""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from bot.document import Document  # every run parses RFDs: loaded while git reads the index
from bot.errors import RfdError, TransitionError
from bot.status import Status, check_transition
from hooks import _gates, _git
from hooks._changes import Kind, RfdChange, rfd_changes
from hooks._common import Layout, Report, bad_names
from hooks._tree import Statuses, Tree

if TYPE_CHECKING:
    from collections.abc import Callable

    Staged = Callable[[], tuple[str, list[_git.Change]]]

FIRST_STATUSES = (Status.DRAFT, Status.DISCUSSION)
_BACK = {Status.ACCEPTED: Status.DISCUSSION, Status.IMPLEMENTED: Status.ACCEPTED}
"""Where an RFD whose status's gate does not hold goes back to."""
NEW_HINT = (
    "add it as Draft and promote it step by step (`rfd promote`); to import an RFD decided "
    "elsewhere, commit it once with SKIP=rfd-status"
)


def check(root: Path, layout: Layout, from_ref: str, to_ref: str, only: set[str] | None,
          report: Report, staged: Staged | None = None) -> None:  # fmt: skip
    """Check every RFD change of the index (or of each pushed commit) into ``report``;
    ``staged`` is :func:`hooks._git.staged_changes` when the caller started it already."""
    with _git.BlobReader(root).start() as reader:
        for old, new, changes in _steps(root, from_ref, to_ref, reader, staged):
            if to_ref and new.rev:  # pre-push: name the commit of each problem
                report.where = cache(partial(_git.describe_commit, root, new.rev))
            named = [c.path for c in changes if c.kind != "D"]
            for bad in bad_names([*named, *(only or ())] if not to_ref else named, layout):
                report.error(bad)  # no RFD pattern matches such a name: never skip it silently
            checker = Checker(layout, old, new, report)
            for change in rfd_changes(changes, layout, only):
                checker.check(change)
            _removals(changes, layout, new, report)
            if only and not to_ref:  # --all-files, or paths named with nothing staged
                for path in unchanged_rfds(only, changes, layout):
                    checker.check_held(path)
        report.where = None


def unchanged_rfds(only: set[str], changes: list[_git.Change], layout: Layout) -> list[str]:
    """The RFD files among ``only`` that ``changes`` leave alone (none on a plain commit:
    pre-commit passes the staged files only)."""
    touched = {change.path for change in changes}
    return sorted(p for p in only if p not in touched and layout.rfd_id(p) is not None)


def _removals(changes: list[_git.Change], layout: Layout, new: Tree, report: Report) -> None:
    if not any(c.kind in ("D", "R") for c in changes):
        return
    from hooks import _deletions

    gone = _deletions.removed(changes, layout, new)
    for problem in _deletions.check(gone, layout, new) if gone else ():
        report.error(problem)


def _steps(
    root: Path, from_ref: str, to_ref: str, reader: _git.BlobReader, staged: Staged | None
) -> list[tuple[Tree, Tree, list[_git.Change]]]:
    """``(old tree, new tree, changes)``: the index against HEAD, or each pushed commit."""
    if to_ref:
        steps = [(old, new, _git.diff_changes(root, old, new))
                 for old, new in _git.commits(root, from_ref, to_ref)]  # fmt: skip
        return [
            (Tree(root, old, reader).knowing(changes, before=True),
             Tree(root, new, reader).knowing(changes), changes)
            for old, new, changes in steps
        ]  # fmt: skip
    base, changes = (staged or _git.staged_changes(root))()
    old_tree = Tree(root, base, reader).knowing(changes, before=True)
    return [(old_tree, Tree.index(root, base, changes, reader), changes)]


class Checker:
    """Checks the RFD changes of one step, reading each version at most once."""

    def __init__(self, layout: Layout, old: Tree, new: Tree, report: Report) -> None:
        self.layout, self.old, self.new, self.report = layout, old, new, report
        self.statuses = cache(lambda: Statuses(new, new.rfd_names(layout)))

    def check(self, change: RfdChange) -> None:
        try:
            doc = self.new.document(change.path)
            before = self._before(change)
        except RfdError as err:
            self.report.error(err)
            return
        if doc is None:
            return
        for problem in self._problems(change, before, doc):
            if problem.path == doc.path and problem.line is None:
                problem.line = status_line(doc)
            self.report.error(problem)

    def check_held(self, path: str) -> None:
        """The gates of the status an unchanged RFD already has (Accepted, Implemented)."""
        try:
            doc = self.new.document(path)
        except RfdError as err:
            self.report.error(err)
            return
        rfd_id = self.layout.rfd_id(path)
        if doc is None or rfd_id is None:
            return
        status = doc.status
        for problem in _gates.check(doc, rfd_id, status, self.new, self.layout, self.statuses):
            if problem.path == doc.path:
                problem.line = problem.line or status_line(doc)
                problem.message = held_message(problem.message, status)
                back = f"if it is not {status} yet, set its Status back to {_BACK[status]}"
                problem.hint = f"{problem.hint}; or, {back}" if problem.hint else back
            self.report.error(problem)

    def _before(self, change: RfdChange) -> Status | None:
        if change.old_path is None:
            return None
        try:
            old = self.old.document(change.old_path)
        except RfdError:
            return None  # the old version was broken: judge the new one as it is
        return None if old is None else old.status

    def _problems(self, change: RfdChange, before: Status | None, doc: Document) -> list[RfdError]:
        after = doc.status
        self.report.note(describe(change, before, after))
        if change.kind is Kind.NEW:
            if after not in FIRST_STATUSES:
                return [TransitionError(f"a new RFD cannot start as {after}", path=doc.path,
                                        hint=NEW_HINT)]  # fmt: skip
        elif before is None or before is after:
            return []
        else:
            try:
                check_transition(before, after, path=doc.path)
            except TransitionError as err:
                return [err]
        rfd_id = self.layout.rfd_id(change.path)
        assert rfd_id is not None  # rfd_changes keeps RFD files only
        return _gates.check(doc, rfd_id, after, self.new, self.layout, self.statuses)


def describe(change: RfdChange, before: Status | None, after: Status) -> str:
    if change.kind is Kind.NEW:
        return f"{change.path}: new RFD ({after})"
    moved = f" (renamed from {change.old_path})" if change.kind is Kind.RENAMED else ""
    if before is None or before is after:
        return f"{change.path}: status {after}, unchanged{moved}"
    return f"{change.path}: {before} → {after}{moved}"


def held_message(message: str, status: Status) -> str:
    """A gate's "cannot move to X: why" said of an RFD that is X already."""
    prefix = f"cannot move to {status}: "
    why = message[len(prefix) :] if message.startswith(prefix) else message
    return f"is {status}, but its gate does not hold: {why}"


def status_line(doc: Document) -> int | None:
    for field in doc.fields:
        if field.key.casefold() == "status":
            return field.line
    return doc.heading_line
