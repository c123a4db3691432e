"""The files of the state root: the shape of a state directory (names, records, tolerant
directory scans), per RFD the paths, locks, plain-text reads and atomic
writes (:class:`bot.state.store.StateStore` builds its typed reads on them), and the
files that belong to no single RFD.

Locks: one run of a step at a time, and a dead run's lock expires.  The lock file is
created exclusively (``O_EXCL``) and holds who took it: process id, host and time.
Another run that finds it refuses, naming the holder — unless the holder is dead: on the
same host its process is gone, elsewhere (a shared checkout) it is older than
:data:`STALE_SECONDS`; a garbled file counts as dead too.  A dead run's lock is taken
over; the holder removes its own lock when it ends, however it ends.

Shared files (e.g. the local forge's ``.forge/``) live in dot-directories of the state
root, which can never be RFD ids; their interface is the one
``bot.forge.local.ForgeFiles`` asks for.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import NamedTuple, Protocol

from bot.config.load import Config
from bot.core.atomic import append_line, atomic_write
from bot.core.errors import GateError, InvalidStructure, ParseError, RfdError, ValidationError
from bot.model.ids import RfdId
from bot.model.phase_ids import file_key
from bot.model.plan import PlanPhase

EXPLORE, DECISIONS, PLAN = "explore.md", "decisions.md", "plan.json"
REVIEWS, IMPL_REVIEWS, PHASES = "reviews", "impl-reviews", "phases"


def implement_dir(position: int | str) -> str:
    """Where ``implement`` keeps the work of the plan's phase at ``position`` (research,
    ``items.md``, the summary), relative to the RFD's state directory."""
    return f"implement/{position}"


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
        names = [e.name for e in os.scandir(folder) if e.is_file()]
    except (FileNotFoundError, NotADirectoryError):
        return {}
    return {key: folder / name for key, name in phase_names(names).items()}


def phase_names(names: Iterable[str]) -> dict[str, str]:
    """The file names of ``names`` that are phase summaries, by phase key (as
    :func:`phase_files`: ``1.md`` wins over ``01.md``)."""
    found: dict[str, str] = {}
    for name in sorted(names):
        key = file_key(name)
        if key is not None and (key not in found or name == f"{key}.md"):
            found[key] = name
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


class StateFiles:
    """Paths inside ``<root>/<cfg.state_root>/<id>/`` and the text files there."""

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
        """The lock file ``relpath`` held for a block (:func:`held`)."""
        return held(self.path(rfd_id, relpath), what)

    def shared(self, area: str = ".forge") -> SharedFiles:
        """Files of the state root outside any RFD (the local forge keeps its issues there)."""
        return SharedFiles(self.base / check_area(area), self.root)

    def show(self, path: Path) -> str:
        """``path`` as the user knows it: relative to the repository root."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

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

    def read_root_file(self, name: str) -> str | None:
        """A file of the state root itself (``baseline.json``); None when absent."""
        (part,) = relative_parts(name)
        return self._read(self.base / part)

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
            with open(path, "rb") as handle:
                data = handle.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except OSError as exc:
            raise ParseError(f"cannot be read: {exc.strerror}", path=self.show(path)) from exc
        return self.decode(data, path)

    def decode(self, data: bytes, path: Path | str) -> str:
        """The text of a state file read as bytes, as a text-mode read gives it (UTF-8, line
        endings made ``\\n``); ParseError naming ``path`` (shown as it is when a string)
        when it is not UTF-8."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            hint = "save it as UTF-8, or delete it to start that step over"
            shown = path if isinstance(path, str) else self.show(path)
            raise ParseError("is not UTF-8 text", path=shown, hint=hint) from exc
        return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


STALE_SECONDS = 6 * 3600
"""Older than the longest run (a GitHub job's limit): its run has died."""
HELD = "{what} is already running (process {pid} on {host}, since {since}): wait for it to end"
HINT = "if that run is gone, delete {path} and run it again"


class Holder(NamedTuple):
    pid: int
    host: str
    started: float


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def held(
    path: Path,
    what: str,
    *,
    clock: Callable[[], float] = time.time,
    alive: Callable[[int], bool] = _alive,
) -> Iterator[None]:
    """Hold the lock ``path`` for the block; GateError when a live run holds it."""
    mine = json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": clock()})
    path.parent.mkdir(parents=True, exist_ok=True)
    if not _create(path, mine):
        holder = _holder(path)
        if holder is not None and _live(holder, clock, alive):
            since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(holder.started))
            message = HELD.format(what=what, pid=holder.pid, host=holder.host, since=since)
            raise GateError(message, hint=HINT.format(path=path))
        path.unlink(missing_ok=True)  # a dead run's lock
        if not _create(path, mine):
            raise GateError(HELD.format(what=what, pid="?", host="?", since="now"))
    try:
        yield
    finally:
        if path.is_file() and path.read_text(encoding="utf-8") == mine:
            path.unlink()


def _create(path: Path, text: str) -> bool:
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    return True


def _holder(path: Path) -> Holder | None:
    """Who holds the lock; None when the file is gone or garbled (a dead run's)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Holder(int(data["pid"]), str(data["host"]), float(data["started"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _live(holder: Holder, clock: Callable[[], float], alive: Callable[[int], bool]) -> bool:
    if holder.host == socket.gethostname():
        return alive(holder.pid)
    return clock() - holder.started < STALE_SECONDS


_AREA = re.compile(r"^\.[a-z][a-z0-9_-]*$")


def check_area(name: str) -> str:
    """``name`` if it can name a shared area (a dot-directory such as ``.forge``)."""
    if not _AREA.match(name):
        raise ValidationError(f"{name!r} cannot name a shared state area", hint="use e.g. .forge")
    return name


@dataclass(frozen=True)
class SharedFiles:
    """Atomic reads and writes under one dot-directory of the state root."""

    base: Path
    repo_root: Path

    def path(self, relpath: str) -> Path:
        return self.base.joinpath(*relative_parts(relpath))

    def read(self, relpath: str) -> str | None:
        path = self.path(relpath)
        try:
            return path.read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except (UnicodeDecodeError, OSError) as exc:
            raise ParseError("cannot be read as UTF-8 text", path=self.show(path)) from exc

    def write(self, relpath: str, text: str) -> str:
        """Write atomically; return the path as the user knows it."""
        path = self.path(relpath)
        with in_the_way(self.show(path)):
            atomic_write(path, text)
        return self.show(path)

    def append_line(self, relpath: str, line: str) -> str:
        """Append one line (a repository-level log); return the path as the user knows it."""
        path = self.path(relpath)
        append_line(path, line)
        return self.show(path)

    def list(self, reldir: str) -> list[str]:
        """Names of the files directly in ``reldir`` (empty when it does not exist)."""
        try:
            return sorted(e.name for e in os.scandir(self.path(reldir)) if e.is_file())
        except (FileNotFoundError, NotADirectoryError):
            return []

    def show(self, path: Path) -> str:
        try:
            return path.relative_to(self.repo_root).as_posix()
        except ValueError:
            return str(path)
