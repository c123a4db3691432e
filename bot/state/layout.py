"""The shape of a state directory: names, records, and tolerant directory scans."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Protocol

from bot.core.errors import InvalidStructure, RfdError, ValidationError
from bot.model.ids import RfdId
from bot.model.phase_ids import file_key
from bot.model.plan import PlanPhase

EXPLORE, DECISIONS, PLAN = "explore.md", "decisions.md", "plan.json"
REVIEWS, IMPL_REVIEWS, PHASES = "reviews", "impl-reviews", "phases"
HEADLINE_BYTES = 2048
"""How much of a review is read for its headline (``rfd status`` stays fast)."""
HEADLINE_WIDTH = 72

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_NUMBERED_MD = re.compile(r"^(\d+)\.md$")
_NOT_HEADLINE = re.compile(r"^\s*(?:\#|<!--|---|```|$)")


class HasStateKey(Protocol):
    """An RFD id (``bot.model.ids.RfdId``): its ``state_key`` names the state directory."""

    @property
    def state_key(self) -> str: ...


Key = str | HasStateKey
"""An RFD id, or its state key as a string (``"045"``, ``"D32"``)."""


@dataclass(frozen=True)
class ReviewFile:
    path: Path
    timestamp: int
    headline: str
    """First line of prose, shortened: what ``rfd status`` lists."""


@dataclass(frozen=True)
class RfdState:
    """What the state directory says about one RFD, derived only from its files."""

    key: str
    exists: bool = False
    explore: bool = False
    decisions: bool = False
    locked: int = 0
    discussing: int = 0
    decisions_error: RfdError | None = None
    plan: tuple[PlanPhase, ...] | None = None
    plan_error: RfdError | None = None
    completed: tuple[int, ...] = ()
    """Positions (1-based) of the plan's phases that have a summary (``bot.model.phase_ids``)."""
    reviews: tuple[ReviewFile, ...] = ()
    impl_reviews: tuple[ReviewFile, ...] = ()

    @property
    def total(self) -> int:
        return len(self.plan or ())

    @property
    def done(self) -> int:
        return sum(1 for n in self.completed if 1 <= n <= self.total)

    @property
    def next_phase(self) -> int | None:
        """The first phase (1-based) without a summary; None when all are done or no plan."""
        return next((n for n in range(1, self.total + 1) if n not in self.completed), None)


def state_key(rfd_id: Key) -> str:
    """The directory name of ``rfd_id``; ValidationError for anything that is not an id."""
    key = rfd_id if isinstance(rfd_id, str) else rfd_id.state_key
    if not _KEY.match(key):
        raise ValidationError(f"{key!r} cannot name a state directory", hint="use an RFD id")
    return key


@lru_cache(maxsize=256)  # the same few names, asked for each RFD a command reads
def relative_parts(relpath: str) -> tuple[str, ...]:
    """The parts of a path that must stay inside a state directory."""
    parts = PurePosixPath(relpath).parts
    if not parts or relpath.startswith("/") or any(p in ("..", ".") for p in parts):
        raise ValidationError(f"{relpath!r} is not a path inside the state directory")
    return parts


@contextmanager
def in_the_way(shown: str) -> Iterator[None]:
    """Turn a hand edit in the way of a write (a file where a directory belongs...) into
    an InvalidStructure naming the path."""
    try:
        yield
    except (FileExistsError, NotADirectoryError, IsADirectoryError) as exc:
        hint = "something is in the way: `rfd status` lists what to fix"
        raise InvalidStructure(f"cannot write: {exc.strerror}", path=shown, hint=hint) from exc


def numbered(folder: Path) -> list[tuple[int, Path]]:
    """``(N, path)`` of the ``N.md`` files in ``folder``, by N; anything else is ignored.

    When ``01.md`` and ``1.md`` both exist, ``1.md`` comes first.
    """
    try:
        entries = [e for e in os.scandir(folder) if e.is_file()]
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [(int(m[1]), Path(e.path)) for e in entries if (m := _NUMBERED_MD.match(e.name))]
    return sorted(found, key=lambda item: (item[0], item[1].name != f"{item[0]}.md"))


def phase_files(folder: Path) -> dict[str, Path]:
    """Phase summaries in ``folder`` by phase key (``bot.model.phase_ids.file_key``).

    When ``01.md`` and ``1.md`` both exist, ``1.md`` wins.
    """
    try:
        entries = sorted(e.name for e in os.scandir(folder) if e.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return {}
    found: dict[str, Path] = {}
    for name in entries:
        key = file_key(name)
        if key is not None and (key not in found or name == f"{key}.md"):
            found[key] = folder / name
    return found


def headline(path: Path) -> str:
    """The first line of prose of a review (headings, comments, rules skipped)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(HEADLINE_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""
    line = next((ln for ln in head.splitlines() if not _NOT_HEADLINE.match(ln)), "")
    line = " ".join(line.strip().lstrip("-*> ").replace("**", "").split())
    return line if len(line) <= HEADLINE_WIDTH else line[: HEADLINE_WIDTH - 1].rstrip() + "…"


def select(reviews: list[ReviewFile], selection: Sequence[int]) -> list[ReviewFile]:
    """The reviews picked by 1-based numbers; ValidationError if any number is not listed."""
    bad = [n for n in selection if isinstance(n, bool) or not 1 <= n <= len(reviews)]
    if bad:
        valid = f"1–{len(reviews)}" if reviews else "none, there are no active reviews"
        raise ValidationError(f"no review number {bad[0]} (valid: {valid})")
    return [reviews[n - 1] for n in sorted(set(selection))]


def id_of(name: str) -> object:
    """The id a directory name stands for (padding aside), or the name itself."""
    try:
        return RfdId.parse(name)
    except RfdError:
        return name


def ids_of_folders(base: Path) -> dict[object, str]:
    """Existing state directories by the id they stand for."""
    try:
        with os.scandir(base) as entries:
            names = sorted(e.name for e in entries if e.is_dir() and not e.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return {}
    return {id_of(name): name for name in reversed(names)}
