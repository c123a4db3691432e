"""rfd-state: the state files being committed are valid.

Under ``<rfd dir>/.state/<id>/``: ``plan.json`` matches the plan schema,
``decisions.md`` the decisions format, ``phases/N.md`` exists only for phases of the
plan, review files are named by their unix timestamp, the RFD itself exists, and no
file holds an API key or token.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from bot.core.errors import RfdError
from hooks._common import Report, bad_names, hook_args, load_layout, normalize, pushed_in


def main(argv: Sequence[str] | None = None) -> int:
    args = hook_args("rfd-state", __doc__, argv, "files being committed")
    report = Report()
    root = os.getcwd()
    try:
        layout = load_layout(root)
    except RfdError as err:
        report.error(err)
        return report.code
    for bad in bad_names(args.filenames, layout):
        report.error(bad)
    found = [(normalize(p), layout.state_file(p)) for p in args.filenames if p.isprintable()]
    state = [(path, where) for path, where in found if where is not None]
    if not state:
        return report.code  # no state file in this commit (or only misnamed ones)
    from hooks._state_files import StateChecker

    checker = StateChecker(root, layout, report)
    for path, (key, rel) in state:
        report.where = pushed_in(root, args.from_ref, args.to_ref, path)  # pre-push: blame
        checker.check(path, key, rel)
    return report.code


if __name__ == "__main__":
    raise SystemExit(main())
