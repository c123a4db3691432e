"""rfd-status: status changes in what is being committed (or pushed) must be legal.

The staged version of each RFD is compared with HEAD (on ``pre-push``, each commit
of the pushed range with its parent).  An illegal transition fails with the allowed
next steps; a legal one must meet its gates (see :mod:`hooks._gates`).  A new RFD
starts as Draft or Discussion; a renamed draft (D32 → 045) keeps its history.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.errors import RfdError, TransitionError
from bot.status import Status, check_transition
from hooks import _gates, _git
from hooks._changes import Kind, RfdChange, rfd_changes
from hooks._common import Layout, Report, load_layout, normalize
from hooks._tree import Statuses, Tree

if TYPE_CHECKING:
    from bot.document import Document

FIRST_STATUSES = (Status.DRAFT, Status.DISCUSSION)
NEW_HINT = (
    "add it as Draft and promote it step by step (`rfd promote`); to import an RFD decided "
    "elsewhere, commit it once with SKIP=rfd-status"
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rfd-status", description=__doc__.splitlines()[0])
    parser.add_argument("filenames", nargs="*", help="files being committed (a filter)")
    parser.add_argument("--from-ref", default=os.environ.get("PRE_COMMIT_FROM_REF", ""))
    parser.add_argument("--to-ref", default=os.environ.get("PRE_COMMIT_TO_REF", ""))
    args = parser.parse_args(argv)
    report = Report()
    root = Path.cwd()
    try:
        layout = load_layout(root)
        only = {normalize(p) for p in args.filenames} or None
        with _git.BlobReader(root) as reader:
            for old, new, changes in _steps(root, args.from_ref, args.to_ref):
                checker = Checker(layout, Tree(root, old, reader), Tree(root, new, reader), report)
                for change in rfd_changes(changes, layout, only):
                    checker.check(change)
    except (RfdError, _git.GitFailed) as err:
        report.error(err if isinstance(err, RfdError) else RfdError(str(err)))
    return report.code


def _steps(root: Path, from_ref: str, to_ref: str) -> list[tuple[str, str, list[_git.Change]]]:
    """``(old rev, new rev, changes)``: the index against HEAD, or each pushed commit."""
    if to_ref:
        pairs = _git.commits(root, from_ref, to_ref)
        return [(old, new, _git.diff_changes(root, old, new)) for old, new in pairs]
    base, changes = _git.staged_changes(root)
    return [(base, _git.INDEX, changes)]


class Checker:
    """Checks the RFD changes of one step, reading each version at most once."""

    def __init__(self, layout: Layout, old: Tree, new: Tree, report: Report) -> None:
        self.layout, self.old, self.new, self.report = layout, old, new, report
        self.statuses = cache(lambda: Statuses(new, new.rfd_files(layout)))

    def check(self, change: RfdChange) -> None:
        try:
            doc = self.new.document(change.path)
            before = self._before(change)
        except RfdError as err:
            self.report.error(err)
            return
        if doc is None:
            return
        for err in self._problems(change, before, doc):
            if err.path == doc.path and err.line is None:
                err.line = status_line(doc)
            self.report.error(err)

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


def status_line(doc: Document) -> int | None:
    for field in doc.fields:
        if field.key.casefold() == "status":
            return field.line
    return doc.heading_line


if __name__ == "__main__":
    raise SystemExit(main())
