"""Find installed plugins, register the enabled ones, check their options, and hold them to
their declarations.

Discovery goes through entry points of the group ``rfd_bot`` — the built-in plugins
are declared there in ``pyproject.toml`` like any third-party one.  When rfd-bot runs
from a source checkout (not installed, so no entry points), :data:`BUILTIN` supplies the
same entry points.  Only plugins listed in ``[plugins] enabled`` are imported and
registered, in that order; plugin names compare in their canonical spelling.

Each plugin's ``[plugins.<name>]`` table is validated against its own JSON Schema
(defaults filled in), and a wrong key is reported where it was set in the configuration
files.  The validator handles the subset plugins need — ``type``, ``properties``,
``additionalProperties`` (``false`` or a schema), ``required``, ``items``, ``enum``,
``minimum``, ``maximum``, ``minLength``, ``default`` — rather than import ``jsonschema``
on every run; any other keyword is rejected, so a schema never silently means less than
it says.  Objects are closed unless they say otherwise: an unknown key is an error
naming it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from bot.config.load import CONFIG_PATH, Config, Resolved, freeze
from bot.core.errors import ConfigError, RfdError
from bot.core.toml_lines import line_of
from bot.events import EventBus
from bot.plugins import hookspecs
from bot.plugins.api import (
    LineStore,
    ModelRoute,
    PluginContext,
    PluginInfo,
    ScopedBus,
    event_names,
    interceptable_events,
)

if TYPE_CHECKING:
    from bot.llm.base import LLM

GROUP = hookspecs.PROJECT

BUILTIN: Mapping[str, str] = {
    "event-log": "bot.plugins.event_log",
    "notify": "bot.plugins.notify",
    "policy": "bot.plugins.policy",
    "judge": "bot.plugins.judge",
}
"""The built-in plugins, exactly as ``[project.entry-points.rfd_bot]`` declares them."""


@dataclass(frozen=True)
class Plugin:
    """An installed plugin, its declaration, and (when enabled) its validated options."""

    name: str
    info: PluginInfo
    source: str
    """The distribution that installs it (``rfd-bot 0.1.0``), or ``built-in``."""
    enabled: bool = False
    options: Mapping[str, Any] | None = None
    error: str | None = None
    """Why it cannot be loaded (``rfd plugins`` still lists it)."""


def available() -> dict[str, EntryPoint]:
    """Every installed plugin's entry point, by canonical name."""
    found = {canonical(ep.name): ep for ep in entry_points(group=GROUP)}
    for name, module in BUILTIN.items():
        found.setdefault(name, EntryPoint(name, module, GROUP))
    return found


def installed(config: Config, found: Mapping[str, EntryPoint] | None = None) -> list[Plugin]:
    """Every installed plugin, enabled or not, sorted by name (for ``rfd plugins``)."""
    found = available() if found is None else found
    enabled = {canonical(n) for n in config.plugins.enabled}
    pm = _new_manager()
    return [_describe(pm, name, ep, name in enabled) for name, ep in sorted(found.items())]


def _describe(pm: pluggy.PluginManager, name: str, ep: EntryPoint, enabled: bool) -> Plugin:
    try:
        return Plugin(name, _load(pm, name, ep), _source(ep), enabled=enabled)
    except ConfigError as err:
        broken = PluginInfo(name=name, description=f"cannot be loaded: {err.message}")
        return Plugin(name, broken, _source(ep), enabled=enabled, error=err.message)


def check_plugins(
    resolved: Resolved, *, root: Path, found: Mapping[str, EntryPoint] | None = None
) -> dict[str, Mapping[str, Any]]:
    """The validated options (defaults filled in) of every enabled or configured plugin,
    by name, registering nothing.

    Raises the same :class:`ConfigError` (file, line, plugin and key) as :func:`load_plugins`.
    """
    plugins = resolved.config.plugins
    if not plugins.enabled and not plugins.options:
        return {}
    found = available() if found is None else found
    pm = _new_manager()
    names = _enabled(resolved, found, root)
    names += sorted({canonical(n) for n in plugins.options} - set(names))
    return {
        name: plugin_options(resolved, name, _load(pm, name, found[name]), root) for name in names
    }


def load_plugins(
    bus: EventBus,
    resolved: Resolved,
    *,
    root: Path,
    store: LineStore | None = None,
    llm: LLM | None = None,
    environ: Mapping[str, str] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    found: Mapping[str, EntryPoint] | None = None,
    route: ModelRoute | None = None,
    prompt_root: Path | None = None,
) -> tuple[Plugin, ...]:
    """Register the enabled plugins on ``bus``, in the order ``[plugins] enabled`` lists them.

    Every plugin is loaded and its options validated before any is registered, so a
    configuration mistake leaves the bus untouched.
    """
    if not resolved.config.plugins.enabled and not resolved.config.plugins.options:
        return ()  # nothing to do: not even a scan of the installed distributions
    found = available() if found is None else found
    pm = _new_manager()
    plugins = []
    for name in _enabled(resolved, found, root):
        info = _load(pm, name, found[name])
        options = plugin_options(resolved, name, info, root)
        plugins.append(Plugin(name, info, _source(found[name]), enabled=True, options=options))
    _check_disabled(resolved, found, root, {p.name for p in plugins})
    environ = dict(os.environ) if environ is None else environ
    context = PluginContext(
        root, resolved.config, store, llm, environ, sleep, route=route, prompt_root=prompt_root
    )
    for plugin in plugins:
        _register(pm, plugin, bus, context)
    return tuple(plugins)


def _register(pm: pluggy.PluginManager, plugin: Plugin, bus: EventBus, ctx: PluginContext) -> None:
    scoped = ScopedBus(bus, plugin.info)
    try:
        _call(pm, "rfd_register", plugin.name, bus=scoped, options=plugin.options, context=ctx)
    except RfdError:
        raise
    except Exception as exc:
        raise ConfigError(f"plugin `{plugin.name}` failed to start: {exc}") from exc


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def _enabled(resolved: Resolved, found: Mapping[str, EntryPoint], root: Path) -> list[str]:
    plugins = resolved.config.plugins
    names = list(dict.fromkeys(canonical(n) for n in plugins.enabled))
    keyed = [("plugins.enabled", n) for n in names]
    keyed += [(f"plugins.{n}", canonical(n)) for n in plugins.options]
    for key, name in keyed:
        if name not in found:
            raise ConfigError(
                f"unknown plugin `{name}` in `{key}`",
                **where_set(resolved, key, root),
                hint="installed plugins: " + ", ".join(sorted(found)),
            )
    return names


def _check_disabled(
    resolved: Resolved, found: Mapping[str, EntryPoint], root: Path, enabled: set[str]
) -> None:
    """Validate the options of plugins that are configured but not enabled (not registered)."""
    pm = _new_manager()
    for name in sorted({canonical(n) for n in resolved.config.plugins.options} - enabled):
        plugin_options(resolved, name, _load(pm, name, found[name]), root)


def _load(pm: pluggy.PluginManager, name: str, ep: EntryPoint) -> PluginInfo:
    try:
        module = ep.load()
    except Exception as exc:
        raise ConfigError(f"plugin `{name}` could not be loaded: {exc}", path=ep.value) from exc
    try:
        pm.register(module, name=name)
        pm.check_pending()  # a misspelt hook name fails here, not silently
    except pluggy.PluginValidationError as exc:
        raise ConfigError(f"plugin `{name}` is not a valid rfd-bot plugin: {exc}") from exc
    info = _call(pm, "rfd_plugin_info", name)
    _check_info(name, info)
    return info  # type: ignore[no-any-return]


def _call(pm: pluggy.PluginManager, hook: str, name: str, **kwargs: Any) -> Any:
    """Call one plugin's implementation of ``hook`` (each plugin gets its own arguments)."""
    others = [plugin for other, plugin in pm.list_name_plugin() if other != name]
    results = pm.subset_hook_caller(hook, remove_plugins=others)(**kwargs)
    return results[0] if results else None


def _check_info(name: str, info: Any) -> None:
    if not isinstance(info, PluginInfo):
        raise ConfigError(f"plugin `{name}` does not declare itself (rfd_plugin_info)")
    if canonical(info.name) != name:
        raise ConfigError(f"plugin `{name}` calls itself `{info.name}`")
    unknown = sorted(set(info.events) - event_names())
    if unknown:
        raise ConfigError(f"plugin `{name}` declares unknown events: {', '.join(unknown)}")
    wrong = sorted(i for i in info.intercepts if "." in i and i not in interceptable_events())
    if wrong:
        raise ConfigError(
            f"plugin `{name}` declares in `intercepts` what is no interceptable event: "
            + ", ".join(wrong),
            hint="interceptable events: " + ", ".join(sorted(interceptable_events())),
        )
    try:
        check_schema(info.options_schema)
    except ValueError as exc:
        raise ConfigError(f"plugin `{name}` has an options schema we cannot check: {exc}") from exc


def _source(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else "built-in"


def canonical(name: str) -> str:
    """Plugin names compare case-insensitively, ``_`` and ``-`` alike."""
    return name.strip().lower().replace("_", "-")


def plugin_options(
    resolved: Resolved, name: str, info: PluginInfo, root: Path
) -> Mapping[str, Any]:
    written = {canonical(k): k for k in resolved.config.plugins.options}
    table = resolved.config.plugins.options.get(written.get(name, name), {})
    key = f"plugins.{written.get(name, name)}"  # as the user spelt it, to find its line
    options, problems = validate(table, info.options_schema, key)
    if problems:
        first = problems[0]
        raise ConfigError(
            f"plugin `{name}`: {first.message}",
            **where_set(resolved, first.key, root),
            hint=first.hint or None,
        )
    return options  # type: ignore[no-any-return]


def where_set(resolved: Resolved, key: str, root: Path) -> dict[str, Any]:
    """``path`` and ``line`` of the file that set ``key`` (line None when unknown)."""
    path = file_of(resolved, key)
    file = root / path  # the repository file is shown relative to the root
    try:
        text = file.read_text(encoding="utf-8") if file.is_file() else ""
    except (OSError, UnicodeDecodeError):
        text = ""
    return {"path": path, "line": line_of(text, key) if text else None}


def file_of(resolved: Resolved, key: str) -> str:
    """The file that set ``key`` (or something under it, or its closest parent)."""
    key = key.split("[", 1)[0]
    while key:
        for source_key, layer in resolved.sources.items():
            if source_key == key or source_key.startswith(key + "."):
                return resolved.files.get(layer, CONFIG_PATH)
        key = key.rpartition(".")[0]
    return CONFIG_PATH


KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "additionalProperties",
        "required",
        "items",
        "enum",
        "minimum",
        "maximum",
        "minLength",
        "default",
        "description",
        "title",
    }
)

_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, (list, tuple)),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}

_ARTICLES = {
    "object": "a table",
    "array": "a list",
    "integer": "an integer",
    "boolean": "true or false",
}


@dataclass(frozen=True)
class Problem:
    """One violation: the dotted key it is about, what is wrong, and what to do."""

    key: str
    message: str
    hint: str = ""


def check_schema(schema: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` if ``schema`` uses a keyword this validator does not know."""
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise ValueError(f"unsupported JSON Schema keywords: {', '.join(sorted(unknown))}")
    for sub in _subschemas(schema):
        check_schema(sub)


def _subschemas(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    subs = list(schema.get("properties", {}).values())
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            subs.append(schema[key])
    return subs


def validate(value: Any, schema: Mapping[str, Any], key: str) -> tuple[Any, list[Problem]]:
    """``value`` with defaults filled in and frozen, and every problem found (empty: valid)."""
    problems: list[Problem] = []
    result = _check(value, schema, key, problems)
    return freeze(result), problems


def _check(value: Any, schema: Mapping[str, Any], key: str, problems: list[Problem]) -> Any:
    expected = schema.get("type")
    if expected is not None and not _TYPES[expected](value):
        word = _ARTICLES.get(expected, f"a {expected}")
        problems.append(Problem(key, f"`{key}` must be {word}, not {_word(value)}"))
        return value
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(repr(c) for c in schema["enum"])
        problems.append(Problem(key, f"`{key}` must be one of {choices}, not {value!r}"))
    _check_bounds(value, schema, key, problems)
    if isinstance(value, Mapping):
        return _check_object(value, schema, key, problems)
    if isinstance(value, (list, tuple)) and "items" in schema:
        return [_check(v, schema["items"], f"{key}[{i}]", problems) for i, v in enumerate(value)]
    return value


def _check_bounds(value: Any, schema: Mapping[str, Any], key: str, problems: list[Problem]) -> None:
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        problems.append(Problem(key, f"`{key}` must not be empty"))
    if not _TYPES["number"](value):
        return
    if "minimum" in schema and value < schema["minimum"]:
        problems.append(Problem(key, f"`{key}` must be at least {schema['minimum']}"))
    if "maximum" in schema and value > schema["maximum"]:
        problems.append(Problem(key, f"`{key}` must be at most {schema['maximum']}"))


def _check_object(
    value: Mapping[str, Any], schema: Mapping[str, Any], key: str, problems: list[Problem]
) -> dict[str, Any]:
    props: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", False)
    out: dict[str, Any] = {}
    for name, item in value.items():
        sub = props.get(name, extra)
        if sub is False:
            known = ", ".join(sorted(props)) or "none"
            problems.append(
                Problem(f"{key}.{name}", f"unknown key `{key}.{name}`", f"known keys here: {known}")
            )
            continue
        out[name] = _check(item, sub if isinstance(sub, Mapping) else {}, f"{key}.{name}", problems)
    for name in schema.get("required", ()):
        if name not in value:
            problems.append(Problem(f"{key}.{name}", f"`{key}.{name}` is required"))
    for name, sub in props.items():
        if name not in out and name not in schema.get("required", ()) and "default" in sub:
            out[name] = sub["default"]
    return out


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, Mapping):
        return "a table"
    words = {str: "a string", int: "an integer", float: "a number", list: "a list", tuple: "a list"}
    return words.get(type(value), type(value).__name__)
