"""rfd-status's checks: each changed RFD's old and new status, the transition, the gates.

Imported by :mod:`hooks.rfd_status` only when the commit touches an RFD file.
"""

from __future__ import annotations

import sys
from functools import cache, partial
from typing import TYPE_CHECKING

from bot.core.errors import RfdError, TransitionError
from bot.model.document import Document  # every run parses RFDs: loaded while git reads the index
from bot.model.status import Status, check_transition
from hooks import _gates, _git
from hooks._changes import Kind, RfdChange, rfd_changes
from hooks._common import Layout, Report, Settings, bad_names
from hooks._tree import Statuses, Tree

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.model.baseline import Baseline
    from bot.model.process import Process
    from hooks._files import Root

    Staged = Callable[[], tuple[str, list[_git.Change]]]

_BACK = {Status.ACCEPTED: Status.DISCUSSION, Status.IMPLEMENTED: Status.ACCEPTED}
"""Where an RFD whose status's gate does not hold goes back to."""
NEW_HINT = (
    "add it as {first} and promote it step by step (`rfd promote`); if your process lets a "
    "pull request be the discussion, allow it in .github/rfd.toml: [process] new_statuses"
)


def check(
    root: Root,
    settings: Settings,
    from_ref: str,
    to_ref: str,
    only: set[str] | None,
    report: Report,
    staged: Staged | None = None,
    blobs: _git.BlobReader | None = None,
) -> None:
    """Check every RFD change of the index (or of each pushed commit) into ``report``;
    ``staged`` is :func:`hooks._git.staged_changes` and ``blobs`` a reader when the caller
    started them already."""
    layout, process = settings.layout, settings.process
    with (blobs or _git.BlobReader(root)).start() as reader:
        for old, new, changes in _steps(root, from_ref, to_ref, reader, staged):
            if to_ref and new.rev:  # pre-push: name the commit of each problem
                report.where = cache(partial(_git.describe_commit, root, new.rev))
            named = [c.path for c in changes if c.kind != "D"]
            for bad in bad_names([*named, *(only or ())] if not to_ref else named, layout):
                report.error(bad)  # no RFD pattern matches such a name: never skip it silently
            checker = Checker(layout, old, new, report, process)
            for change in rfd_changes(changes, layout, only):
                checker.check(change)
            _removals(changes, settings, new, report)
            if only and not to_ref:  # --all-files, or paths named with nothing staged
                for path in unchanged_rfds(only, changes, layout):
                    checker.check_held(path)
        report.where = None


def unchanged_rfds(only: set[str], changes: list[_git.Change], layout: Layout) -> list[str]:
    """The RFD files among ``only`` that ``changes`` leave alone (none on a plain commit:
    pre-commit passes the staged files only)."""
    touched = {change.path for change in changes}
    return sorted(p for p in only if p not in touched and layout.rfd_id(p) is not None)


def _removals(changes: list[_git.Change], settings: Settings, new: Tree, report: Report) -> None:
    if not any(c.kind in ("D", "R") for c in changes):
        return
    from hooks import _deletions

    gone = _deletions.removed(changes, settings.layout, new)
    paths = {i: c.old for c in changes if c.kind == "D" and (i := settings.layout.rfd_id(c.old))}
    warn = settings.lint.severity.get(_deletions.DELETED_CODE) == "warning"
    for problem in _deletions.check(gone, settings, new, paths) if gone else ():
        if warn and problem.message.startswith(_deletions.DELETED_CODE):
            report.note(f"{problem} (warning)")
        else:
            report.error(problem)


def _steps(
    root: Root, from_ref: str, to_ref: str, reader: _git.BlobReader, staged: Staged | None
) -> list[tuple[Tree, Tree, list[_git.Change]]]:
    """``(old tree, new tree, changes)``: the index against HEAD, or each pushed commit."""
    if to_ref:
        steps = [
            (old, new, _git.diff_changes(root, old, new))
            for old, new in _git.commits(root, from_ref, to_ref)
        ]
        return [
            (
                Tree(root, old, reader).knowing(changes, before=True),
                Tree(root, new, reader).knowing(changes),
                changes,
            )
            for old, new, changes in steps
        ]
    base, changes = (staged or _git.staged_changes(root))()
    old_tree = Tree(root, base, reader).knowing(changes, before=True)
    return [(old_tree, Tree.index(root, base, changes, reader), changes)]


class Checker:
    """Checks the RFD changes of one step, reading each version at most once."""

    def __init__(
        self, layout: Layout, old: Tree, new: Tree, report: Report, process: Process
    ) -> None:
        self.layout, self.old, self.new, self.report = layout, old, new, report
        self.process = process
        self.statuses = cache(lambda: Statuses(new, new.rfd_names(layout)))
        self.baseline = cache(lambda: read_baseline(new, layout))

    def check(self, change: RfdChange) -> None:
        try:
            doc = self.new.document(change.path)
            old = self._before(change)
        except RfdError as err:
            self.report.error(err)
            return
        if doc is None:
            return
        problems = self._problems(change, old, doc)
        if old is not None and not problems and change.kind is not Kind.NEW:
            problems = _words(old, doc)
        for problem in problems:
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
        if self.baseline().grandfathers(rfd_id, status):
            return  # reached before adoption: history is not re-gated
        gates = _gates.check(
            doc, rfd_id, status, self.new, self.layout, self.statuses, self.process
        )
        for problem in gates:
            if problem.path == doc.path:
                problem.line = problem.line or status_line(doc)
                problem.message = held_message(problem.message, status)
                back = f"if it is not {status} yet, set its Status back to {_BACK[status]}"
                problem.hint = f"{problem.hint}; or, {back}" if problem.hint else back
            self.report.error(problem)

    def _before(self, change: RfdChange) -> Document | None:
        if change.old_path is None:
            return None
        try:
            return self.old.document(change.old_path)
        except RfdError:
            return None  # the old version was broken: judge the new one as it is

    def _problems(self, change: RfdChange, old: Document | None, doc: Document) -> list[RfdError]:
        before, after = None if old is None else old.status, doc.status
        self.report.note(describe(change, old, doc))
        if change.kind is Kind.NEW:
            if after not in self.process.new_statuses:
                hint = NEW_HINT.format(first=self.process.new_statuses[0])
                return [
                    TransitionError(f"a new RFD cannot start as {after}", path=doc.path, hint=hint)
                ]
        elif before is None or before is after:
            return []
        elif not forward(before, after):
            try:
                assert old is not None  # there is a status before
                lower = old.form != "list"  # front matter, AsciiDoc: a dialect's words
                check_transition(before, after, path=doc.path, word=old.status_word, lower=lower)
            except TransitionError as err:
                return [err]
        rfd_id = self.layout.rfd_id(change.path)
        assert rfd_id is not None  # rfd_changes keeps RFD files only
        return _gates.check(doc, rfd_id, after, self.new, self.layout, self.statuses, self.process)


def _words(old: Document, new: Document) -> list[RfdError]:
    """The move between the two status words, when the repository lists its moves."""
    if old.status_word.casefold() == new.status_word.casefold():
        return []
    if "bot.model.status" not in sys.modules:
        return []  # not loaded: no [statuses] nor [transitions] configured, nothing to check
    from bot.model.status import check_move

    try:
        check_move(old.status_word, new.status_word, path=new.path)
    except TransitionError as err:
        return [err]
    return []


def forward(before: Status, after: Status) -> bool:
    """Whether ``after`` lies ahead of ``before`` on Draft → Discussion → Accepted →
    Implemented: one commit may take several steps (``rfd accept`` on a draft publishes and
    accepts it; accept, phases and done may be committed together) when the gates of
    where it ends hold, and they include those of the steps before."""
    return 0 <= before.rank < after.rank


def read_baseline(tree: Tree, layout: Layout) -> Baseline:
    """The adoption baseline in ``tree`` (none: nothing is grandfathered)."""
    from bot.model import baseline

    path = f"{layout.state_root}/{baseline.FILE}"
    text = tree.text(path)
    return baseline.NONE if text is None else baseline.loads(text, path)


def describe(change: RfdChange, old: Document | None, doc: Document) -> str:
    """The change in the RFD's own words, with rfd's stages when they are other words
    (``discussion → published (Discussion → Accepted)`` on an Oxide RFD)."""
    if change.kind is Kind.NEW:
        if doc.status_word.casefold() == doc.status.value.casefold():
            return f"{change.path}: new RFD ({doc.status.value})"
        return f"{change.path}: new RFD in {doc.status_word} ({doc.status.value})"
    moved = f" (renamed from {change.old_path})" if change.kind is Kind.RENAMED else ""
    if old is None or old.status_word == doc.status_word:
        return f"{change.path}: status {doc.status_word}, unchanged{moved}"
    words = f"{old.status_word} → {doc.status_word}"
    stages = f"{old.status.value} → {doc.status.value}"
    if old.status is doc.status:
        stages = f"both {doc.status.value}"
    return f"{change.path}: {_said(words, stages)}{moved}"


def _said(words: str, stages: str) -> str:
    """``words``, then rfd's ``stages`` in parentheses when they read differently."""
    return words if words.casefold() == stages.casefold() else f"{words} ({stages})"


def held_message(message: str, status: Status) -> str:
    """A gate's "cannot move to X: why" said of an RFD that is X already."""
    prefix = f"cannot move to {status}: "
    why = message[len(prefix) :] if message.startswith(prefix) else message
    return f"is {status}, but its gate does not hold: {why}"


def status_line(doc: Document) -> int | None:
    for field in doc.fields:
        if field.key.casefold() == doc.status_key.casefold():
            return field.line
    return doc.heading_line
