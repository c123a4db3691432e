"""The Anthropic provider: the official ``anthropic`` SDK, imported only when a call is made.

Retries (408/409/429/5xx, 529 overloaded, honouring ``retry-after``) and timeouts
are the SDK's own, configured from ``provider.max_retries`` and
``provider.timeout_seconds``: there is no second retry layer here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.core.errors import ProviderError
from bot.llm import anthropic_wire as wire
from bot.llm.base import Reply, Request

if TYPE_CHECKING:
    from anthropic import Anthropic

    from bot.config.load import Config

KEY_ENV = "ANTHROPIC_API_KEY"
NO_KEY = f"{KEY_ENV} is not set"
NO_KEY_HINT = f'export {KEY_ENV}=… or set provider.name = "offline" in .github/rfd.toml'
STATUS_HINTS: Mapping[int, str] = {
    400: "the request was rejected; check the model id and the prompt size",
    401: f"check {KEY_ENV}",
    403: f"the key in {KEY_ENV} may not use this model",
    404: "unknown model id: check `models` and `steps.<step>.model` in the configuration",
    413: "the prompt is too large: lower provider.context_tokens",
    429: "rate limited even after retries: wait, or raise provider.max_retries",
    529: "Anthropic is overloaded even after retries: try again later",
}


class AnthropicLLM:
    """:class:`bot.llm.base.LLM` over the Messages API."""

    name = "anthropic"
    offline = False

    def __init__(self, api_key: str, *, timeout: float = 120.0, max_retries: int = 2) -> None:
        self._api_key = api_key
        self._timeout = timeout
        self._max_retries = max_retries
        self._client: Anthropic | None = None

    def __repr__(self) -> str:  # never show the key
        return f"AnthropicLLM(timeout={self._timeout}, max_retries={self._max_retries})"

    @classmethod
    def from_config(cls, config: Config, environ: Mapping[str, str]) -> AnthropicLLM:
        key = environ.get(KEY_ENV, "")
        if not key:
            raise ProviderError(NO_KEY, hint=NO_KEY_HINT)
        p = config.provider
        return cls(key, timeout=p.timeout_seconds, max_retries=p.max_retries)

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        import anthropic

        params = wire.params(request)
        structured = request.tool_choice if "output_config" in params else None
        if structured:
            fmt = params["output_config"]["format"]
            fmt["schema"] = anthropic.transform_schema(fmt["schema"])
        try:
            message = self._call(params, on_text)
        except anthropic.APIStatusError as exc:
            raise status_error(exc.status_code, exc.type, exc.api_message, exc.request_id) from None
        except anthropic.APITimeoutError:
            raise ProviderError(
                f"Anthropic did not answer within {self._timeout:g} s",
                hint="raise provider.timeout_seconds or retry",
            ) from None
        except anthropic.APIConnectionError as exc:
            raise ProviderError(f"cannot reach the Anthropic API: {exc.message}") from None
        return wire.reply(message, structured=structured, shared=wire.shared_answer(request))

    def _call(self, params: dict[str, Any], on_text: Callable[[str], None] | None) -> Any:
        client = self._sdk()
        if on_text is None:
            return client.messages.create(**params)
        with client.messages.stream(**params) as stream:
            for chunk in stream.text_stream:
                on_text(chunk)
            return stream.get_final_message()

    def _sdk(self) -> Anthropic:
        if self._client is None:
            from anthropic import Anthropic

            self._client = Anthropic(
                api_key=self._api_key, timeout=self._timeout, max_retries=self._max_retries
            )
        return self._client


def status_error(
    status: int, kind: str | None, message: str | None, request_id: str | None
) -> ProviderError:
    """The error a user sees for an HTTP error answer (the key is never part of it)."""
    detail = f"{kind}: {message}" if kind and message else (message or kind or "no detail")
    suffix = f" (request-id {request_id})" if request_id else ""
    hint = STATUS_HINTS.get(status) or ("the API failed; retry later" if status >= 500 else None)
    return ProviderError(f"Anthropic API error {status} — {detail}{suffix}", hint=hint)
