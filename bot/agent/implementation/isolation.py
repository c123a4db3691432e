"""Every command implement runs starts in fresh namespaces that hold no secret.

The process that holds the keys (the bot, ``rfd implement``) never runs model-written
code itself: :func:`isolated` wraps a command's argument vector so it runs in a new PID
namespace (its own ``/proc``: no ancestor's environment), a private mount namespace
shaped by :class:`View`, and — unless ``implement.network`` — a network namespace
without interfaces; its environment is an allowlist (:func:`command_env`).

What the command sees of the machine (:class:`View`, computed from the repository):
everything is read-only but the worktree; the RFD directory and git's own files inside
it are read-only again; the places that hold a person's or a runner's secrets (homes,
temp directories, the runner's files) are replaced by empty ones; git's configuration is
replaced by a copy that keeps only ``[core]`` and ``[extensions]`` (never a remote's
credentials or an ``extraheader``).

Two mechanisms, probed once per process, first that works: bubblewrap (``bwrap``; on
GitHub's Ubuntu runners after the action loads AppArmor's ``bwrap-userns-restrict``
profile), then ``unshare`` with :mod:`bot.agent.implementation.unshare_setup`.
``implement.isolation`` picks one or, ``none``, none: then a person must confirm each
command (:mod:`bot.agent.toolbox.permission`).
"""

from __future__ import annotations

import enum
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TOOLCHAIN = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/nix")
"""The top-level directories of the host a command sees (read-only); every other one —
homes, ``/tmp``, ``/var``, ``/opt``, ``/srv``, ``/run`` (daemons' sockets: a network
namespace does not cover Unix sockets), ``/mnt``, a runner installed anywhere — is replaced
by an empty directory, every other top-level file by an empty one.  ``implement.toolchain``
shows more directories, the Python running the bot is always shown."""
KERNEL = ("/proc", "/dev")
"""Made fresh by each mechanism (a private ``/proc``, a minimal ``/dev``)."""
HIDDEN = ("/home", "/root", "/tmp", "/var/tmp", "/run", "/var/run")
"""Emptied even when the host's ``/`` lists them in no usual way."""
RESOLVER = Path("/etc/resolv.conf")
"""Often a link into ``/run`` (systemd-resolved): shown again when the network is on."""
HIDDEN_ENV = ("HOME", "RUNNER_TEMP", "RUNNER_WORKSPACE", "TMPDIR", "XDG_RUNTIME_DIR")
"""Emptied wherever they point (the runner's event file, `GITHUB_ENV` and the like)."""
HOME = "/tmp/home"
"""The command's fresh, empty HOME (inside the emptied ``/tmp``)."""
KEPT_SECTION = re.compile(r"\s*\[\s*(core|extensions)\s*\]", re.IGNORECASE)
SECTION = re.compile(r"\s*\[")
GITDIR = re.compile(r"gitdir:\s*(.+)")


@dataclass(frozen=True)
class View:
    root: Path
    """The worktree: the only writable place (besides the fresh HOME and ``/tmp``)."""
    read_only: tuple[Path, ...]
    """Inside the worktree or git's directories: mounted read-only."""
    hidden: tuple[Path, ...]
    """Replaced by empty directories."""
    git_config: Path | None
    """Where git's configuration is, to be covered by the sanitised copy."""
    network: bool = False
    hidden_files: tuple[Path, ...] = ()
    """Top-level files of the host, covered by an empty one (``/dev/null``)."""


def view_for(
    root: Path,
    rfd_dir: str,
    environ: Mapping[str, str],
    *,
    network: bool = False,
    toolchain: tuple[str, ...] = (),
    host: Path = Path("/"),
) -> View:
    """The view of a command run in ``root`` (the RFD directory ``rfd_dir`` relative to it):
    the allow-list :data:`TOOLCHAIN` (and ``toolchain``) of ``host``'s top level, all else
    emptied."""
    root = root.resolve()
    dot_git, git_dirs = root / ".git", git_directories(root)
    common = git_dirs[-1] if git_dirs else None
    config = common / "config" if common is not None and (common / "config").is_file() else None
    others, files = top_level(host)
    env_dirs = [Path(environ[k]) for k in HIDDEN_ENV if environ.get(k)]
    hidden = _existing([*others, *map(Path, HIDDEN), *env_dirs])
    shown = [*_python(), *(Path(p).resolve() for p in toolchain if Path(p).is_dir())]
    python = [p for p in shown if any(p.is_relative_to(h) for h in hidden)]
    rfds = (root / rfd_dir).resolve()
    rfds_apart = rfds != root and rfds.is_relative_to(root)  # RFDs at the root: root stays rw
    read_only = python + [p for p in (rfds, dot_git) if p.exists() and (p != rfds or rfds_apart)]
    read_only += list(git_dirs) + (_resolver(hidden) if network else [])
    return View(root, tuple(read_only), hidden, config, network, files)


def top_level(host: Path = Path("/")) -> tuple[list[Path], tuple[Path, ...]]:
    """The directories of ``host``'s top level outside the allow-list, and its files (links
    are left: they lead to a shown place or to an emptied one)."""
    allowed = {*TOOLCHAIN, *KERNEL}
    dirs, files = [], []
    for entry in sorted(os.scandir(host), key=lambda e: e.name):
        path = Path("/", entry.name)
        if entry.is_symlink() or str(path) in allowed:
            continue
        if entry.is_dir(follow_symlinks=False):
            dirs.append(path)
        elif entry.is_file(follow_symlinks=False):
            files.append(path)
    return dirs, tuple(files)


def _python() -> list[Path]:
    """The installation of the Python running the bot (pyenv keeps it in a home)."""
    found = {Path(p).resolve() for p in (sys.base_prefix, sys.prefix)}
    return sorted(p for p in found if p.is_dir())


def _resolver(hidden: tuple[Path, ...]) -> list[Path]:
    """The directory of the DNS configuration, when it lies in an emptied directory."""
    where = RESOLVER.resolve().parent
    return [where] if where.is_dir() and any(where.is_relative_to(h) for h in hidden) else []


def git_directories(root: Path) -> tuple[Path, ...]:
    """The git directory of ``root`` and, for a linked worktree, the common one last."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return (dot_git.resolve(),)
    if not dot_git.is_file():
        return ()
    found = GITDIR.match(dot_git.read_text(encoding="utf-8", errors="replace").strip())
    if found is None:
        return ()
    own = (root / found.group(1).strip()).resolve()
    commondir = own / "commondir"
    if not commondir.is_file():
        return (own,)
    common = (own / commondir.read_text(encoding="utf-8").strip()).resolve()
    return (own, common)


def _existing(paths: list[Path]) -> tuple[Path, ...]:
    """Real directories, each once, none inside another (emptying the parent empties it)."""
    unique = {p.resolve() for p in paths if p.is_absolute() and p.is_dir()}
    unique.discard(Path("/"))  # a HOME of `/` hides nothing it does not hide already
    ordered = sorted(unique, key=lambda p: (len(p.parts), str(p)))
    return tuple(p for p in ordered if not any(p.is_relative_to(q) for q in ordered if q != p))


def sanitized_config(text: str) -> str:
    """Only the ``[core]`` and ``[extensions]`` sections of a git config file."""
    kept, keeping = [], False
    for line in text.splitlines(keepends=True):
        if SECTION.match(line):
            keeping = bool(KEPT_SECTION.match(line))
        if keeping:
            kept.append(line)
    return "".join(kept)


@contextmanager
def sanitized_copy(view: View) -> Iterator[Path | None]:
    """A temporary file holding the sanitised git config of ``view`` (None without one)."""
    if view.git_config is None:
        yield None
        return
    text = view.git_config.read_text(encoding="utf-8", errors="replace")
    fd, name = tempfile.mkstemp(prefix="rfd-gitconfig-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(sanitized_config(text))
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)


ALLOWED_ENV = frozenset({"PATH", "LANG", "LANGUAGE", "TERM", "TZ"})
"""Passed through as they are (with ``LC_*``): nothing else of the caller's environment."""
FIXED_ENV = {
    "HOME": HOME,
    "TMPDIR": "/tmp",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}
"""Set for every command: a fresh home and temp directory, no git config but the repo's."""
PROBE_TIMEOUT = 20.0
NO_ISOLATION = (
    "commands cannot be isolated here (no working bubblewrap or unshare), so a command a "
    "model wrote could read this process's secrets"
)
ENABLE = (
    "install bubblewrap (`apt-get install bubblewrap`; on Ubuntu 24.04 also load AppArmor's "
    "`bwrap-userns-restrict` profile) or allow unprivileged user namespaces for `unshare`; "
    'see `rfd help security`, "What implement\'s commands can reach"'
)


class Mechanism(enum.Enum):
    BWRAP = "bwrap"
    UNSHARE = "unshare"


def command_env(environ: Mapping[str, str], passed: Iterable[str] = ()) -> dict[str, str]:
    """The environment of an isolated command: the allowlist, ``passed`` names, the fixed keys."""
    names = ALLOWED_ENV | set(passed)
    kept = {k: v for k, v in environ.items() if k in names or k.startswith("LC_")}
    return kept | FIXED_ENV


def isolated(
    mechanism: Mechanism, view: View, argv: Sequence[str], git_config: Path | None = None
) -> list[str]:
    """``argv`` wrapped to run as ``view`` says; ``git_config``: the sanitised copy to show."""
    if mechanism is Mechanism.BWRAP:
        return bwrap_argv(view, argv, git_config)
    return unshare_argv(view, argv, git_config)


def bwrap_argv(view: View, argv: Sequence[str], git_config: Path | None) -> list[str]:
    out = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session"]
    out += ["--share-net"] if view.network else []
    out += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for hidden in view.hidden:
        out += ["--tmpfs", str(hidden)]
    for hidden_file in view.hidden_files:
        out += ["--ro-bind", "/dev/null", str(hidden_file)]
    out += ["--dir", HOME, "--bind", str(view.root), str(view.root)]
    for path in view.read_only:
        out += ["--ro-bind", str(path), str(path)]
    if git_config is not None and view.git_config is not None:
        out += ["--ro-bind", str(git_config), str(view.git_config)]
    return [*out, "--chdir", str(view.root), "--", *argv]


def unshare_argv(view: View, argv: Sequence[str], git_config: Path | None) -> list[str]:
    places: list[tuple[str, str, bool]] = [(str(view.root), str(view.root), True)]
    places += [(str(p), str(p), False) for p in view.read_only]
    places += [("/dev/null", str(p), False) for p in view.hidden_files]
    if git_config is not None and view.git_config is not None:
        places.append((str(git_config), str(view.git_config), False))
    hidden = sorted({*map(str, view.hidden), "/tmp"}, key=lambda p: (p.count("/"), p))
    spec = {"root": str(view.root), "places": places, "hidden": hidden, "home": HOME}
    out = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc"]
    out += ["--mount", "--kill-child"] + ([] if view.network else ["--net"])
    setup = [
        sys.executable,
        "-I",
        "-m",
        "bot.agent.implementation.unshare_setup",
        json.dumps(spec),
        "--",
    ]
    return [*out, "--", *setup, *argv]


def choose(setting: str) -> Mechanism | None:
    """The mechanism ``implement.isolation`` asks for, if it works here (None: none does)."""
    if setting == "none":
        return None
    wanted = list(Mechanism) if setting == "auto" else [Mechanism(setting)]
    return next((m for m in wanted if works(m)), None)


@cache
def works(mechanism: Mechanism) -> bool:
    """Whether ``mechanism`` runs a command here (tried once per process)."""
    if shutil.which(mechanism.value) is None:
        return False
    with tempfile.TemporaryDirectory(prefix="rfd-probe-") as tmp:
        view = view_for(Path(tmp), "docs/rfd", {})
        argv = isolated(mechanism, view, ["true"])
        try:
            done = subprocess.run(argv, capture_output=True, timeout=PROBE_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
    return done.returncode == 0
