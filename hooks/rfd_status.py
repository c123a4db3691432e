"""rfd-status: status changes in what is being committed (or pushed) must be legal.

The staged version of each RFD is compared with HEAD (on ``pre-push``, each commit
of the pushed range with its parent).  A move forward along Draft → Discussion →
Accepted → Implemented (several steps at once too) must meet the gates of where it ends
(see :mod:`hooks._gates`); any other move must be a legal transition.  A new RFD starts
as ``[process] new_statuses`` allows; a renamed draft (D32 → 045) keeps its history.  A
published RFD is not deleted (unless ``[process] delete_published``), and an RFD removed
by the commit must leave no state directory behind and no RFD that still Requires or
Extends it (see :mod:`hooks._deletions`).  An RFD file it is given that the index leaves
unchanged (``pre-commit run --all-files``, ``rfd-status <paths>``) must meet the gates of
the status it has, unless the adoption baseline records that status for it; on a plain
commit pre-commit gives only staged files.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from bot.core.errors import RfdError
from hooks._common import Layout, Report, hook_args, load_settings, normalize


def main(argv: Sequence[str] | None = None) -> int:
    args = hook_args("rfd-status", __doc__, argv, "files being committed (a filter)")
    report = Report()
    root = os.getcwd()
    try:
        settings = load_settings(root)
        layout = settings.layout
        only = {normalize(p) for p in args.filenames} or None
        from hooks import _git

        try:
            # no RFD file staged: only a removal (never passed to hooks) or a name with a
            # control character (no RFD pattern matches it) could matter
            if _no_rfd(only, layout, args.to_ref) and not any(
                kind == "D" or not path.isprintable()
                for kind, path in _git.staged_in(root, layout.rfd_dir, layout.drafts_dir)
            ):
                return 0
            # git reads the index, and the reader of blobs starts, while the checks are imported
            staged = None if args.to_ref else _git.staged_changes(root)
            blobs = _git.BlobReader(root).start()
            from hooks import _transitions

            _transitions.check(
                root, settings, args.from_ref, args.to_ref, only, report, staged, blobs
            )
        except _git.GitFailed as err:
            report.problem(f"git: {err}")
    except RfdError as err:
        report.error(err)
    return report.code


def _no_rfd(only: set[str] | None, layout: Layout, to_ref: str) -> bool:
    return only is not None and not to_ref and not any(layout.rfd_id(p) for p in only)


if __name__ == "__main__":
    raise SystemExit(main())
