"""Every command implement runs starts in fresh namespaces that hold no secret.

The process that holds the keys (the bot, ``rfd implement``) never runs model-written
code itself: :func:`isolated` wraps a command's argument vector so it runs in a new PID
namespace (its own ``/proc``: no ancestor's environment), a private mount namespace
shaped by :class:`~bot.agent.jail_view.View`, and — unless ``implement.network`` — a
network namespace without interfaces; its environment is an allowlist (:func:`command_env`).

Two mechanisms, probed once per process, first that works: bubblewrap (``bwrap``; on
GitHub's Ubuntu runners after the action loads AppArmor's ``bwrap-userns-restrict``
profile), then ``unshare`` with :mod:`bot.agent.unshare_setup`.  ``implement.isolation``
picks one or, ``none``, none: then a person must confirm each command
(:mod:`bot.agent.permission`).
"""

from __future__ import annotations

import enum
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path

from bot.agent.jail_view import HOME, View, view_for

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
    'see the README, "What implement\'s commands can reach"'
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
    setup = [sys.executable, "-I", "-m", "bot.agent.unshare_setup", json.dumps(spec), "--"]
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
