"""``StateStore.validate``: typed errors about one state directory, each with what to do.

Errors follow seed 001's three kinds — a file that should exist does not
(:class:`FileNotFound`), a file or directory has the wrong shape
(:class:`InvalidStructure`), a file does not parse (:class:`ParseError`) — and carry
the alternatives the user has.  They are the checks the ``rfd-state`` hook makes of a
commit, made of the whole directory (``rfd lint``): besides the shapes and formats, a
review (``.md``) file not named by its timestamp — the store would ignore it — and a line
that looks like a credential (named by kind and line, never quoted).  Other stray files
(notes, editor backups) are not errors here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core.errors import FileNotFound, InvalidStructure, RfdError, ValidationError
from bot.core.text import plural
from bot.model import phase_ids
from bot.model.plan import PlanPhase

if TYPE_CHECKING:
    from bot.state.store import StateStore
from bot.state.layout import (
    DECISIONS,
    EXPLORE,
    IMPL_REVIEWS,
    PHASES,
    PLAN,
    REVIEWS,
    Key,
    state_key,
)

CONSENSUS = "consensus.json"
MAX_SCAN = 1_000_000
"""Bytes of each state file searched for credentials."""
_REVIEW_NAME = re.compile(r"^[0-9]+\.md$")  # 1721500000.md, as the store names them
_SHAPE = (
    (REVIEWS, True),
    (IMPL_REVIEWS, True),
    (PHASES, True),
    (EXPLORE, False),
    (DECISIONS, False),
    (PLAN, False),
)
"""Entries of a state directory and whether each is a directory."""


def fixes(key: str, name: str) -> tuple[str, ...]:
    """What a user can do about a broken file of the state directory."""
    if name == PLAN:
        return (
            'fix plan.json by hand: a JSON array of {"title": ..., "description": ...} objects',
            f"see what the Implementation Plan gives with `rfd plan {key}` and copy it in "
            f"(or, before acceptance, delete plan.json and run `rfd accept {key}`)",
        )
    return (f"fix {name} by hand", f"delete {name} to start that step over")


def validate(store: StateStore, rfd_id: Key) -> list[RfdError]:
    """Everything wrong with the state of ``rfd_id`` (empty when all is well or none exists)."""
    key = state_key(rfd_id)
    folder = store.dir(key)
    if not folder.exists():
        return []
    if not folder.is_dir():
        move = "move the file away; the directory is created again when needed"
        return [
            InvalidStructure("should be a directory", path=store.show(folder), alternatives=(move,))
        ]
    errors = _shape_errors(store, folder)
    errors += _read_errors(key, DECISIONS, lambda: store.read_decisions(key))
    errors += _read_errors(key, EXPLORE, lambda: store.read_explore(key))
    errors += _read_errors(key, CONSENSUS, lambda: store.read_consensus(key))
    errors += _review_names(store, key) + _secrets(store, folder)
    try:
        plan = store.read_plan(key)
    except RfdError as exc:
        return [*errors, _with_fixes(exc, fixes(key, PLAN))]
    return errors + _phase_errors(store, key, plan)


def orphans(store: StateStore, base: Path, owned: set[str]) -> list[RfdError]:
    """State directories under ``base`` that belong to no RFD (``owned``: the directory
    names of the RFDs there are); the shared areas (``.forge``) are not state of an RFD."""
    if not base.is_dir():
        return []
    return [
        FileNotFound(
            f"state for RFD {entry.name}, which has no RFD file",
            path=store.show(entry),
            alternatives=(
                f"remove {store.show(entry)}",
                "if the RFD was renumbered, move it to the new id (`git mv`)",
            ),
        )
        for entry in sorted(base.iterdir())
        if entry.is_dir() and not entry.name.startswith(".") and entry.name not in owned
    ]


def _review_names(store: StateStore, key: str) -> list[RfdError]:
    errors: list[RfdError] = []
    for name in (REVIEWS, IMPL_REVIEWS):
        folder = store.path(key, name)
        try:
            names = sorted(os.listdir(folder))
        except OSError:  # no such directory (or a file in its place: a shape error)
            continue
        errors += [
            InvalidStructure(
                f"review file {n!r} is not named by its unix timestamp",
                path=store.show(folder / n),
                alternatives=(f"rename it to {name}/<seconds since 1970>.md",),
            )
            for n in names
            if n.endswith(".md") and not _REVIEW_NAME.match(n)  # a review the store ignores
        ]
    return errors


def _secrets(store: StateStore, folder: Path) -> list[RfdError]:
    """A line of a state file that looks like a credential (named by kind, never quoted)."""
    from bot.core.secret_shapes import find

    errors: list[RfdError] = []
    for parts in sorted(_files(str(folder))):
        path = os.path.join(folder, *parts)
        with open(path, "rb") as handle:  # read() sizes its buffer by the file; read(n) by n
            text = handle.read()[:MAX_SCAN].decode("utf-8", "surrogateescape")
        lines = {text.count("\n", 0, s.start) + 1: s.kind for s in find(text)}
        errors += [
            ValidationError(
                f"looks like {kind}",
                path=store.show(Path(path)),
                line=line,
                alternatives=(
                    "remove it (state files are committed and pushed); revoke it if it ever "
                    "left your machine, and keep keys in environment variables",
                ),
            )
            for line, kind in sorted(lines.items())
        ]
    return errors


def _files(folder: str, parts: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The regular files under ``folder`` as path parts (links neither listed nor followed)."""
    with os.scandir(os.path.join(folder, *parts)) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                yield (*parts, entry.name)
            elif entry.is_dir(follow_symlinks=False):
                yield from _files(folder, (*parts, entry.name))


def _read_errors(key: str, name: str, read: Callable[[], object]) -> list[RfdError]:
    try:
        read()
    except RfdError as exc:
        return [_with_fixes(exc, fixes(key, name))]
    return []


def _shape_errors(store: StateStore, folder: Path) -> list[RfdError]:
    with os.scandir(folder) as entries:  # one read of the directory, not a stat per name
        is_dir = {entry.name: entry.is_dir() for entry in entries}
    errors: list[RfdError] = []
    for name, want_dir in _SHAPE:
        path = folder / name
        if name in is_dir and is_dir[name] != want_dir and path.exists():  # not a dead link
            kind = "a directory" if want_dir else "a file"
            alternatives = (f"rename it and put {kind} named {name} in its place",)
            errors.append(
                InvalidStructure(
                    f"should be {kind}", path=store.show(path), alternatives=alternatives
                )
            )
    return errors


def _phase_errors(
    store: StateStore, key: str, plan: tuple[PlanPhase, ...] | None
) -> list[RfdError]:
    summaries = store.phase_files(key)
    if plan is None and summaries:
        n = len(summaries)
        exist = "exists" if n == 1 else "exist"
        message = f"{plural(n, 'phase summary')} {exist} but plan.json does not"
        alternatives = (
            f"re-run `rfd accept {key}` to write plan.json",
            f"delete {PHASES}/ if those summaries are stale",
        )
        return [
            FileNotFound(message, path=store.show(store.path(key, PLAN)), alternatives=alternatives)
        ]
    phases = plan or ()
    return [
        _past_end(store.show(path), name, phase_ids.labels(phases))
        for name, path in summaries.items()
        if phase_ids.position(phases, name) is None
    ]


def _past_end(shown: str, name: str, labels: list[str]) -> RfdError:
    message = f"summarises phase {name}, but plan.json's phases are {', '.join(labels) or 'none'}"
    alternatives = (
        "rename it to the label of the phase it summarises",
        "delete it if it is stale",
        "add the missing phases to plan.json",
    )
    return InvalidStructure(message, path=shown, alternatives=alternatives)


def _with_fixes(error: RfdError, alternatives: tuple[str, ...]) -> RfdError:
    return type(error)(
        error.message, path=error.path, line=error.line, hint=error.hint, alternatives=alternatives
    )
