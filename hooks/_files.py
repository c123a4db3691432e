"""Reading a file of the working tree as the hooks may: inside the repository, bounded.

A symlink that leads out of the repository (to ``/etc/passwd``, a CI environment file,
``/dev/zero``...) is an error naming the path, never the target, whose content is never
read; so is anything that is not a regular file, or a file larger than
:data:`MAX_BYTES` (an RFD or a state file is text a person reviews, not a data dump).
"""

from __future__ import annotations

import os
import stat

from bot.core.errors import InvalidStructure, ParseError, RfdError

Root = str | os.PathLike[str]
"""The repository's root as the hooks take it: ``os.getcwd()`` on a hook's command line, or
a ``Path`` a caller has (the hooks' path never imports :mod:`pathlib`, ≈ 5 ms with the
``urllib.parse`` and ``ipaddress`` it loads)."""

MAX_BYTES = 2 * 1024 * 1024
"""Largest RFD or state file a hook reads (2 MiB)."""

OUTSIDE = "is a symlink to a file outside the repository: the hooks do not follow it"
OUTSIDE_HINT = "commit the file itself, not a link to it"
NOT_A_FILE = "is not a regular file (a device, a pipe or a socket)"
TOO_LARGE = "is larger than {limit} bytes: too large for an RFD or state file"
TOO_LARGE_HINT = "split it, or keep the data elsewhere and link to it"
CONTROL = "file name holds a control character (newline, tab, ESC…)"
CONTROL_HINT = "rename it with printable characters only: RFD and state file names are text"


def read_inside(root: Root, rel: str) -> bytes | None:
    """The bytes of ``root/rel`` (None when absent); RfdError naming ``rel`` when it leads
    out of the repository, is no regular file or is too large."""
    path = os.path.join(root, rel)
    try:
        real = os.path.realpath(path)
        info = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise ParseError(f"cannot be read: {exc.strerror}", path=rel) from None
    if os.path.commonpath([real, os.path.realpath(root)]) != os.path.realpath(root):
        raise InvalidStructure(OUTSIDE, path=rel, hint=OUTSIDE_HINT)
    if stat.S_ISDIR(info.st_mode):
        return None
    if not stat.S_ISREG(info.st_mode):
        raise InvalidStructure(NOT_A_FILE, path=rel)
    with open(real, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise too_large(rel)
    return data


def too_large(rel: str) -> RfdError:
    return ParseError(TOO_LARGE.format(limit=MAX_BYTES), path=rel, hint=TOO_LARGE_HINT)


def control_in_name(path: str) -> RfdError | None:
    """An error when ``path`` holds a control character (shown escaped), else None."""
    if path.isprintable():
        return None
    return InvalidStructure(CONTROL, path=repr(path)[1:-1], hint=CONTROL_HINT)
