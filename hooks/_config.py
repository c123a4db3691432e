"""The hooks' reading of ``.github/rfd.toml``: the three ``[rfd]`` directories, fast.

:mod:`bot.config.load` validates the whole file against its dataclass schema; importing it
costs a hook ~30 ms, more than the hook's own work.  This reader parses the file with
``tomllib`` and vouches for it only when every key in it is a schema key whose value it
can check exactly as :mod:`bot.config.load` does (a string, a non-negative number, one of
a few literal words...).  Anything else — a typo, a wrong type, a key with a shape
(:mod:`bot.config.load`: ``bot.login``, ``rfd.main_branch``...), a directory with a
control character, ``[plugins]``, ``[consensus]``, invalid TOML, an ``RFD_*`` variable
set — is handed to :mod:`bot.config.load`, so a broken file fails a hook with the same message
as ``rfd`` itself.  A test keeps :data:`LEAVES` (with :func:`severity_leaves`) equal to the
schema.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hooks._files import Root

LIST_OF_STR = "list of str"
"""A ``tuple[str, ...]`` key, written as a TOML array of strings."""

LIST_OF_STATUS = "list of status"
"""A ``tuple[StatusWord, ...]`` key: a TOML array of status words."""

Check = type | str | tuple[str, ...]
"""A plain type, :data:`LIST_OF_STR`, or the words a ``Literal`` key allows."""

_PROVIDERS = ("auto", "anthropic", "openai", "offline")
_STATUSES = ("Draft", "Discussion", "Accepted", "Implemented", "Abandoned", "Superseded")
_CATEGORIES = ("design", "decision", "guide", "process")
_STEP: dict[str, Check] = {
    "model": str,
    "provider": ("", *_PROVIDERS),
    "max_tokens": int,
    "budget_tokens": int,
    "budget_usd": float,
}
LEAVES: dict[str, Check] = {
    "rfd.dir": str,
    "rfd.drafts_dir": str,
    "rfd.state_dir": str,
    "rfd.templates": str,
    "conventions.id_digits": int,
    "conventions.draft_digits": int,
    "conventions.draft_numbers": ("max+1", "first-free"),
    "conventions.link_style": ("inline", "reference"),
    "conventions.back_links": LIST_OF_STR,
    "conventions.abandon_notice": str,
    "conventions.tracking_issue": ("header", "state"),
    "labels.review": str,
    "labels.accept": str,
    "review.inline": bool,
    "provider.name": _PROVIDERS,
    "provider.timeout_seconds": float,
    "provider.max_retries": int,
    "provider.context_tokens": int,
    "models.*": str,
    **{
        f"steps.{step}.{key}": check
        for step in ("explore", "converge", "draft", "review", "refine", "accept", "implement")
        for key, check in _STEP.items()
    },
    "accept.allow_author": bool,
    "accept.min_permission": ("write", "maintain", "admin"),
    "bot.allowed_bots": LIST_OF_STR,
    "bot.seconds_between_writes": float,
    "bot.write_burst": int,
    "implement.allowed_commands": LIST_OF_STR,
    "implement.allowed_paths": LIST_OF_STR,
    "implement.protected_paths": LIST_OF_STR,
    "implement.max_items": int,
    "implement.isolation": ("auto", "bwrap", "unshare", "none"),
    "implement.network": bool,
    "implement.env": LIST_OF_STR,
    "implement.redacted_env": LIST_OF_STR,
    "implement.toolchain": LIST_OF_STR,
    "implement.finish_in_last_phase": bool,
    "research.web": bool,
    "research.allowed_hosts": LIST_OF_STR,
    "research.pypi_url": str,
    "research.npm_url": str,
    "research.crates_url": str,
    "research.max_chars": int,
    "research.timeout_seconds": float,
    **{f"lint.required_sections.{name}": LIST_OF_STR for name in _CATEGORIES},
    "process.implemented_needs_phases": bool,
    "process.accepted_needs_plan": bool,
    "process.new_statuses": LIST_OF_STATUS,
    "process.extends_gates": bool,
    "process.delete_published": bool,
    "site.url": str,
    "statuses.*": tuple(s.lower() for s in _STATUSES),
    "transitions.*": LIST_OF_STR,
}

SEVERITY = "lint.severity."
"""``[lint.severity]`` keys are the lint codes: :data:`bot.model.lint_codes.RULES`, read only
for a file that sets one (most set none, and a hook that needs no lint settings then never
loads the table of rules)."""


def severity_leaves() -> dict[str, Check]:
    """The ``[lint.severity]`` keys :data:`LEAVES` leaves out, one per lint code."""
    from bot.model.lint_codes import RULES, SEVERITIES

    return {f"{SEVERITY}{code}": SEVERITIES for code in RULES}


def _leaf(dotted: str, prefix: str) -> Check | None:
    if dotted.startswith(SEVERITY):
        return severity_leaves().get(dotted)
    return LEAVES.get(dotted) or LEAVES.get(prefix + "*")


"""The keys this reader checks itself (``models.*``: any key of that table)."""

ENV_VARS = ("RFD_DIR", "RFD_PROVIDER", "RFD_BASE_URL", "RFD_PLUGINS")
"""The variables :func:`bot.config.load.env_layer` reads: when one is set, bot.config.load
decides."""

PATH_KEYS = ("dir", "drafts_dir", "state_dir")


def rfd_section(root: Root, config_path: str) -> dict[str, str] | None:
    """The ``[rfd]`` table of ``root``'s configuration ({} without a file), or None when
    only :mod:`bot.config.load` can tell whether the configuration is valid."""
    return rfd_of(vouched(root, config_path))


def rfd_of(table: dict[str, Any] | None) -> dict[str, str] | None:
    """The ``[rfd]`` table of a vouched configuration, None when bot.config.load must decide."""
    if table is None:
        return None
    rfd: dict[str, str] = table.get("rfd", {})
    return rfd if all(_inside(rfd.get(key, "x")) for key in PATH_KEYS) else None


def vouched(root: Root, config_path: str) -> dict[str, Any] | None:
    """``root``'s whole configuration file as TOML data ({} without a file), or None when
    only :mod:`bot.config.load` can tell whether it is valid.  The file is read as the hooks
    read every file (:func:`hooks._common.read_inside`)."""
    from hooks._files import read_inside  # RfdError: a link out of the repository, a device

    if any(os.environ.get(name) for name in ENV_VARS):
        read_inside(root, config_path)  # bot.config.load reads it next: never through a bad link
        return None
    data = read_inside(root, config_path)
    if data is None:
        return {} if not os.path.exists(os.path.join(root, config_path)) else None
    table = parse(data)
    return table if table is not None and _plain(table, "") else None


def parse(data: bytes) -> dict[str, Any] | None:
    """The TOML document ``data`` (None when it is not valid TOML).

    A file made only of ``[table]`` headers, ``key = "text"`` lines and comments — what
    ``rfd init`` writes — is read line by line; any other is left to ``tomllib`` (~5 ms
    to import, with ``datetime``).
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    table = _simple(text)
    if table is not None:
        return table
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


_SIMPLE_LINE = re.compile(
    r"""[ \t]*
    (?: \[ (?P<table> [A-Za-z0-9_-]+ (?:\.[A-Za-z0-9_-]+)* ) \]      # [table], [steps.review]
      | (?P<key> [A-Za-z0-9_-]+ ) [ ]*=[ ]* "(?P<value> [^"\\\x00-\x1f\x7f]* )"  # key = "text"
    )?
    [ \t]* (?: \#[^\x00-\x08\x0a-\x1f\x7f]* )?                          # a comment
    """,
    re.VERBOSE,
)


def _simple(text: str) -> dict[str, Any] | None:
    """``text`` as tomllib reads it, when every line is simple and no table or key repeats
    (None otherwise: then tomllib decides, and reports errors)."""
    root: dict[str, Any] = {}
    current = root
    for line in text.split("\n"):
        match = _SIMPLE_LINE.fullmatch(line)
        if match is None:
            return None
        if match["table"]:
            found = _new_table(root, match["table"].split("."))
            if found is None:
                return None
            current = found
        elif match["key"]:
            if match["key"] in current:
                return None
            current[match["key"]] = match["value"]
    return root


def _new_table(root: dict[str, Any], names: list[str]) -> dict[str, Any] | None:
    node = root
    for name in names[:-1]:
        node = node.setdefault(name, {})
        if not isinstance(node, dict):
            return None
    if names[-1] in node:
        return None  # defined before (or implicitly by [a.b]): tomllib knows the rules
    node[names[-1]] = {}
    return node[names[-1]]  # type: ignore[no-any-return]


def _plain(table: dict[str, Any], prefix: str) -> bool:
    """Every key of ``table`` is in :data:`LEAVES` (or a table of them), with a good value."""
    for key, value in table.items():
        dotted = prefix + key
        check = _leaf(dotted, prefix)
        if check is None:
            inner = dotted + "."
            tables = isinstance(value, dict) and (
                SEVERITY.startswith(inner) or any(k.startswith(inner) for k in LEAVES)
            )
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
    if check == LIST_OF_STATUS:
        return isinstance(value, list) and all(v in _STATUSES for v in value)
    if isinstance(value, bool):
        return check is bool
    if check in (int, float):
        return isinstance(value, int if check is int else (int, float)) and value >= 0
    return isinstance(value, check)  # type: ignore[arg-type]


def _inside(path: object) -> bool:
    """A plainly relative path (bot.config.load has the final word on anything unusual)."""
    if not isinstance(path, str) or not path or "\\" in path or ":" in path:
        return False
    if path.startswith("-") or not path.isprintable():
        return False
    return not path.startswith("/") and ".." not in path.split("/")
