"""The hooks' reading of ``.github/rfd.toml``: the three ``[rfd]`` directories, fast.

:mod:`bot.config` validates the whole file against its dataclass schema; importing it
costs a hook ~30 ms, more than the hook's own work.  This reader parses the file with
``tomllib`` and vouches for it only when every key in it is a schema key whose value it
can check exactly as :mod:`bot.config` does (a string, a non-negative number, one of
a few literal words...).  Anything else — a typo, a wrong type, a key with a pattern
such as ``bot.login``, ``[plugins]``, invalid TOML, an ``RFD_*`` variable set — is
handed to :mod:`bot.config`, so a broken file fails a hook with the same message as
``rfd`` itself.  A test keeps :data:`LEAVES` equal to the schema.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

LIST_OF_STR = "list of str"
"""A ``tuple[str, ...]`` key, written as a TOML array of strings."""

Check = type | str | tuple[str, ...]
"""A plain type, :data:`LIST_OF_STR`, or the words a ``Literal`` key allows."""

_STEP = {"model": str, "max_tokens": int, "budget_tokens": int, "budget_usd": float}
LEAVES: dict[str, Check] = {
    "rfd.dir": str, "rfd.drafts_dir": str, "rfd.state_dir": str, "rfd.main_branch": str,
    "labels.review": str, "labels.accept": str,
    "provider.name": ("auto", "anthropic", "openai", "offline"),
    "provider.base_url": str, "provider.api_key_env": str, "provider.timeout_seconds": float,
    "provider.max_retries": int, "provider.context_tokens": int,
    "models.*": str,
    **{f"steps.{step}.{key}": check for step in ("explore", "converge", "draft", "review",
                                                 "refine", "accept", "implement")
       for key, check in _STEP.items()},
    "accept.allow_author": bool, "accept.min_permission": ("write", "maintain", "admin"),
    "bot.allowed_bots": LIST_OF_STR, "bot.seconds_between_writes": float,
    "bot.write_burst": int,
    "implement.allowed_commands": LIST_OF_STR, "implement.allowed_paths": LIST_OF_STR,
    "implement.protected_paths": LIST_OF_STR, "implement.max_items": int,
}  # fmt: skip
"""The keys this reader checks itself (``models.*``: any key of that table)."""

ENV_VARS = ("RFD_DIR", "RFD_PROVIDER", "RFD_BASE_URL", "RFD_PLUGINS")
"""The variables :func:`bot.config.env_layer` reads: when one is set, bot.config decides."""

PATH_KEYS = ("dir", "drafts_dir", "state_dir")


def rfd_section(root: Path, config_path: str) -> dict[str, str] | None:
    """The ``[rfd]`` table of ``root``'s configuration ({} without a file), or None when
    only :mod:`bot.config` can tell whether the configuration is valid."""
    if any(os.environ.get(name) for name in ENV_VARS):
        return None
    try:
        data = (root / config_path).read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError:
        return None
    import tomllib

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if not _plain(table, ""):
        return None
    rfd: dict[str, str] = table.get("rfd", {})
    return rfd if all(_inside(rfd.get(key, "x")) for key in PATH_KEYS) else None


def _plain(table: dict[str, Any], prefix: str) -> bool:
    """Every key of ``table`` is in :data:`LEAVES` (or a table of them), with a good value."""
    for key, value in table.items():
        dotted = prefix + key
        check = LEAVES.get(dotted) or LEAVES.get(prefix + "*")
        if check is None:
            tables = isinstance(value, dict) and any(k.startswith(dotted + ".") for k in LEAVES)
            if not tables or not _plain(value, dotted + "."):
                return False
        elif not _valid(check, value):
            return False
    return True


def _valid(check: Check, value: object) -> bool:
    if isinstance(check, tuple):
        return isinstance(value, str) and value in check
    if check == LIST_OF_STR:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if isinstance(value, bool):
        return check is bool
    if check in (int, float):
        return isinstance(value, int if check is int else (int, float)) and value >= 0
    return isinstance(value, check)  # type: ignore[arg-type]


def _inside(path: object) -> bool:
    """A plainly relative path (bot.config has the final word on anything unusual)."""
    if not isinstance(path, str) or not path or "\\" in path or ":" in path:
        return False
    return not path.startswith("/") and ".." not in path.split("/")
