"""Files of the state root that belong to no single RFD (e.g. the local forge's ``.forge/``).

They live in dot-directories of the state root, which can never be RFD ids.  The
interface is the one ``bot.forge.local.ForgeFiles`` asks for.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from bot.core.atomic import append_line, atomic_write
from bot.core.errors import ParseError, ValidationError
from bot.state.layout import in_the_way, relative_parts

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
