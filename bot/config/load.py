"""The repository configuration: one TOML file, strictly validated, resolved once and frozen.

Layers are merged in order (embedded defaults → user config → repo config →
environment → command-line flags); the result is validated against the frozen
dataclasses of :mod:`bot.config.schema`, which *are* the schema.  Every value remembers
which layer set it, for ``rfd config show``.

Validation is strict: an unknown key, or a value of the wrong type or out of range, is a
ConfigError naming the dotted key and the file it came from.  Strings that reach git, the
environment or the network must have their key's shape before anything uses them:
``rfd.main_branch = "--output=/some/file"`` never reaches ``git diff`` as an option
(branch names follow git's own rules, ``git check-ref-format --branch``).

Why not pydantic or msgspec?  Hooks read this file on every commit and must start
in well under 100 ms; on our machines pydantic costs ~80 ms and msgspec ~50 ms to
import, while ``tomllib`` and this module cost a few.  The validator here covers exactly
the types the schema uses.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from types import MappingProxyType
from typing import Any, Literal

from bot.config.keys import schema_keys
from bot.config.schema import (
    ACTIONS_BOT_LOGIN,
    AcceptSection,
    BotSection,
    Config,
    ConsensusSection,
    ConventionsSection,
    ImplementSection,
    LabelsSection,
    LintSection,
    PluginsSection,
    ProviderSection,
    Resolved,
    ReviewSection,
    RfdSection,
    StepSection,
    StepsSection,
)
from bot.core.errors import ConfigError

__all__ = [
    "ACTIONS_BOT_LOGIN",
    "CONFIG_PATH",
    "USER_CONFIG_ENV",
    "AcceptSection",
    "BotSection",
    "Config",
    "ConsensusSection",
    "ConventionsSection",
    "ImplementSection",
    "LabelsSection",
    "PluginsSection",
    "ProviderSection",
    "Resolved",
    "ReviewSection",
    "RfdSection",
    "StepSection",
    "StepsSection",
    "env_layer",
    "freeze",
    "load",
    "load_config",
    "parse",
    "read_toml",
    "resolve",
    "schema_keys",
    "user_config_path",
]

CONFIG_PATH = ".github/rfd.toml"
"""Where the repository configuration lives, relative to the repository root."""

USER_CONFIG_ENV = "RFD_CONFIG_HOME"


# --------------------------------------------------------------------------- loading


def load(repo_root: Path, *, user: bool = False, cli: Mapping[str, Any] | None = None) -> Resolved:
    """Resolve the configuration of ``repo_root``: defaults, [user], repo file, env, CLI."""
    layers: list[tuple[str, str, Mapping[str, Any]]] = []
    files: dict[str, Path] = {}
    if user:
        user_file = user_config_path()
        if user_file.is_file():
            layers.append(("user", str(user_file), read_toml(user_file)))
            files[str(user_file)] = user_file
    repo_file = repo_root / CONFIG_PATH
    if repo_file.is_file():
        layers.append(("repo", CONFIG_PATH, read_toml(repo_file, display=CONFIG_PATH)))
        files[CONFIG_PATH] = repo_file
    env = env_layer(os.environ)
    if env:
        layers.append(("env", "environment", env))
    if cli:
        layers.append(("cli", "command line", cli))
    try:
        return resolve(layers)
    except ConfigError as err:
        file = files.get(err.path or "")
        raise _located(err, file.read_text(encoding="utf-8") if file else "") from None


def load_config(repo_root: Path) -> Config:
    """The repository configuration alone (what hooks and the bot use)."""
    return load(repo_root).config


def user_config_path() -> Path:
    base = os.environ.get(USER_CONFIG_ENV) or os.environ.get("XDG_CONFIG_HOME")
    root = Path(base) if base else Path.home() / ".config"
    return (root if os.environ.get(USER_CONFIG_ENV) else root / "rfd") / "config.toml"


def read_toml(path: Path, *, display: str | None = None) -> dict[str, Any]:
    shown = display or str(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError("is not UTF-8 text", path=shown, hint="save it as UTF-8") from exc
    except tomllib.TOMLDecodeError as exc:
        line = _toml_error_line(str(exc))
        raise ConfigError(
            f"is not valid TOML: {exc}", path=shown, line=line, hint="fix the syntax"
        ) from exc


def parse(text: str, path: str = CONFIG_PATH) -> Config:
    """Validate one TOML document as a complete configuration (used by tests and the bot)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"is not valid TOML: {exc}", path=path, line=_toml_error_line(str(exc))
        ) from exc
    try:
        return resolve([("repo", path, data)]).config
    except ConfigError as err:
        raise _located(err, text if err.path == path else "") from None


def _located(err: ConfigError, text: str) -> ConfigError:
    """``err`` with the line that writes its key in ``text`` (the file it names)."""
    if err.line is None and err.key and text:
        from bot.core.toml_lines import line_of

        err.line = line_of(text, err.key)
    return err


ENV_PREFIX = "RFD_"
_ENV_KEYS = {
    "RFD_DIR": "rfd.dir",
    "RFD_PROVIDER": "provider.name",
    "RFD_BASE_URL": "provider.base_url",
    "RFD_PLUGINS": "plugins.enabled",
}


def env_layer(environ: Mapping[str, str]) -> dict[str, Any]:
    """The few settings that may come from the environment (``RFD_DIR``, ``RFD_PROVIDER``...)."""
    out: dict[str, Any] = {}
    for var, key in _ENV_KEYS.items():
        if var in environ and environ[var] != "":
            value: Any = environ[var]
            if key == "plugins.enabled":
                value = [v.strip() for v in environ[var].split(",") if v.strip()]
            _set_dotted(out, key, value)
    return out


def resolve(layers: list[tuple[str, str, Mapping[str, Any]]]) -> Resolved:
    """Merge ``(layer name, file shown in errors, data)`` layers and validate the result."""
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    files: dict[str, str] = {}
    for name, display, data in layers:
        files[name] = display
        # Validate each layer on its own first, so an error names the right file.
        build(Config, data, "", display)
        _merge(merged, data, "", name, sources)
    config = build(Config, merged, "", "configuration")
    from bot.model.status import use

    use(config.statuses, config.transitions)  # every RFD is read in the repository's words
    return Resolved(config=config, sources=MappingProxyType(sources), files=MappingProxyType(files))


def _merge(
    into: dict[str, Any], data: Mapping[str, Any], prefix: str, layer: str, sources: dict[str, str]
) -> None:
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and dotted not in _OPAQUE_MAPPINGS:
            sub = into.setdefault(key, {})
            if not isinstance(sub, dict):
                sub = into[key] = {}
            _merge(sub, value, dotted + ".", layer, sources)
        else:
            into[key] = value
            sources[dotted] = layer


_OPAQUE_MAPPINGS: frozenset[str] = frozenset()  # every table merges key by key


def _set_dotted(out: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node = out
    for p in parents:
        node = node.setdefault(p, {})
    node[last] = value


def _toml_error_line(message: str) -> int | None:
    marker = "(at line "
    if marker in message:
        tail = message.split(marker, 1)[1]
        digits = tail.split(",", 1)[0].rstrip(")")
        if digits.isdigit():
            return int(digits)
    return None


def build(cls: type[Any], data: Any, prefix: str, path: str) -> Any:
    where = prefix.rstrip(".") or "the top level"
    if not isinstance(data, Mapping):
        raise ConfigError(f"`{where}` must be a table", path=path)
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    if cls is PluginsSection:
        return _build_plugins(data, prefix, path)
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        key_name = key.replace("-", "_")
        if key_name not in known:
            choices = ", ".join(sorted(known))
            raise ConfigError(
                f"unknown key `{prefix}{key}`",
                path=path,
                key=f"{prefix}{key}",
                hint=f"known keys here: {choices}",
            )
        coerced = _coerce(hints[key_name], value, f"{prefix}{key}", path)
        _check_value(f"{prefix}{key_name}", coerced, path)
        default = known[key_name].default_factory
        if isinstance(coerced, Mapping) and default is not dataclasses.MISSING:
            coerced = MappingProxyType({**default(), **coerced})  # a table extends its defaults
        kwargs[key_name] = coerced
    if cls is RfdSection:
        _check_inside(kwargs, prefix, path)
    if cls is LintSection:
        _check_lint_keys(kwargs, prefix, path)
    if cls is ConsensusSection:
        _check_consensus(kwargs, prefix, path)
    return cls(**kwargs)


CATEGORIES = ("design", "decision", "guide", "process")
"""``bot.templates.CATEGORIES`` (a test keeps the two equal)."""


def _check_lint_keys(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """``[lint.severity]`` names rule codes, ``[lint.required_sections]`` categories."""
    from bot.model.lint_codes import RULES

    for table, known in (("severity", tuple(RULES)), ("required_sections", CATEGORIES)):
        for key in values.get(table, {}):
            if key not in known:
                raise ConfigError(
                    f"unknown key `{prefix}{table}.{key}`",
                    path=path,
                    hint=f"known keys here: {', '.join(known)}",
                )


_REVIEWER = re.compile(
    r"""@[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9][A-Za-z0-9._-]{0,99}  # @org/team-slug
      | [A-Za-z0-9][A-Za-z0-9-]{0,38}                                # a login""",
    re.VERBOSE,
)
REVIEWER_SHAPE = "a GitHub login (`alice`) or a team (`@octo-org/architects`)"


def _check_consensus(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """Reviewers are logins or teams, at least one; ``approvals`` is 1 or more (or ``all``)."""
    reviewers: tuple[str, ...] = values.get("reviewers", ())
    for index, who in enumerate(reviewers):
        if not _REVIEWER.fullmatch(who):
            raise ConfigError(
                f"`{prefix}reviewers[{index}]` must be {REVIEWER_SHAPE}, not {who!r}",
                path=path,
                key=f"{prefix}reviewers",
            )
    if not reviewers:
        raise ConfigError(
            f"`{prefix}reviewers` must name at least one reviewer",
            path=path,
            key=prefix.rstrip("."),
            hint="list logins or teams, or delete the [consensus] table to accept without sign-off",
        )
    if values.get("approvals") == 0:
        raise ConfigError(
            f'`{prefix}approvals` must be 1 or more, or "all"',
            path=path,
            key=f"{prefix}approvals",
            hint="delete the [consensus] table to accept without sign-off",
        )


_PATH_KEYS = {"dir": "the repository", "drafts_dir": "`rfd.dir`", "state_dir": "`rfd.dir`"}


def _check_inside(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """RFD directories are relative paths that stay inside the repository."""
    for key, inside in _PATH_KEYS.items():
        value = values.get(key)
        if not isinstance(value, str):
            continue
        parts = PurePosixPath(value.replace("\\", "/")).parts
        if not is_plain_text(value):
            raise ConfigError(
                f"`{prefix}{key}` = {value!r} holds a control character or starts with `-`",
                path=path,
                key=f"{prefix}{key}",
                hint=f"set `{prefix}{key}` to a plain relative path, "
                f"e.g. {getattr(RfdSection, key)!r}",
            )
        outside = PurePosixPath(value).is_absolute() or PureWindowsPath(value).drive
        if outside or ".." in parts:
            raise ConfigError(
                f"`{prefix}{key}` = {value!r} points outside {inside}",
                path=path,
                key=f"{prefix}{key}",
                hint=f"set `{prefix}{key}` to a relative path inside {inside}, "
                f"e.g. {getattr(RfdSection, key)!r}",
            )


def _build_plugins(data: Mapping[str, Any], prefix: str, path: str) -> PluginsSection:
    enabled: tuple[str, ...] = ()
    options: dict[str, Mapping[str, Any]] = {}
    for key, value in data.items():
        if key == "enabled":
            enabled = _coerce(tuple[str, ...], value, f"{prefix}enabled", path)
        elif isinstance(value, Mapping):
            options[key] = freeze(value)
        else:
            raise ConfigError(
                f"`{prefix}{key}` must be a table of plugin options",
                path=path,
                hint=f"write it as [plugins.{key}]",
            )
    return PluginsSection(enabled=enabled, options=MappingProxyType(options))


def _coerce(tp: Any, value: Any, key: str, path: str) -> Any:
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return build(tp, value, key + ".", path)  # type: ignore[arg-type]
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            message = f"`{key}` must be one of {choices}, not {value!r}"
            raise ConfigError(message, path=path, key=key)
        return value
    if origin is tuple:
        (item_tp, _) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ConfigError(f"`{key}` must be a list, not {_tname(value)}", path=path, key=key)
        return tuple(_coerce(item_tp, v, f"{key}[{i}]", path) for i, v in enumerate(value))
    if origin in (Mapping, dict) or tp is Mapping:
        if not isinstance(value, Mapping):
            raise ConfigError(f"`{key}` must be a table, not {_tname(value)}", path=path, key=key)
        _, val_tp = typing.get_args(tp)
        return MappingProxyType(
            {str(k): _coerce(val_tp, v, f"{key}.{k}", path) for k, v in value.items()}
        )
    if origin in (types.UnionType, typing.Union):
        for option in typing.get_args(tp):
            try:
                return _coerce(option, value, key, path)
            except ConfigError:
                continue
        raise ConfigError(f"`{key}` has an unsupported value {value!r}", path=path, key=key)
    if tp is Any:
        return value
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if tp is type(None) and value is None:
        return None
    if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
        raise ConfigError(
            f"`{key}` must be {_TYPE_WORDS.get(tp, tp.__name__)}, not {_tname(value)}",
            path=path,
            key=key,
        )
    if tp in (int, float) and value < 0:
        raise ConfigError(f"`{key}` must not be negative", path=path, key=key)
    return value


def _check_value(key: str, value: Any, path: str) -> None:
    shape = SHAPES.get(key)
    if shape is not None and not shape[0](str(value)):
        raise ConfigError(f"`{key}` must be {shape[1]}, not {value!r}", path=path, key=key)


_TYPE_WORDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def _tname(value: Any) -> str:
    return {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "a boolean",
        list: "a list",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def freeze(value: Any) -> Any:
    """A read-only copy: tables become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


_REF_FORBIDDEN = re.compile(
    r"""[\x00-\x20\x7f~^:?*\[\\]   # control characters, space and git's special characters
      | \.\.                        # ".." anywhere
      | @\{                         # "@{" (reflog syntax)
      | //                          # an empty component
      | (?:^|/)\.                   # a component starting with "."
      | \.lock(?:/|$)               # a component ending with ".lock"
    """,
    re.VERBOSE,
)
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HTTP_URL = re.compile(r"https?://[^\s/?#@]+(?:[/?#][^\s]*)?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def is_branch(value: str) -> bool:
    """A name git accepts as a branch (and that no git command can read as an option)."""
    return bool(value) and not (
        value.startswith(("-", "/"))
        or value.endswith(("/", "."))
        or value == "@"
        or _REF_FORBIDDEN.search(value)
    )


def is_login(value: str) -> bool:
    return _LOGIN.fullmatch(value) is not None


def is_env_name(value: str) -> bool:
    return _ENV_NAME.fullmatch(value) is not None


def is_http_url(value: str) -> bool:
    return _HTTP_URL.fullmatch(value) is not None


def is_plain_text(value: str) -> bool:
    """No control character (newline, tab, ESC...) and no leading ``-`` (never an option)."""
    return not value.startswith("-") and _CONTROL.search(value) is None


Shape = tuple[Callable[[str], bool], str]
"""A check and what to write instead (said in the error)."""

SHAPES: dict[str, Shape] = {
    "rfd.main_branch": (
        is_branch,
        "a branch name git accepts (`git check-ref-format --branch`), such as `main`",
    ),
    "bot.login": (
        is_login,
        "a GitHub login such as `github-actions[bot]`, `my-app[bot]` or `rfd-machine-user`",
    ),
    "provider.api_key_env": (is_env_name, "an environment variable name such as `OPENAI_API_KEY`"),
    "provider.base_url": (is_http_url, "an http(s) URL such as `https://api.openai.com/v1`"),
    "implement.verify": (
        is_plain_text,
        'one command line such as `pytest -q` (no newline, not starting with `-`), `auto` or ""',
    ),
}
"""Strings with a shape: dotted key → (check, what to write)."""
