"""StateStore: the typed reads and writes of one state directory per RFD (explore, decisions,
consensus, plan, reviews, phase summaries; see ``bot.state``), on the files of
:class:`bot.state.files.StateFiles`, and their checks.

``StateStore.validate`` gives typed errors about one state directory, each with what to
do.  They follow seed 001's three kinds — a file that should exist does not
(:class:`FileNotFound`), a file or directory has the wrong shape
(:class:`InvalidStructure`), a file does not parse (:class:`ParseError`) — and carry
the alternatives the user has.  They are the checks the ``rfd-state`` hook makes of a
commit, made of the whole directory (``rfd lint``): besides the shapes and formats, a
review (``.md``) file not named by its timestamp — the store would ignore it — and a line
that looks like a credential (named by kind and line, never quoted).  Other stray files
(notes, editor backups) are not errors here.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from bot.core.errors import AlreadyExists, FileNotFound, InvalidStructure, RfdError, ValidationError
from bot.core.text import plural
from bot.model import decisions as decisions_md
from bot.model import phase_ids
from bot.model import plan as plan_json
from bot.model.decisions import Action, Decisions, DecisionStatus
from bot.model.plan import PlanPhase
from bot.state.files import (
    DECISIONS,
    EXPLORE,
    IMPL_REVIEWS,
    PHASES,
    PLAN,
    REVIEWS,
    Key,
    ReviewFile,
    RfdState,
    StateFiles,
    headline,
    numbered,
    phase_files,
    phase_names,
    select,
    state_key,
)

if TYPE_CHECKING:
    from bot.model.consensus import Ledger

_T = TypeVar("_T")


class StateStore(StateFiles):
    """Reads and atomic writes of ``<root>/<cfg.state_root>/<id>/``."""

    def read(self, rfd_id: Key) -> RfdState:
        """Everything known about ``rfd_id``; broken files become ``*_error`` fields."""
        key = self.key(rfd_id)
        if not self.dir(key).is_dir():
            return RfdState(key)
        plan, plan_error = _attempt(lambda: self.read_plan(key))
        found, decisions_error = _attempt(lambda: self.read_decisions(key))
        return RfdState(
            key,
            exists=True,
            explore=self.path(key, EXPLORE).is_file(),
            decisions=self.path(key, DECISIONS).is_file(),
            locked=len(found.locked) if found else 0,
            discussing=len(found.discussing) if found else 0,
            decisions_error=decisions_error,
            plan=plan,
            plan_error=plan_error,
            completed=tuple(sorted(phase_ids.done(plan or (), self.phase_files(key)))),
            reviews=tuple(self.list_reviews(key)),
            impl_reviews=tuple(self.list_reviews(key, impl=True)),
        )

    def phase_progress(self, rfd_id: Key) -> tuple[int, int] | None:
        """``(done, total)`` phases, or None without a readable plan (cheap, for lists).

        Counts the entries of ``plan.json`` without validating each one: ``rfd status``
        and ``rfd-state`` report a malformed plan; a listing only needs the numbers.
        """
        base = os.path.join(self.base, self.key(rfd_id))
        try:
            with open(os.path.join(base, PLAN), "rb") as handle:
                phases = json.loads(handle.read())
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(phases, list):
            return None
        try:
            names = os.listdir(os.path.join(base, PHASES))
        except OSError:
            names = []
        keys = [key for name in names if (key := phase_ids.file_key(name))]
        labelled = [_Labelled(p) for p in phases]
        return len(phase_ids.done(labelled, keys)), len(phases)

    def read_explore(self, rfd_id: Key) -> str | None:
        return self.read_text(rfd_id, EXPLORE)

    def write_explore(self, rfd_id: Key, text: str) -> Path:
        return self.write_text(rfd_id, EXPLORE, text)

    def read_decisions(self, rfd_id: Key) -> Decisions | None:
        path = self.path(rfd_id, DECISIONS)
        text = self._read(path)
        return None if text is None else decisions_md.parse(text, self.show(path))

    def write_decisions(self, rfd_id: Key, found: Decisions) -> Path:
        return self.write_text(rfd_id, DECISIONS, decisions_md.render(found))

    def decide(
        self,
        rfd_id: Key,
        action: Action | str,
        *,
        number: int | None = None,
        text: str | None = None,
        status: DecisionStatus | str | None = None,
        reason: str | None = None,
        title: str = "",
    ) -> Decisions:
        """Apply one ``rfd_decision`` call to ``decisions.md`` (created on first use)."""
        current = self.read_decisions(rfd_id) or Decisions(title=title, rfd=state_key(rfd_id))
        found = decisions_md.apply(
            current, action, number=number, text=text, status=status, reason=reason
        )
        self.write_decisions(rfd_id, found)
        return found

    def read_consensus(self, rfd_id: Key) -> Ledger:
        """Sign-offs, concerns and the final comment period (empty before the first)."""
        from bot.model import consensus as consensus_json  # only where sign-offs are read

        path = self.path(rfd_id, consensus_json.FILE)
        text = self._read(path)
        if text is None:
            return consensus_json.Ledger()
        return consensus_json.loads(text, self.show(path))

    def write_consensus(self, rfd_id: Key, ledger: Ledger) -> Path:
        from bot.model import consensus as consensus_json

        return self.write_text(rfd_id, consensus_json.FILE, consensus_json.dumps(ledger))

    def read_plan(self, rfd_id: Key) -> tuple[PlanPhase, ...] | None:
        path = self.path(rfd_id, PLAN)
        text = self._read(path)
        return None if text is None else plan_json.loads(text, self.show(path))

    def write_plan(self, rfd_id: Key, phases: Sequence[PlanPhase]) -> Path:
        """Validate, then write ``plan.json``; on an error the old file is left as it was."""
        path = self.path(rfd_id, PLAN)
        text = plan_json.dumps(phases)
        plan_json.loads(text, self.show(path))
        self._write(path, text)
        return path

    def list_reviews(self, rfd_id: Key, impl: bool = False) -> list[ReviewFile]:
        """Active reviews, oldest first; other files in the directory are ignored."""
        folder = self.path(rfd_id, IMPL_REVIEWS if impl else REVIEWS)
        return [ReviewFile(path, stamp, headline(path)) for stamp, path in numbered(folder)]

    def save_review(self, rfd_id: Key, text: str, *, impl: bool = False, now: int) -> Path:
        """Write ``reviews/<now>.md`` (``now+1``... when that name is taken)."""
        folder = self.path(rfd_id, IMPL_REVIEWS if impl else REVIEWS)
        stamp = now
        while (folder / f"{stamp}.md").exists():
            stamp += 1
        self._write(folder / f"{stamp}.md", text)
        return folder / f"{stamp}.md"

    def dismiss(
        self, rfd_id: Key, selection: Sequence[int] | Literal["all"], impl: bool = False
    ) -> list[Path]:
        """Delete the chosen reviews (1-based, as listed); nothing is deleted on a bad number."""
        reviews = self.list_reviews(rfd_id, impl=impl)
        chosen = reviews if selection == "all" else select(reviews, selection)
        for review in chosen:
            review.path.unlink(missing_ok=True)
        return [review.path for review in chosen]

    def write_phase_summary(self, rfd_id: Key, phase: int | str, text: str) -> Path:
        """Write ``phases/<label>.md`` (a number, or a label such as ``3a``)."""
        bad = isinstance(phase, bool) or (isinstance(phase, int) and phase < 0)
        key = None if bad else phase_ids.normalize(str(phase))
        if key is None:
            raise ValidationError(f"{phase!r} cannot name a phase", hint="use e.g. 1, 0, 3a or B")
        return self.write_text(rfd_id, f"{PHASES}/{key}.md", text)

    def phase_files(self, rfd_id: Key) -> dict[str, Path]:
        """Phase summaries by phase key (``01.md`` is ``1`` unless ``1.md`` exists)."""
        return phase_files(self.path(rfd_id, PHASES))

    def phase_summaries(self, rfd_id: Key) -> dict[int, Path]:
        """``phases/N.md`` files by number N (labelled ones such as ``3a.md`` left out)."""
        return {int(k): p for k, p in self.phase_files(rfd_id).items() if k.isdigit()}

    def done_phases(self, rfd_id: Key, phases: Sequence[PlanPhase]) -> set[int]:
        """Positions (1-based) of the phases of ``phases`` that have a summary."""
        return phase_ids.done(phases, self.phase_files(rfd_id))

    def validate(self, rfd_id: Key, run: Checks | None = None) -> list[RfdError]:
        """Typed errors (with the user's alternatives) about this RFD's state files."""
        return validate(self, rfd_id, run)

    def move(self, old: Key, new: Key) -> Path | None:
        """Move a draft's state to its new id (None when it had none); refuses to merge."""
        source, target = self.dir(old), self.dir(new)
        if not source.exists():
            return None
        if target.exists():
            raise AlreadyExists(
                f"cannot move {self.show(source)} to {self.show(target)}: it already exists",
                path=self.show(target),
                alternatives=(
                    f"merge the two directories by hand and delete {self.show(source)}",
                    f"delete {self.show(target)} if it is stale, then retry",
                ),
            )
        os.replace(source, target)
        self._aliases = None
        self._retitle_decisions(new)
        return target

    def _retitle_decisions(self, rfd_id: Key) -> None:
        try:
            found = self.read_decisions(rfd_id)
        except RfdError:
            return  # a broken file is left for the user; validate() reports it
        if found is not None and found.rfd and found.rfd != state_key(rfd_id):
            self.write_decisions(rfd_id, replace(found, rfd=state_key(rfd_id)))


class _Labelled:
    """A raw ``plan.json`` entry seen as a phase (``phase_progress`` does not validate)."""

    def __init__(self, item: object) -> None:
        data = item if isinstance(item, dict) else {}
        self.title = str(data.get("title", ""))
        self.label = str(data.get("label", "") or "")


def _attempt(read: Callable[[], _T]) -> tuple[_T | None, RfdError | None]:
    try:
        return read(), None
    except RfdError as exc:
        return None, exc


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


Survey = tuple[list[str], list[int]]
"""What a check of a state directory looked at: each entry's path in it (``""`` the
directory itself, listed before its names; a file before it is read) and, five ints each,
its mode, size, modification and change times and inode."""
Checks = Callable[[str, Path, Callable[[], tuple[list[RfdError], Survey | None]]], list[RfdError]]
"""How a state directory's checks run: ``(its name, the directory, checks) -> errors``, the
checks giving their survey too (``rfd lint`` passes its cache,
:meth:`bot.lifecycle.lint_cache.LintCache.state_errors`)."""


def validate(store: StateStore, rfd_id: Key, run: Checks | None = None) -> list[RfdError]:
    """Everything wrong with the state of ``rfd_id`` (empty when all is well or none exists)."""
    key, name = state_key(rfd_id), store.key(rfd_id)  # the id's own, the directory's
    folder = store.base / name
    if not folder.is_dir():
        if not folder.exists():
            return []
        move = "move the file away; the directory is created again when needed"
        return [
            InvalidStructure("should be a directory", path=store.show(folder), alternatives=(move,))
        ]
    if run is None:
        return _errors(store, key, folder, Snapshot(store, folder))
    return run(name, folder, lambda: _surveyed(store, key, folder))


def _surveyed(store: StateStore, key: str, folder: Path) -> tuple[list[RfdError], Survey | None]:
    seen = Snapshot(store, folder, survey=True)
    return _errors(store, key, folder, seen), seen.survey


def _errors(store: StateStore, key: str, folder: Path, seen: Snapshot) -> list[RfdError]:
    """The checks of the files of the state directory ``folder``."""
    from bot.model import consensus as consensus_json  # lint's, not every event's

    errors = _shape_errors(store, folder, seen.kinds())
    errors += _read_errors(key, DECISIONS, lambda: seen.parsed(DECISIONS, decisions_md.parse))
    errors += _read_errors(key, EXPLORE, lambda: seen.text(EXPLORE))
    errors += _read_errors(key, CONSENSUS, lambda: seen.parsed(CONSENSUS, consensus_json.loads))
    errors += _review_names(store, folder, seen) + _secrets(store, folder, seen)
    try:
        plan = seen.parsed(PLAN, plan_json.loads)
    except RfdError as exc:
        return [*errors, _with_fixes(exc, fixes(key, PLAN))]
    return errors + _phase_errors(store, key, folder, plan, seen.phases())


class Snapshot:
    """One walk of a state directory for :func:`validate`: every regular file read once
    (the credential scan needs them all; the parsed ones come from the same bytes), every
    directory listed once.  Symbolic links are neither followed nor read (as the
    credential scan always did); when the directory holds one, the other reads fall back
    to the paths themselves, which follow it as the store's own reads do.

    With ``survey``, each entry's ``stat`` is noted as the walk meets it (a file's from
    its open descriptor, before it is read): :data:`Survey`, None when a link is there."""

    def __init__(self, store: StateFiles, folder: Path, survey: bool = False) -> None:
        self.store, self.folder = store, folder
        self.shown = store.show(folder)
        self.listed: dict[tuple[str, ...], list[os.DirEntry[str]]] = {}
        self.data: dict[tuple[str, ...], bytes] = {}
        self.survey: Survey | None = ([], []) if survey else None
        self.plain = self._walk(str(folder), ())
        if not self.plain:
            self.survey = None

    def _walk(self, top: str, parts: tuple[str, ...]) -> bool:
        here = os.path.join(top, *parts)
        self._note(parts, None, here)
        with os.scandir(here) as entries:
            listed = self.listed[parts] = list(entries)
        plain = True
        for entry in listed:
            if entry.is_symlink():
                plain = False
            elif entry.is_dir():
                plain = self._walk(top, (*parts, entry.name)) and plain
            elif entry.is_file():
                self.data[(*parts, entry.name)] = self._read((*parts, entry.name), entry.path)
            else:
                self._note((*parts, entry.name), entry.stat(follow_symlinks=False))
        return plain

    def _read(self, parts: tuple[str, ...], path: str) -> bytes:
        fd = os.open(path, os.O_RDONLY)
        try:
            self._note(parts, os.fstat(fd))
            return read_all(fd)
        finally:
            os.close(fd)

    def _note(self, parts: tuple[str, ...], st: os.stat_result | None, path: str = "") -> None:
        if self.survey is None:
            return
        st = os.stat(path, follow_symlinks=False) if st is None else st
        self.survey[0].append("/".join(parts))
        self.survey[1].extend((st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))

    def kinds(self) -> dict[str, bool]:
        """The directory's entries: whether each is a directory (links followed)."""
        return {entry.name: entry.is_dir() for entry in self.listed[()]}

    def text(self, name: str) -> str | None:
        """The text of the file ``name`` (None: absent or a directory), as the store reads it."""
        if not self.plain:
            return self.store._read(self.folder / name)
        data = self.data.get((name,))
        return None if data is None else self.store.decode(data, self.show(name))

    def parsed(self, name: str, parse: Callable[[str, str], _T]) -> _T | None:
        text = self.text(name)
        return None if text is None else parse(text, self.show(name))

    def show(self, *parts: str) -> str:
        """A path of the directory as the user knows it (no Path made per file)."""
        return "/".join((self.shown, *parts))

    def names(self, sub: str) -> list[str] | None:
        """The names in the directory ``sub``, sorted (None when it is no directory)."""
        if not self.plain:
            try:
                return sorted(os.listdir(self.folder / sub))
            except OSError:  # no such directory (or a file in its place: a shape error)
                return None
        listed = self.listed.get((sub,))
        return None if listed is None else sorted(entry.name for entry in listed)

    def phases(self) -> dict[str, str]:
        """The phase summaries' file names by phase key (:func:`phase_names`)."""
        if not self.plain:
            return {key: path.name for key, path in phase_files(self.folder / PHASES).items()}
        listed = self.listed.get((PHASES,), ())
        return phase_names(entry.name for entry in listed if entry.is_file())


def orphans(store: StateStore, base: Path, owned: set[str]) -> list[RfdError]:
    """State directories under ``base`` that belong to no RFD (``owned``: the directory
    names of the RFDs there are); the shared areas (``.forge``) are not state of an RFD."""
    try:
        with os.scandir(base) as entries:  # a stat only for the names no RFD owns
            names = [e.name for e in entries if e.name not in owned and e.is_dir()]
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [
        FileNotFound(
            f"state for RFD {name}, which has no RFD file",
            path=store.show(base / name),
            alternatives=(
                f"remove {store.show(base / name)}",
                "if the RFD was renumbered, move it to the new id (`git mv`)",
            ),
        )
        for name in sorted(names)
        if not name.startswith(".")
    ]


def read_all(fd: int, chunk: int = 65536) -> bytes:
    """The rest of an open file: ``os.read`` until the end (``open()`` builds a buffered
    reader and asks whether the file is a terminal: 2.3× the time for a small file)."""
    parts = []
    while data := os.read(fd, chunk):
        parts.append(data)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _review_names(store: StateStore, folder: Path, seen: Snapshot) -> list[RfdError]:
    errors: list[RfdError] = []
    for name in (REVIEWS, IMPL_REVIEWS):
        names = seen.names(name)
        errors += [
            InvalidStructure(
                f"review file {n!r} is not named by its unix timestamp",
                path=seen.show(name, n),
                alternatives=(f"rename it to {name}/<seconds since 1970>.md",),
            )
            for n in names or ()
            if n.endswith(".md") and not _REVIEW_NAME.match(n)  # a review the store ignores
        ]
    return errors


def _secrets(store: StateStore, folder: Path, seen: Snapshot) -> list[RfdError]:
    """A line of a state file that looks like a credential (named by kind, never quoted)."""
    from bot.core.secret_shapes import find, may_hold

    if not may_hold(b"\n".join(seen.data.values()).decode("utf-8", "surrogateescape")):
        return []  # one search of the whole directory: most hold nothing secret-ish
    errors: list[RfdError] = []
    for parts in sorted(seen.data):
        text = seen.data[parts][:MAX_SCAN].decode("utf-8", "surrogateescape")
        lines = {text.count("\n", 0, s.start) + 1: s.kind for s in find(text)}
        errors += [
            ValidationError(
                f"looks like {kind}",
                path=seen.show(*parts),
                line=line,
                alternatives=(
                    "remove it (state files are committed and pushed); revoke it if it ever "
                    "left your machine, and keep keys in environment variables",
                ),
            )
            for line, kind in sorted(lines.items())
        ]
    return errors


def _read_errors(key: str, name: str, read: Callable[[], object]) -> list[RfdError]:
    try:
        read()
    except RfdError as exc:
        return [_with_fixes(exc, fixes(key, name))]
    return []


def _shape_errors(store: StateStore, folder: Path, is_dir: dict[str, bool]) -> list[RfdError]:
    errors: list[RfdError] = []
    for name, want_dir in _SHAPE:
        if name not in is_dir or is_dir[name] == want_dir:
            continue
        path = folder / name
        if path.exists():  # not a dead link
            kind = "a directory" if want_dir else "a file"
            alternatives = (f"rename it and put {kind} named {name} in its place",)
            errors.append(
                InvalidStructure(
                    f"should be {kind}", path=store.show(path), alternatives=alternatives
                )
            )
    return errors


def _phase_errors(
    store: StateStore,
    key: str,
    folder: Path,
    plan: tuple[PlanPhase, ...] | None,
    summaries: dict[str, str],
) -> list[RfdError]:
    if plan is None and summaries:
        n = len(summaries)
        exist = "exists" if n == 1 else "exist"
        message = f"{plural(n, 'phase summary')} {exist} but plan.json does not"
        alternatives = (
            f"re-run `rfd accept {key}` to write plan.json",
            f"delete {PHASES}/ if those summaries are stale",
        )
        return [FileNotFound(message, path=store.show(folder / PLAN), alternatives=alternatives)]
    phases = plan or ()
    return [
        _past_end(store.show(folder / PHASES / file), name, phase_ids.labels(phases))
        for name, file in summaries.items()
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
