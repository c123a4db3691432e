"""Choose the provider from the configuration and the environment.

Per step (:class:`Providers`): ``[steps.<step>] provider``, else ``provider.name``.  With
``auto`` the step's model id decides: ``claude-*`` → Anthropic; any other id → the
OpenAI-compatible endpoint (``provider.base_url``, key in ``provider.api_key_env``).  A
routed provider without its key is offline, said plainly — except a non-Claude model while
only the Anthropic key is set: a ConfigError, never a send to the wrong API.

The workspace default (:func:`select`, for plugins): Anthropic when ``ANTHROPIC_API_KEY`` is
set, else the OpenAI-compatible endpoint when its key is set, else offline.
Nothing heavy is imported here: providers import their SDK on the first call, and a
provider is built only when a step asks for it.

Import the SDK a step will call while the bot does something else: a review event reads
GitHub and fetches the pull request (waiting on the network) before its model is called, and
``import anthropic`` alone takes seconds.  Nothing is imported for a step with no model.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from bot.core.errors import ConfigError

if TYPE_CHECKING:
    from bot.config.load import Config
    from bot.llm.base import LLM

ANTHROPIC_KEY = "ANTHROPIC_API_KEY"
NONE_SET = (
    "no ANTHROPIC_API_KEY or OPENAI_API_KEY set: using the offline provider "
    "(structural review, deterministic plan extraction)"
)
NAMES = ("auto", "anthropic", "openai", "offline")
CLAUDE_PREFIX = "claude-"
NO_STEP_KEY = "no {key} set for {model} ({who}): using the offline provider"
NO_ENDPOINT = (
    "{who} uses model {model}, which is not a Claude model, and no OpenAI-compatible "
    "endpoint is configured (${key} is not set)"
)
NO_ENDPOINT_HINT = (
    "set provider.base_url to the endpoint serving it (now {url}) and its key in ${key} "
    '(provider.api_key_env), set {table} provider = "openai", or choose a claude-* '
    "model with {table} model{flag}"
)


class Choice(NamedTuple):
    """A provider and the one-line reason it was chosen (for the offline notice)."""

    llm: LLM
    reason: str


def select(
    config: Config, environ: Mapping[str, str], *, override: str | None = None
) -> tuple[LLM, str]:
    """The workspace's default provider and a one-line reason (``--verbose``, offline notice)."""
    name, reason = pick(config, environ, override=override)
    return build(name, config, environ), reason


def pick(
    config: Config, environ: Mapping[str, str], *, override: str | None = None
) -> tuple[str, str]:
    """:func:`select`'s provider name and reason, nothing built."""
    name = _checked(override or config.provider.name)
    if name != "auto":
        return name, f"provider {name} (configured)"
    if environ.get(ANTHROPIC_KEY):
        return "anthropic", f"{ANTHROPIC_KEY} is set: using Anthropic"
    key_env = config.provider.api_key_env
    if environ.get(key_env):
        return "openai", f"{key_env} is set: using {config.provider.base_url}"
    return "offline", NONE_SET.replace("OPENAI_API_KEY", key_env)


def route(config: Config, environ: Mapping[str, str], step: str, model: str) -> tuple[str, str]:
    """The provider name for ``step`` running ``model`` (a model id), and why.

    ConfigError for a non-Claude model under ``auto`` when only the Anthropic key is set."""
    chosen = getattr(config.steps, step).provider
    return route_model(config, environ, model, chosen, Asker(f"step {step}", f"[steps.{step}]"))


class Asker(NamedTuple):
    """Who asks for a model, as messages name it: a step, or a plugin with its own table."""

    who: str
    """``step review``, ``plugin judge``."""
    table: str
    """Where its ``provider`` and ``model`` are set: ``[steps.review]``, ``[plugins.judge]``."""
    flag: str = " or --model"


def route_model(
    config: Config, environ: Mapping[str, str], model: str, chosen: str | None, asker: Asker
) -> tuple[str, str]:
    """The provider name serving ``model`` for ``asker`` (its own ``chosen`` provider, else
    ``provider.name``), and why; the same rules for a step and for a plugin's model."""
    name = _checked(chosen or config.provider.name)
    if name != "auto":
        return name, f"provider {name} (configured)"
    key_env = config.provider.api_key_env
    if model.startswith(CLAUDE_PREFIX):
        if environ.get(ANTHROPIC_KEY):
            return "anthropic", f"{ANTHROPIC_KEY} is set: using Anthropic for {model}"
        return "offline", NO_STEP_KEY.format(key=ANTHROPIC_KEY, model=model, who=asker.who)
    if environ.get(key_env):
        return "openai", f"{key_env} is set: using {config.provider.base_url} for {model}"
    if environ.get(ANTHROPIC_KEY):
        url = config.provider.base_url
        raise ConfigError(
            NO_ENDPOINT.format(who=asker.who, model=model, key=key_env),
            hint=NO_ENDPOINT_HINT.format(table=asker.table, flag=asker.flag, key=key_env, url=url),
        )
    return "offline", NO_STEP_KEY.format(key=key_env, model=model, who=asker.who)


@dataclass
class Providers:
    """One instance per provider, built the first time a step routes to it."""

    config: Config
    environ: Mapping[str, str]
    built: dict[str, LLM] = field(default_factory=dict, repr=False)
    """Provider name → its instance, filled as steps ask."""

    def default(self) -> Choice:
        """The workspace's default provider (:func:`select`)."""
        name, reason = pick(self.config, self.environ)
        return Choice(self.get(name), reason)

    def for_step(self, step: str, model: str | None = None) -> Choice:
        """The provider of ``step`` (``model``: ``--model``, an alias or id)."""
        name, reason = route(self.config, self.environ, step, self.config.model_for(step, model))
        return Choice(self.get(name), reason)

    def for_model(self, model: str, chosen: str | None, asker: Asker) -> Choice:
        """The provider serving ``model`` (an id) for a plugin such as the judge."""
        name, reason = route_model(self.config, self.environ, model, chosen, asker)
        return Choice(self.get(name), reason)

    def get(self, name: str) -> LLM:
        if name not in self.built:
            self.built[name] = build(name, self.config, self.environ)
        return self.built[name]


def _checked(name: str) -> str:
    if name not in NAMES:
        raise ConfigError(f"unknown provider {name!r}", hint=f"choose one of {', '.join(NAMES)}")
    return name


def build(name: str, config: Config, environ: Mapping[str, str]) -> LLM:
    if name == "anthropic":
        from bot.llm.anthropic import AnthropicLLM

        return AnthropicLLM.from_config(config, environ)
    if name == "openai":
        from bot.llm.openai import OpenAILLM

        return OpenAILLM.from_config(config, environ)
    from bot.llm.base import OfflineLLM

    return OfflineLLM()


if TYPE_CHECKING:
    from bot.config.load import Config

SDKS: Mapping[str, str] = {"anthropic": "anthropic", "openai": "httpx"}
"""Provider name → the module its first call imports."""


def sdk_for(config: Config, environ: Mapping[str, str], step: str) -> str | None:
    """The module ``step``'s provider imports on its first call (None: offline, no model)."""
    try:
        name, _ = route(config, environ, step, config.model_for(step))
    except ConfigError:
        return None  # the step says so itself when it runs
    return SDKS.get(name)


def warm_up(config: Config, environ: Mapping[str, str], step: str) -> threading.Thread | None:
    """Start importing ``step``'s SDK in a background thread (None: nothing to import).

    A later ``import`` of the same module waits for this one (the import system's lock), so
    the step's call finds it ready or finishes it; the thread does not keep the process up."""
    module = sdk_for(config, environ, step)
    if module is None or module in sys.modules:
        return None
    thread = threading.Thread(target=_load, args=(module,), name=f"import {module}", daemon=True)
    thread.start()
    return thread


def _load(module: str) -> None:
    # a failure here is the call's to report: its own import raises the same error again
    with contextlib.suppress(Exception), collector_paused():
        importlib.import_module(module)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for an SDK's import, its objects frozen after it.

    ``import anthropic`` loads ≈ 3,500 modules and a pydantic class for each API type:
    objects that live as long as the process.  While they are made, the collector scans
    them again and again (≈ 13 % of the import's CPU here); frozen, later collections skip
    them.  Reference counting still frees everything else meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
