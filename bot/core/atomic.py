"""Crash-safe file writes and creation conflicts.

``atomic_write`` writes a temp file in the target's directory, fsyncs it and renames
it over the target, so a reader sees the old file or the new one, never half of one;
a failed write leaves the old file and no temp file behind.  Used by the state store
and by the edits of RFD files.

``all_or_nothing()`` makes a run of writes one change: every file ``atomic_write``,
``append_line`` or ``make_dir`` touches inside it is remembered as it was, and put back
(created files and directories removed) when the block raises.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from enum import Enum
from pathlib import Path

from bot.core.errors import ValidationError

DEFAULT_MODE = 0o644
"""Mode of newly created files (``mkstemp`` would make them private to the user)."""


def read_exact(path: Path) -> str:
    """The file's text exactly as stored: unlike ``Path.read_text``, CRLF line endings stay
    CRLF, so what is read, edited and written back changes only what the edit meant to."""
    return path.read_bytes().decode("utf-8")


class OnExists(Enum):
    """What to do when something to be created exists already (``--on-exists``)."""

    USE = "use"
    """Keep and use the existing one."""
    SUFFIX = "suffix"
    """Create a new one beside it, named ``name-2``, ``name-3``..."""
    REPLACE = "replace"
    """Overwrite the existing one."""

    @classmethod
    def parse(cls, text: str) -> OnExists:
        try:
            return cls(text.strip().lower())
        except ValueError:
            allowed = ", ".join(member.value for member in cls)
            raise ValidationError(f"unknown choice {text!r}; use one of: {allowed}") from None


def unique_suffix(name: str, exists: Callable[[str], bool]) -> str:
    """The first of ``name-2``, ``name-3``... (before any extension) that does not exist."""
    stem, dot, ext = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    number = 2
    while exists(candidate := f"{stem}-{number}{dot}{ext}"):
        number += 1
    return candidate


class Journal:
    """The files and directories a run of writes changed, as they were before it."""

    def __init__(self) -> None:
        self._files: dict[Path, bytes | None] = {}
        self._dirs: list[Path] = []

    def remember(self, path: Path) -> None:
        """Note ``path`` (and the directories above it that do not exist yet) once."""
        path = path.absolute()
        if path in self._files:
            return
        self._files[path] = path.read_bytes() if path.is_file() else None
        missing = [d for d in path.parents if not d.exists()]
        self._dirs += [d for d in reversed(missing) if d not in self._dirs]

    def remember_dir(self, directory: Path) -> None:
        directory = directory.absolute()
        missing = [d for d in (directory, *directory.parents) if not d.exists()]
        self._dirs += [d for d in reversed(missing) if d not in self._dirs]

    @property
    def touched(self) -> list[Path]:
        return list(self._files)

    def undo(self) -> None:
        """Put every remembered file back as it was, remove what did not exist."""
        for path, before in reversed(self._files.items()):
            if before is None:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
            else:
                path.write_bytes(before)
        for directory in reversed(self._dirs):
            with contextlib.suppress(OSError):  # not empty: something else lives there
                directory.rmdir()


_JOURNAL: ContextVar[Journal | None] = ContextVar("rfd_write_journal", default=None)


@contextlib.contextmanager
def all_or_nothing() -> Iterator[Journal]:
    """Writes inside the block land together or not at all (see the module's text); inside
    another such block, they are part of that one."""
    outer = _JOURNAL.get()
    if outer is not None:
        yield outer
        return
    journal = Journal()
    token = _JOURNAL.set(journal)
    try:
        yield journal
    except BaseException:
        journal.undo()
        raise
    finally:
        _JOURNAL.reset(token)


def _remember(path: Path) -> None:
    journal = _JOURNAL.get()
    if journal is not None:
        journal.remember(path)


def make_dir(directory: Path) -> None:
    """``mkdir -p``, undone with the rest when inside ``all_or_nothing()``."""
    journal = _JOURNAL.get()
    if journal is not None:
        journal.remember_dir(directory)
    directory.mkdir(parents=True, exist_ok=True)


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8, newlines as given) all at once."""
    import tempfile  # only when writing: read-only commands (rfd list) skip its ~5 ms import

    _remember(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _mode(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def append_line(path: Path, line: str) -> None:
    """Append one line (a ledger entry) with a single ``O_APPEND`` write, then fsync."""
    if "\n" in line or "\r" in line:
        raise ValidationError("a ledger line cannot contain a line break", path=path)
    _remember(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, DEFAULT_MODE)
    try:
        lead = "\n" if _lacks_final_newline(path) else ""
        os.write(fd, f"{lead}{line}\n".encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def _lacks_final_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        if handle.seek(0, os.SEEK_END) == 0:
            return False
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"


def _mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return DEFAULT_MODE


def _fsync_dir(directory: Path) -> None:
    """Make the rename durable; some platforms cannot open a directory, which is fine."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
