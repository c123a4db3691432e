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
from pathlib import Path

from bot.errors import RfdError
from hooks._common import Report, load_layout, normalize


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
        if only is not None and not any(layout.rfd_id(p) for p in only):
            return 0  # no RFD file in this commit: nothing to compare, not even with git
        from hooks import _git, _transitions

        try:
            _transitions.check(root, layout, args.from_ref, args.to_ref, only, report)
        except _git.GitFailed as err:
            report.problem(f"git: {err}")
    except RfdError as err:
        report.error(err)
    return report.code


if __name__ == "__main__":
    raise SystemExit(main())
