"""StateStore: the typed reads and writes of one state directory per RFD (explore, decisions,
consensus, plan, reviews, phase summaries; see ``bot.state``), on the files of
:class:`bot.state.files.StateFiles`."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal, TypeVar

from bot.core.errors import AlreadyExists, RfdError, ValidationError
from bot.model import consensus as consensus_json
from bot.model import decisions as decisions_md
from bot.model import phase_ids
from bot.model import plan as plan_json
from bot.model.decisions import Action, Decisions, DecisionStatus
from bot.model.plan import PlanPhase
from bot.state import check
from bot.state.files import StateFiles
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
    numbered,
    phase_files,
    select,
    state_key,
)

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
