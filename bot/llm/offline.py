"""The offline provider: no model at all.

Steps check ``llm.offline`` and take their deterministic path (structural review,
plan extraction from headings); calling :meth:`OfflineLLM.complete` is a bug in
the caller or a step that has no offline path, and says so.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.errors import ProviderError
from bot.llm.base import Reply, Request

NO_MODEL = "the offline provider has no free-form model: this step needs an AI provider"
NO_MODEL_HINT = "set ANTHROPIC_API_KEY (or the key named by provider.api_key_env) and retry"


class OfflineLLM:
    """:class:`bot.llm.base.LLM` that never answers."""

    name = "offline"
    offline = True

    def __repr__(self) -> str:
        return "OfflineLLM()"

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        raise ProviderError(NO_MODEL, hint=NO_MODEL_HINT)
