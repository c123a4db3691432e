"""The repository configuration: one TOML file, strictly validated, resolved once and frozen.

Layers are merged in order (embedded defaults → user config → repo config →
environment → command-line flags); the result is validated against the frozen
dataclasses below, which *are* the schema.  Every value remembers which layer
set it, for ``rfd config show``.

Why not pydantic or msgspec?  Hooks read this file on every commit and must start
in well under 100 ms; on our machines pydantic costs ~80 ms and msgspec ~50 ms to
import, while ``tomllib`` and this module cost a few.  The validator below covers
exactly the types the schema uses.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from types import MappingProxyType
from typing import Any, Literal

from bot.errors import ConfigError

CONFIG_PATH = ".github/rfd.toml"
"""Where the repository configuration lives, relative to the repository root."""

USER_CONFIG_ENV = "RFD_CONFIG_HOME"


@dataclass(frozen=True)
class RfdSection:
    """Where RFDs live."""

    dir: str = "docs/rfd"
    """Directory of the RFD files, relative to the repository root."""
    drafts_dir: str = "drafts"
    """Sub-directory (of ``dir``) that may hold drafts; drafts beside published RFDs work too."""
    state_dir: str = ".state"
    """Sub-directory (of ``dir``) holding the workflow state of each RFD."""
    main_branch: str = "main"
    """The branch that accepted RFDs and phase summaries land on."""


@dataclass(frozen=True)
class LabelsSection:
    """Pull-request labels the GitHub bot reacts to."""

    review: str = "rfd:review"
    """Apply to a PR to get an AI review of every RFD it changes."""
    accept: str = "rfd:accept"
    """Apply to a PR to accept (promote) the RFDs it changes."""


@dataclass(frozen=True)
class ProviderSection:
    """Which LLM provider to use and how to reach it."""

    name: Literal["auto", "anthropic", "openai", "offline"] = "auto"
    """``auto``: Anthropic when ANTHROPIC_API_KEY is set, else OpenAI-compatible when its key
    is set, else offline."""
    base_url: str = "https://api.openai.com/v1"
    """Base URL of the OpenAI-compatible endpoint (Gemini, OpenRouter, Ollama, vLLM...)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the OpenAI-compatible key."""
    timeout_seconds: float = 120.0
    """Timeout of one request."""
    max_retries: int = 2
    """Retries of 408/409/429/5xx answers (the SDK's own retry loop)."""
    context_tokens: int = 180_000
    """Input budget; larger inputs are truncated visibly."""


@dataclass(frozen=True)
class StepSection:
    """Settings of one lifecycle step."""

    model: str = ""
    """Model alias or id; empty means the built-in default of the step."""
    max_tokens: int = 8192
    """Largest reply of one model call."""
    budget_tokens: int = 0
    """Stop the step cleanly past this many tokens (0: no limit)."""
    budget_usd: float = 0.0
    """Stop the step cleanly past this cost in US dollars (0: no limit)."""


@dataclass(frozen=True)
class StepsSection:
    explore: StepSection = StepSection(model="sonnet")
    converge: StepSection = StepSection(model="opus")
    draft: StepSection = StepSection(model="opus")
    review: StepSection = StepSection(model="sonnet")
    refine: StepSection = StepSection(model="opus")
    accept: StepSection = StepSection(model="sonnet")
    implement: StepSection = StepSection(model="opus")


@dataclass(frozen=True)
class AcceptSection:
    allow_author: bool = False
    """May the RFD's own author accept it (label or ``/rfd accept``)?"""
    min_permission: Literal["write", "maintain", "admin"] = "write"
    """Least repository permission needed to run mutating commands."""


ACTIONS_BOT_LOGIN = "github-actions[bot]"
"""Who writes with the Actions ``GITHUB_TOKEN`` (``GET /user`` answers 403 with it)."""


@dataclass(frozen=True)
class BotSection:
    login: str = ACTIONS_BOT_LOGIN
    """The account the bot's token writes as: only its marked comments and issues are the bot's."""
    allowed_bots: tuple[str, ...] = ()
    """Bot accounts (``name[bot]``) whose commands are honoured."""
    seconds_between_writes: float = 1.0
    """Pause between GitHub writes past the first ``write_burst`` (secondary rate limits)."""
    write_burst: int = 4
    """Writes of one run sent without pausing (one event makes about 3–4)."""


@dataclass(frozen=True)
class ImplementSection:
    allowed_commands: tuple[str, ...] = ("pytest", "python -m pytest", "make test", "ruff")
    """Command prefixes the implement step may run."""
    allowed_paths: tuple[str, ...] = ("**",)
    """Globs the implement step may write."""
    protected_paths: tuple[str, ...] = (".git/**", ".github/workflows/**")
    """Globs the implement step may never write, whatever ``allowed_paths`` says."""
    max_items: int = 30
    """Largest item checklist per phase (amendments are capped at twice the original count)."""


@dataclass(frozen=True)
class PluginsSection:
    enabled: tuple[str, ...] = ()
    """Plugins to enable, by name (see ``rfd plugins``)."""
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    """``[plugins.<name>]`` tables, validated by each plugin's own JSON Schema."""


@dataclass(frozen=True)
class Config:
    rfd: RfdSection = RfdSection()
    labels: LabelsSection = LabelsSection()
    provider: ProviderSection = ProviderSection()
    models: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType(
            {
                "haiku": "claude-haiku-4-5",
                "sonnet": "claude-sonnet-5-5",
                "opus": "claude-opus-5-5",
                "gemini-pro": "gemini-2.5-pro",
                "gemini-flash": "gemini-2.5-flash",
            }
        )
    )
    """Model aliases → model ids."""
    steps: StepsSection = StepsSection()
    accept: AcceptSection = AcceptSection()
    bot: BotSection = BotSection()
    implement: ImplementSection = ImplementSection()
    plugins: PluginsSection = PluginsSection()

    def model_for(self, step: str, override: str | None = None) -> str:
        """The model id for ``step``: ``override`` or the step's setting, aliases resolved.

        An empty setting (a ``[steps.<step>]`` table that sets only a budget) is the step's
        built-in default, not an empty model id."""
        name = override or getattr(self.steps, step).model or getattr(StepsSection(), step).model
        return self.models.get(name, name)

    @property
    def rfd_dir(self) -> str:
        return self.rfd.dir.rstrip("/")

    @property
    def state_root(self) -> str:
        return f"{self.rfd_dir}/{self.rfd.state_dir}"


@dataclass(frozen=True)
class Resolved:
    """A validated configuration plus where each set value came from."""

    config: Config
    sources: Mapping[str, str]
    """Dotted key → layer name (``default``, ``user``, ``repo``, ``env``, ``cli``)."""
    files: Mapping[str, str] = field(default_factory=dict)
    """Layer name → the file (or ``environment``, ``command line``) it was read from."""


# --------------------------------------------------------------------------- loading


def load(repo_root: Path, *, user: bool = False, cli: Mapping[str, Any] | None = None) -> Resolved:
    """Resolve the configuration of ``repo_root``: defaults, [user], repo file, env, CLI."""
    layers: list[tuple[str, str, Mapping[str, Any]]] = []
    if user:
        user_file = user_config_path()
        if user_file.is_file():
            layers.append(("user", str(user_file), read_toml(user_file)))
    repo_file = repo_root / CONFIG_PATH
    if repo_file.is_file():
        layers.append(("repo", CONFIG_PATH, read_toml(repo_file, display=CONFIG_PATH)))
    env = env_layer(os.environ)
    if env:
        layers.append(("env", "environment", env))
    if cli:
        layers.append(("cli", "command line", cli))
    return resolve(layers)


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
    return resolve([("repo", path, data)]).config


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
        _build(Config, data, "", display)
        _merge(merged, data, "", name, sources)
    config = _build(Config, merged, "", "configuration")
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


def freeze(value: Any) -> Any:
    """A read-only copy: tables become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def _toml_error_line(message: str) -> int | None:
    marker = "(at line "
    if marker in message:
        tail = message.split(marker, 1)[1]
        digits = tail.split(",", 1)[0].rstrip(")")
        if digits.isdigit():
            return int(digits)
    return None


# --------------------------------------------------------------------------- validation


def _build(cls: type[Any], data: Any, prefix: str, path: str) -> Any:
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
    return cls(**kwargs)


_PATH_KEYS = {"dir": "the repository", "drafts_dir": "`rfd.dir`", "state_dir": "`rfd.dir`"}


def _check_inside(values: Mapping[str, Any], prefix: str, path: str) -> None:
    """RFD directories are relative paths that stay inside the repository."""
    for key, inside in _PATH_KEYS.items():
        value = values.get(key)
        if not isinstance(value, str):
            continue
        parts = PurePosixPath(value.replace("\\", "/")).parts
        if PurePosixPath(value).is_absolute() or PureWindowsPath(value).drive or ".." in parts:
            raise ConfigError(
                f"`{prefix}{key}` = {value!r} points outside {inside}",
                path=path,
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
        return _build(tp, value, key + ".", path)  # type: ignore[arg-type]
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            raise ConfigError(f"`{key}` must be one of {choices}, not {value!r}", path=path)
        return value
    if origin is tuple:
        (item_tp, _) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ConfigError(f"`{key}` must be a list, not {_tname(value)}", path=path)
        return tuple(_coerce(item_tp, v, f"{key}[{i}]", path) for i, v in enumerate(value))
    if origin in (Mapping, dict) or tp is Mapping:
        if not isinstance(value, Mapping):
            raise ConfigError(f"`{key}` must be a table, not {_tname(value)}", path=path)
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
        raise ConfigError(f"`{key}` has an unsupported value {value!r}", path=path)
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
        )
    if tp in (int, float) and value < 0:
        raise ConfigError(f"`{key}` must not be negative", path=path)
    return value


_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")
_VALUE_CHECKS = {
    "bot.login": (
        _LOGIN,
        "a GitHub login such as `github-actions[bot]`, `my-app[bot]` or `rfd-machine-user`",
    ),
}
"""Strings with a shape: key → (pattern the whole value must match, what to write)."""


def _check_value(key: str, value: Any, path: str) -> None:
    check = _VALUE_CHECKS.get(key)
    if check is not None and not check[0].fullmatch(str(value)):
        raise ConfigError(f"`{key}` must be {check[1]}, not {value!r}", path=path)


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


def schema_keys() -> list[tuple[str, str, str]]:
    """Every configuration key as ``(dotted key, default, description)`` (for docs and tests)."""
    out: list[tuple[str, str, str]] = []
    _walk_keys(Config, Config(), "", out)
    return out


def _walk_keys(cls: type[Any], default: Any, prefix: str, out: list[tuple[str, str, str]]) -> None:
    docs = _field_docs(cls)
    for f in dataclasses.fields(cls):
        value = getattr(default, f.name)
        key = f"{prefix}{f.name}"
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            _walk_keys(type(value), value, key + ".", out)
        else:
            out.append((key, repr(value), docs.get(f.name, "")))


def _field_docs(cls: type[Any]) -> dict[str, str]:
    """Attribute docstrings (the string literal after each field) of a dataclass."""
    import ast
    import inspect
    import itertools
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for prev, node in itertools.pairwise(body):
        if (
            isinstance(prev, ast.AnnAssign)
            and isinstance(prev.target, ast.Name)
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            docs[prev.target.id] = " ".join(node.value.value.split())
    return docs
