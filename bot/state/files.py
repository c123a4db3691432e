"""StateFiles: the paths, locks and plain-text reads and atomic writes of one state
directory per RFD; :class:`bot.state.store.StateStore` builds its typed reads on them."""

from __future__ import annotations

import os
from contextlib import AbstractContextManager
from pathlib import Path

from bot.config.load import Config
from bot.core.atomic import append_line, atomic_write
from bot.core.errors import ParseError
from bot.state import lock
from bot.state.layout import Key, id_of, ids_of_folders, in_the_way, relative_parts, state_key
from bot.state.shared import SharedFiles, check_area


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
            return path.read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except UnicodeDecodeError as exc:
            hint = "save it as UTF-8, or delete it to start that step over"
            raise ParseError("is not UTF-8 text", path=self.show(path), hint=hint) from exc
        except OSError as exc:
            raise ParseError(f"cannot be read: {exc.strerror}", path=self.show(path)) from exc
