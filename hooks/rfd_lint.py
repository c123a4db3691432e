"""rfd-lint: the header and structure of every RFD file being committed.

Required fields, a known status, a heading id that matches the file name, dates as
YYYY-MM-DD, the sections its category requires, Requires/Extends targets that
exist, and no draft ids left in published RFDs — all of it :func:`bot.lifecycle.lint.lint_document`,
shared with ``rfd lint``.  Other RFDs are known by their file names only; a status
is read only for an RFD the checks ask about.  A finding the adoption baseline records
(the RFD had it when the repository adopted rfd-bot) is not reported again.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.core.errors import RfdError
from hooks._common import Report, bad_names, hook_args, load_settings, normalize, pushed_in

if TYPE_CHECKING:
    from bot.lifecycle.lint import Finding, LintSettings
    from bot.model.baseline import Baseline
    from bot.model.ids import RfdId
    from hooks._tree import RfdNames, Statuses, Tree


def main(argv: Sequence[str] | None = None) -> int:
    args = hook_args("rfd-lint", __doc__, argv, "files being committed")
    report = Report()
    root = os.getcwd()
    try:
        settings = load_settings(root)
    except RfdError as err:
        report.error(err)
        return report.code
    layout = settings.layout
    for bad in bad_names(args.filenames, layout):
        report.error(bad)
    paths = [
        normalize(p) for p in args.filenames if layout.rfd_id(p) is not None and p.isprintable()
    ]
    if not paths:
        return report.code  # no RFD file in this commit (templates are not; or misnamed ones)
    from hooks._transitions import read_baseline
    from hooks._tree import Statuses, Tree

    tree = Tree(root, None)
    names = tree.rfd_names(layout)
    known = Statuses(tree, names)
    corpus = TreeCorpus(tree, names)
    before = functools.cache(lambda: read_baseline(tree, layout))  # read on a first finding
    for path in paths:
        report.where = pushed_in(root, args.from_ref, args.to_ref, path)  # pre-push: blame
        lint_file(tree, path, known, report, settings.lint, corpus, before)
    return report.code


class TreeCorpus:
    """:class:`bot.lifecycle.lint.Corpus` over one version: an RFD is parsed only when a rule
    follows a link to it."""

    def __init__(self, tree: Tree, names: RfdNames) -> None:
        self.tree, self.names = tree, names

    def links(self, rfd_id: RfdId, key: str) -> tuple[RfdId, ...] | None:
        path = self.names.path(rfd_id)
        try:
            doc = self.tree.document(path) if path is not None else None
        except RfdError:
            return ()  # reported when that RFD is linted
        return None if doc is None else doc.links(key)

    def exists(self, path: str) -> bool:
        return self.tree.exists(path) or self.tree.has_files(path)


def lint_file(
    tree: Tree,
    path: str,
    known: Statuses,
    report: Report,
    settings: LintSettings | None = None,
    corpus: TreeCorpus | None = None,
    before: Callable[[], Baseline] | None = None,
) -> None:
    from bot.config.discovery import RfdFile
    from bot.lifecycle.lint import lint_text
    from bot.model.ids import split_path

    try:
        text = tree.text(path)
    except RfdError as err:
        report.error(err)
        return
    if text is None:
        return  # deleted in the meantime: nothing to check
    rfd_id, slug = split_path(path) or (None, "")  # rfd/0001/README.adoc: the directory's id
    file = RfdFile(rfd_id, slug, path) if rfd_id is not None else None
    from bot.lifecycle.lint import NO_SETTINGS

    found = lint_text(
        text, path, known=known, file=file, settings=settings or NO_SETTINGS, corpus=corpus
    )
    try:
        had = before() if before is not None and found else None
    except RfdError as err:  # a baseline that does not read: say so, report everything
        report.error(err)
        had = None
    for finding in found:
        if had is None or not had.had(finding.path, finding.code, finding.message):
            show(finding, report)


def show(finding: Finding, report: Report) -> None:
    """An error counts; a warning is printed and lets the commit through."""
    from bot.lifecycle.lint import Severity

    if finding.severity is Severity.ERROR:
        report.problem(str(finding))
    else:
        report.note(str(finding))


if __name__ == "__main__":
    raise SystemExit(main())
