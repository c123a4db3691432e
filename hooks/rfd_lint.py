"""rfd-lint: the header and structure of every RFD file being committed.

Required fields, a known status, a heading id that matches the file name, dates as
YYYY-MM-DD, the sections its category requires, Requires/Extends targets that
exist, and no draft ids left in published RFDs — all of it :func:`bot.lint.lint_document`,
shared with ``rfd lint``.  Other RFDs are known by their file names only; a status
is read only for an RFD the checks ask about.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.errors import RfdError
from hooks._common import Report, bad_names, hook_args, load_layout, normalize, pushed_in

if TYPE_CHECKING:
    from bot.lint import Finding
    from hooks._tree import Statuses, Tree


def main(argv: Sequence[str] | None = None) -> int:
    args = hook_args("rfd-lint", __doc__, argv, "files being committed")
    report = Report()
    root = Path.cwd()
    try:
        layout = load_layout(root)
    except RfdError as err:
        report.error(err)
        return report.code
    for bad in bad_names(args.filenames, layout):
        report.error(bad)
    paths = [normalize(p) for p in args.filenames
             if layout.rfd_id(p) is not None and p.isprintable()]  # fmt: skip
    if not paths:
        return report.code  # no RFD file in this commit (or only misnamed ones)
    from hooks._tree import Statuses, Tree

    tree = Tree(root, None)
    known = Statuses(tree, tree.rfd_names(layout))
    for path in paths:
        report.where = pushed_in(root, args.from_ref, args.to_ref, path)  # pre-push: blame
        lint_file(tree, path, known, report)
    return report.code


def lint_file(tree: Tree, path: str, known: Statuses, report: Report) -> None:
    from bot.discovery import RfdFile
    from bot.ids import split_file_name
    from bot.lint import lint_text

    try:
        text = tree.text(path)
    except RfdError as err:
        report.error(err)
        return
    if text is None:
        return  # deleted in the meantime: nothing to check
    rfd_id, slug = split_file_name(path.rpartition("/")[2]) or (None, "")
    file = RfdFile(rfd_id, slug, path) if rfd_id is not None else None
    for finding in lint_text(text, path, known=known, file=file):
        show(finding, report)


def show(finding: Finding, report: Report) -> None:
    """An error counts; a warning is printed and lets the commit through."""
    from bot.lint import Severity

    if finding.severity is Severity.ERROR:
        report.problem(str(finding))
    else:
        report.note(f"{finding} ({finding.severity.value})")


if __name__ == "__main__":
    raise SystemExit(main())
