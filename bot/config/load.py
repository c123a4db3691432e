"""The repository configuration: one TOML file, strictly validated, resolved once and frozen.

Layers are merged in order (embedded defaults → user config → repo config →
environment → command-line flags); the result is validated against the frozen
dataclasses below, which *are* the schema.  Every value remembers which layer
set it, for ``rfd config show``.

Why not pydantic or msgspec?  Hooks read this file on every commit and must start
in well under 100 ms; on our machines pydantic costs ~80 ms and msgspec ~50 ms to
import, while ``tomllib`` and this module cost a few.  The validator
(:mod:`bot.config.check`) covers exactly the types the schema (:mod:`bot.config.schema`)
uses; this module reads, layers and resolves.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bot.config.check import build, freeze
from bot.config.keys import schema_keys
from bot.config.schema import (
    ACTIONS_BOT_LOGIN,
    AcceptSection,
    BotSection,
    Config,
    ConsensusSection,
    ConventionsSection,
    LabelsSection,
    PluginsSection,
    Resolved,
    ReviewSection,
    RfdSection,
)
from bot.config.schema_ai import ImplementSection, ProviderSection, StepSection, StepsSection
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
    from bot.model.vocabulary import use

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
