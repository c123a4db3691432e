"""rfd-state's checks of one state file: owner, content, name, secrets.

Imported by :mod:`hooks.rfd_state` only when the commit holds a state file.

The secrets check (:func:`find_secrets`) looks for credentials that must never be
committed, line by line (the shapes are :mod:`bot.core.secret_shapes`', which the bot's
redaction uses too).  A finding names the kind of secret and the line, never the secret
itself (hook output ends up in CI logs).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.core.errors import FileNotFound, InvalidStructure, RfdError, ValidationError
from bot.core.secret_shapes import find
from bot.model.ids import RfdId, split_path
from hooks._common import Layout, Report, decode
from hooks._tree import RfdNames, Tree

if TYPE_CHECKING:
    from bot.model.plan import PlanPhase
    from hooks._files import Root

REVIEW_DIRS = ("reviews", "impl-reviews")
_REVIEW_NAME = re.compile(r"^[0-9]+\.md$")  # 1721500000.md, as the state store names them


class StateChecker:
    """Checks state files one by one; each state directory's owner and plan are looked up
    once."""

    def __init__(self, root: Root, layout: Layout, report: Report) -> None:
        self.tree = Tree(root, None)  # pre-commit stashes unstaged changes: tree == index
        self.layout, self.report = layout, report
        self._rfds: RfdNames | None = None
        self._owners: dict[str, RfdId | None] = {}
        self._plans: dict[str, tuple[PlanPhase, ...] | None] = {}

    def check(self, path: str, key: str, rel: str) -> None:
        try:
            data = self.tree.read(path)
        except RfdError as err:  # a symlink out of the repository, a device, too large
            self.report.error(err)
            return
        if data is None:
            return
        secrets = list(find_secrets(data))
        for line, kind in secrets:
            self.report.error(
                ValidationError(
                    f"looks like {kind}",
                    path=path,
                    line=line,
                    hint="remove it (state files are committed and pushed); revoke it if it ever "
                    "left your machine, and keep keys in environment variables",
                )
            )
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
            self.report.error(
                InvalidStructure(
                    "is not named after an RFD id",
                    path=where,
                    hint="state directories are named 045 or D32, like the RFD they belong to",
                )
            )
            return None
        if self._rfds is None:
            self._rfds = self.tree.rfd_names(self.layout)
        named = self._rfds.path(rfd_id)
        split = split_path(named) if named is not None else None
        if split is not None:  # the id as its file names it: rfd/57/ is RFD 57, 045-x.md 045
            rfd_id = split[0]
        if str(rfd_id) != key:
            self.report.error(
                InvalidStructure(
                    f"should be named {self.layout.state_path(rfd_id, '')}",
                    path=where,
                    hint="state directories are named exactly like the RFD id: 045 or D32",
                )
            )
            return None
        if named is not None:
            return rfd_id
        self.report.error(
            FileNotFound(
                f"state for RFD {key}, which has no file in {self.layout.rfd_dir}",
                path=where,
                hint=f"remove {where}, or if the RFD was renumbered move it to the new id "
                f"(`git mv {where} {self.layout.state_path('<new id>', '')}`)",
            )
        )
        return None

    def _content(self, path: str, key: str, rel: str, data: bytes) -> None:
        head, _, name = rel.partition("/")
        if rel == "plan.json":
            from bot.model import plan

            plan.loads(decode(data, path), path)
        elif rel == "decisions.md":
            from bot.model import decisions

            decisions.parse(decode(data, path), path)
        elif rel == "consensus.json":
            from bot.model import consensus

            consensus.loads(decode(data, path), path)
        elif head == "phases" and name:
            self._phase(path, key, name)
        elif head in REVIEW_DIRS and name and not _REVIEW_NAME.match(name):
            raise InvalidStructure(
                f"review file {name!r} is not named by its unix timestamp",
                path=path,
                hint=f"rename it to {head}/<seconds since 1970>.md, e.g. {head}/1721500000.md",
            )

    def _phase(self, path: str, key: str, name: str) -> None:
        from bot.model import phase_ids

        phases = self._plan(key)
        wanted = phase_ids.file_key(name)
        if wanted is not None and phases and phase_ids.position(phases, wanted) is not None:
            return
        plan = self.layout.state_path(key, "plan.json")
        if phases is None:
            problem, hint = f"no valid {plan} to say which phases exist", "accept the RFD first"
        elif not phases:
            problem, hint = "the plan is empty", f"add its phases to {plan} first"
        else:
            names = phase_ids.labels(phases)
            problem = f"the plan's phases are {', '.join(names)}"
            hint = f"name phase summaries by phase: phases/{names[0]}.md … phases/{names[-1]}.md"
        raise InvalidStructure(
            f"phase summary {name!r} for no phase: {problem}", path=path, line=1, hint=hint
        )

    def _plan(self, key: str) -> tuple[PlanPhase, ...] | None:
        if key not in self._plans:
            from bot.model import plan

            path = self.layout.state_path(key, "plan.json")
            text = self.tree.text(path)
            try:
                self._plans[key] = None if text is None else plan.loads(text, path)
            except RfdError:
                self._plans[key] = None  # reported on its own when plan.json is committed
        return self._plans[key]


def find_secrets(data: bytes) -> Iterator[tuple[int, str]]:
    """``(1-based line, kind of secret)`` for each line that holds one (first kind only)."""
    text = data.decode("utf-8", "surrogateescape")
    found: dict[int, str] = {}
    for secret in find(text):
        found.setdefault(text.count("\n", 0, secret.start) + 1, secret.kind)
    yield from sorted(found.items())
