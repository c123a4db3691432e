"""rfd-state's checks of one state file: owner, content, name, secrets.

Imported by :mod:`hooks.rfd_state` only when the commit holds a state file.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.errors import FileNotFound, InvalidStructure, RfdError, ValidationError
from bot.ids import RfdId
from hooks._common import Layout, Report, decode
from hooks._secrets import find_secrets
from hooks._tree import RfdNames, Tree

REVIEW_DIRS = ("reviews", "impl-reviews")
_REVIEW_NAME = re.compile(r"^[0-9]+\.md$")  # 1721500000.md, as the state store names them
_PHASE_NAME = re.compile(r"^([0-9]+)\.md$")


class StateChecker:
    """Checks state files one by one; each state directory's owner and plan are looked up
    once."""

    def __init__(self, root: Path, layout: Layout, report: Report) -> None:
        self.tree = Tree(root, None)  # pre-commit stashes unstaged changes: tree == index
        self.layout, self.report = layout, report
        self._rfds: RfdNames | None = None
        self._owners: dict[str, RfdId | None] = {}
        self._plans: dict[str, int | None] = {}

    def check(self, path: str, key: str, rel: str) -> None:
        data = self.tree.read(path)
        if data is None:
            return
        secrets = list(find_secrets(data))
        for line, kind in secrets:
            self.report.error(ValidationError(
                f"looks like {kind}", path=path, line=line,
                hint="remove it (state files are committed and pushed); revoke it if it ever "
                "left your machine, and keep keys in environment variables",
            ))  # fmt: skip
        if secrets:
            return  # format errors would quote the file's text, secret included
        if self._owner(key) is None:
            return
        try:
            self._content(path, key, rel, data)
        except RfdError as err:
            self.report.error(err)

    def _owner(self, key: str) -> RfdId | None:
        """The RFD owning state dir ``key``, reported once when there is none."""
        if key in self._owners:
            return self._owners[key]
        owner = self._find_owner(key)
        self._owners[key] = owner
        return owner

    def _find_owner(self, key: str) -> RfdId | None:
        where = self.layout.state_path(key, "")
        try:
            rfd_id = RfdId.parse(key)
        except ValidationError:
            self.report.error(InvalidStructure(
                "is not named after an RFD id", path=where,
                hint="state directories are named 045 or D32, like the RFD they belong to",
            ))  # fmt: skip
            return None
        if self._rfds is None:
            self._rfds = self.tree.rfd_names(self.layout)
        if str(rfd_id) != key:
            self.report.error(InvalidStructure(
                f"should be named {self.layout.state_path(rfd_id, '')}", path=where,
                hint="state directories are named exactly like the RFD id: 045 or D32",
            ))  # fmt: skip
            return None
        if self._rfds.path(rfd_id) is not None:
            return rfd_id
        self.report.error(FileNotFound(
            f"state for RFD {key}, which has no file in {self.layout.rfd_dir}", path=where,
            hint=f"remove {where}, or if the RFD was renumbered move it to the new id "
            f"(`git mv {where} {self.layout.state_path('<new id>', '')}`)",
        ))  # fmt: skip
        return None

    def _content(self, path: str, key: str, rel: str, data: bytes) -> None:
        head, _, name = rel.partition("/")
        if rel == "plan.json":
            from bot import plan

            plan.loads(decode(data, path), path)
        elif rel == "decisions.md":
            from bot import decisions

            decisions.parse(decode(data, path), path)
        elif head == "phases" and name:
            self._phase(path, key, name)
        elif head in REVIEW_DIRS and name and not _REVIEW_NAME.match(name):
            raise InvalidStructure(
                f"review file {name!r} is not named by its unix timestamp", path=path,
                hint=f"rename it to {head}/<seconds since 1970>.md, e.g. {head}/1721500000.md",
            )  # fmt: skip

    def _phase(self, path: str, key: str, name: str) -> None:
        match = _PHASE_NAME.match(name)
        count = self._plan_length(key)
        if match and count is not None and 1 <= int(match[1]) <= count:
            return
        plan = self.layout.state_path(key, "plan.json")
        if count is None:
            problem, hint = f"no valid {plan} to say which phases exist", "accept the RFD first"
        else:
            problem = f"the plan has phases 1-{count} only" if count else "the plan is empty"
            hint = f"name phase summaries phases/1.md … phases/{count}.md"
        raise InvalidStructure(f"phase summary {name!r} for no phase: {problem}", path=path,
                               hint=hint)  # fmt: skip

    def _plan_length(self, key: str) -> int | None:
        if key not in self._plans:
            from bot import plan

            path = self.layout.state_path(key, "plan.json")
            text = self.tree.text(path)
            try:
                self._plans[key] = None if text is None else len(plan.loads(text, path))
            except RfdError:
                self._plans[key] = None  # reported on its own when plan.json is committed
        return self._plans[key]
