"""The set-up inside the namespaces ``unshare`` made, before it runs an implement command.

``unshare --user --map-root-user --pid --fork --mount-proc --mount [--net]`` gives a fresh
PID namespace (its own ``/proc``: no ancestor's environment) and a private mount
namespace; this module then shapes that namespace as
:class:`bot.agent.implementation.isolation.View`
says — everything read-only, homes and temp directories emptied, the worktree writable,
the RFD directory and git's files read-only, a minimal ``/dev`` — and drops every
capability before ``exec`` (so the command cannot unmount what hides the real files).

Paths arrive as JSON data in one argument; no shell ever sees them.
Run as ``python -I -m bot.agent.implementation.unshare_setup SPEC -- COMMAND...``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

STAGE = Path("/mnt")
"""A private tmpfs here holds the binds while the directories they come from are hidden."""
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
KEEP_WRITABLE = ("/proc", str(STAGE))
LINKS = {
    "fd": "/proc/self/fd",
    "stdin": "/proc/self/fd/0",
    "stdout": "/proc/self/fd/1",
    "stderr": "/proc/self/fd/2",
}
DROP_PRIVILEGES = (
    "setpriv",
    "--inh-caps=-all",
    "--ambient-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
    "--",
)
USAGE = "usage: python -I -m bot.agent.implementation.unshare_setup SPEC -- COMMAND..."
SETUP_FAILED = "isolation set-up failed, the command did not run: {error} {detail}"
SETUP_EXIT = 125
"""Like ``env`` and ``timeout``: the wrapper failed, not the command."""


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _stage(places: Sequence[tuple[str, str, bool]]) -> list[tuple[Path, str, bool]]:
    """Bind each source under a private tmpfs before the directories holding it are hidden."""
    mount("-t", "tmpfs", "-o", "mode=700", "rfd-stage", str(STAGE))
    staged = []
    for number, (source, dest, writable) in enumerate(places):
        at = STAGE / str(number)
        at.mkdir() if Path(source).is_dir() else at.touch()
        mount("--bind", source, str(at))
        staged.append((at, dest, writable))
    return staged


def _read_only_everywhere() -> None:
    """Remount every mount read-only (the staged ones and ``/proc`` excepted)."""
    with open("/proc/self/mountinfo", encoding="utf-8") as fh:
        points = [line.split()[4].encode().decode("unicode_escape") for line in fh]
    for point in points:
        if not point.startswith(KEEP_WRITABLE):
            subprocess.run(
                ["mount", "-o", "remount,bind,ro", point], check=False, capture_output=True
            )


def _place(at: Path, dest: str, writable: bool) -> None:
    target = Path(dest)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.mkdir() if at.is_dir() else target.touch()
    mount("--bind", str(at), dest)
    if not writable:
        mount("-o", "remount,bind,ro", dest)


def set_up(spec: Mapping[str, Any]) -> None:
    """Shape the mount namespace as ``spec`` says: ``places`` (source, destination,
    writable) bound over everything read-only, ``hidden`` directories emptied, ``home`` made."""
    places = [(str(s), str(d), bool(w)) for s, d, w in spec["places"]]
    places += [(f"/dev/{name}", f"/dev/{name}", True) for name in DEVICES]
    staged = _stage(places)
    _read_only_everywhere()
    hidden = [*map(str, spec["hidden"]), "/dev"]
    for path in hidden:
        if path != str(STAGE):  # emptied once the stage is gone
            mount("-t", "tmpfs", "-o", "mode=755", "rfd-empty", path)
    for at, dest, writable in staged:
        _place(at, dest, writable)
    subprocess.run(["umount", "--recursive", "--lazy", str(STAGE)], check=True)
    if str(STAGE) in hidden:
        mount("-t", "tmpfs", "-o", "mode=755,ro", "rfd-empty", str(STAGE))
    Path("/dev/shm").mkdir()
    for name, target in LINKS.items():
        Path("/dev", name).symlink_to(target)
    Path(str(spec["home"])).mkdir(parents=True, exist_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or args[1] != "--":
        print(USAGE, file=sys.stderr)
        return 2
    spec = json.loads(args[0])
    try:
        set_up(spec)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        print(
            SETUP_FAILED.format(error=exc, detail=detail.decode(errors="replace")), file=sys.stderr
        )
        return SETUP_EXIT
    os.chdir(str(spec["root"]))
    os.execvp(DROP_PRIVILEGES[0], [*DROP_PRIVILEGES, *args[2:]])


if __name__ == "__main__":
    sys.exit(main())
