"""Choose the provider from the configuration and the environment.

``provider.name = "auto"``: Anthropic when ``ANTHROPIC_API_KEY`` is set, else the
OpenAI-compatible endpoint when the variable named by ``provider.api_key_env`` is
set, else offline — and the caller shows the reason string to the user.
Nothing heavy is imported here: providers import their SDK on the first call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.errors import ConfigError

if TYPE_CHECKING:
    from bot.config import Config
    from bot.llm.base import LLM

NONE_SET = (
    "no ANTHROPIC_API_KEY or OPENAI_API_KEY set: using the offline provider "
    "(structural review, deterministic plan extraction)"
)
NAMES = ("auto", "anthropic", "openai", "offline")


def select(
    config: Config, environ: Mapping[str, str], *, override: str | None = None
) -> tuple[LLM, str]:
    """The provider to use and a one-line reason (for ``--verbose`` and the offline notice)."""
    name = override or config.provider.name
    if name not in NAMES:
        raise ConfigError(f"unknown provider {name!r}", hint=f"choose one of {', '.join(NAMES)}")
    if name == "auto":
        return _auto(config, environ)
    return _build(name, config, environ), f"provider {name} (configured)"


def _auto(config: Config, environ: Mapping[str, str]) -> tuple[LLM, str]:
    from bot.llm.anthropic import KEY_ENV

    if environ.get(KEY_ENV):
        return _build("anthropic", config, environ), f"{KEY_ENV} is set: using Anthropic"
    key_env = config.provider.api_key_env
    if environ.get(key_env):
        reason = f"{key_env} is set: using {config.provider.base_url}"
        return _build("openai", config, environ), reason
    reason = (
        NONE_SET if key_env == "OPENAI_API_KEY" else NONE_SET.replace("OPENAI_API_KEY", key_env)
    )
    return _build("offline", config, environ), reason


def _build(name: str, config: Config, environ: Mapping[str, str]) -> LLM:
    if name == "anthropic":
        from bot.llm.anthropic import AnthropicLLM

        return AnthropicLLM.from_config(config, environ)
    if name == "openai":
        from bot.llm.openai import OpenAILLM

        return OpenAILLM.from_config(config, environ)
    from bot.llm.offline import OfflineLLM

    return OfflineLLM()
