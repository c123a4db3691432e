"""StateStore: reads and atomic writes of one state directory per RFD (see ``bot.state``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Literal, TypeVar

from bot.config.load import Config
from bot.core.atomic import append_line, atomic_write
from bot.core.errors import AlreadyExists, ParseError, RfdError, ValidationError
from bot.model import consensus as consensus_json
from bot.model import decisions as decisions_md
from bot.model import phase_ids
from bot.model import plan as plan_json
from bot.model.decisions import Decisions
from bot.model.plan import PlanPhase
from bot.state import check, lock
from bot.state.layout import (
    DECISIONS,
    EXPLORE,
    IMPL_REVIEWS,
    PHASES,
    PLAN,
    REVIEWS,
    Key,
    ReviewFile,
    RfdState,
    headline,
    id_of,
    ids_of_folders,
    in_the_way,
    numbered,
    phase_files,
    relative_parts,
    select,
    state_key,
)
from bot.state.shared import SharedFiles, check_area

_T = TypeVar("_T")


class StateStore:
    """Reads and atomic writes of ``<root>/<cfg.state_root>/<id>/``."""

    def __init__(self, root: Path, cfg: Config) -> None:
        self.root = root
        self.base = root / cfg.state_root
        self._aliases: dict[object, str] | None = None

    def dir(self, rfd_id: Key) -> Path:
        return self.base / self.key(rfd_id)

    def key(self, rfd_id: Key) -> str:
        """The directory name of ``rfd_id``: its own (``D05``), or an existing directory
        of the same id written with other padding (``D5/``, from before ids kept theirs)."""
        key = state_key(rfd_id)
        if os.path.isdir(os.path.join(self.base, key)):
            return key
        if self._aliases is None:
            self._aliases = ids_of_folders(self.base)
        return self._aliases.get(id_of(key), key) if self._aliases else key

    def path(self, rfd_id: Key, relpath: str) -> Path:
        """``relpath`` inside the RFD's state directory (never outside it)."""
        return self.dir(rfd_id).joinpath(*relative_parts(relpath))

    def hold(self, rfd_id: Key, relpath: str, what: str) -> AbstractContextManager[None]:
        """The lock file ``relpath`` held for a block (:mod:`bot.state.lock`)."""
        return lock.held(self.path(rfd_id, relpath), what)

    def shared(self, area: str = ".forge") -> SharedFiles:
        """Files of the state root outside any RFD (the local forge keeps its issues there)."""
        return SharedFiles(self.base / check_area(area), self.root)

    def show(self, path: Path) -> str:
        """``path`` as the user knows it: relative to the repository root."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

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

    def read_text(self, rfd_id: Key, relpath: str) -> str | None:
        """The file's text, or None when it does not exist (ParseError when not UTF-8)."""
        return self._read(self.path(rfd_id, relpath))

    def write_text(self, rfd_id: Key, relpath: str, text: str) -> Path:
        path = self.path(rfd_id, relpath)
        self._write(path, text)
        return path

    def append_line(self, rfd_id: Key, relpath: str, line: str) -> Path:
        """Append one line to a ledger or event log."""
        path = self.path(rfd_id, relpath)
        with in_the_way(self.show(path)):
            append_line(path, line)
        return path

    def remove_tree(self, rfd_id: Key, relpath: str = "") -> bool:
        """Delete a file or directory (all state with ``relpath=""``): explicit requests only."""
        path = self.path(rfd_id, relpath) if relpath else self.dir(rfd_id)
        if path.is_dir() and not path.is_symlink():
            import shutil  # rarely needed: listing and reading state skip its import

            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        else:
            return False
        return True

    def write_root_file(self, name: str, text: str) -> Path:
        """A file of the state root itself (``baseline.json``), written atomically."""
        (part,) = relative_parts(name)  # one plain name: never a directory or outside
        path = self.base / part
        self._write(path, text)
        return path

    def _write(self, path: Path, text: str) -> None:
        with in_the_way(self.show(path)):
            atomic_write(path, text)

    def _read(self, path: Path) -> str | None:
        try:
            return path.read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except UnicodeDecodeError as exc:
            hint = "save it as UTF-8, or delete it to start that step over"
            raise ParseError("is not UTF-8 text", path=self.show(path), hint=hint) from exc
        except OSError as exc:
            raise ParseError(f"cannot be read: {exc.strerror}", path=self.show(path)) from exc

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
        action: decisions_md.Action | str,
        *,
        number: int | None = None,
        text: str | None = None,
        status: decisions_md.DecisionStatus | str | None = None,
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

    def read_consensus(self, rfd_id: Key) -> consensus_json.Ledger:
        """Sign-offs, concerns and the final comment period (empty before the first)."""
        path = self.path(rfd_id, consensus_json.FILE)
        text = self._read(path)
        if text is None:
            return consensus_json.Ledger()
        return consensus_json.loads(text, self.show(path))

    def write_consensus(self, rfd_id: Key, ledger: consensus_json.Ledger) -> Path:
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

    def validate(self, rfd_id: Key) -> list[RfdError]:
        """Typed errors (with the user's alternatives) about this RFD's state files."""
        return check.validate(self, rfd_id)

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
