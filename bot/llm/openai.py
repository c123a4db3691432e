"""The OpenAI-compatible provider: chat completions over ``httpx`` (imported when a call is made).

One endpoint shape covers OpenAI, Gemini's OpenAI endpoint, OpenRouter, Ollama and
vLLM: ``provider.base_url`` and the key in the variable named by
``provider.api_key_env``.  With ``on_text`` the answer is streamed (SSE, see
:mod:`bot.llm.openai_stream`).  There is no SDK here, so this module owns the retry
loop: 408/409/429/5xx are retried ``provider.max_retries`` times, waiting what
``retry-after-ms`` / ``retry-after`` say, else an exponential back-off.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from bot.core.errors import ProviderError
from bot.llm import openai_stream as stream
from bot.llm import openai_wire as wire
from bot.llm.base import Reply, Request

if TYPE_CHECKING:
    import httpx

    from bot.config.load import Config

OPENAI_HOST = "api.openai.com"
RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
MAX_WAIT_SECONDS = 60.0
BASE_BACKOFF_SECONDS = 0.5


class OpenAILLM:
    """:class:`bot.llm.base.LLM` over ``POST {base_url}/chat/completions``."""

    name = "openai"
    offline = False

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = "https://api.openai.com/v1",
        timeout: float = 120.0,
        max_retries: int = 2,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._api_key = api_key
        self.base_url = base_url.rstrip("/")
        self._timeout = timeout
        self._max_retries = max_retries
        self._sleep = sleep

    def __repr__(self) -> str:  # never show the key
        return f"OpenAILLM(base_url={self.base_url!r})"

    @classmethod
    def from_config(cls, config: Config, environ: Mapping[str, str]) -> OpenAILLM:
        p = config.provider
        key = environ.get(p.api_key_env, "")
        if not key:
            raise ProviderError(
                f"{p.api_key_env} is not set",
                hint=f"export {p.api_key_env}=… (provider.api_key_env)",
            )
        return cls(key, base_url=p.base_url, timeout=p.timeout_seconds, max_retries=p.max_retries)

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        """One call; with ``on_text`` the answer is streamed and its text passed on as it comes."""
        limit = "max_completion_tokens" if OPENAI_HOST in self.base_url else "max_tokens"
        payload = wire.body(request, limit_field=limit)
        if on_text is not None:
            payload |= {"stream": True, "stream_options": {"include_usage": True}}
        return wire.reply(self._exchange(payload, on_text))

    def _exchange(
        self, payload: dict[str, Any], on_text: Callable[[str], None] | None
    ) -> dict[str, Any]:
        import httpx

        with httpx.Client(timeout=self._timeout) as client:
            request = client.build_request(
                "POST",
                f"{self.base_url}/chat/completions",
                headers={"Authorization": f"Bearer {self._api_key}"},
                json=payload,
            )
            for attempt in range(self._max_retries + 1):
                response = self._send(client, request)
                if response.status_code not in RETRY_STATUSES or attempt == self._max_retries:
                    break
                response.close()
                self._sleep(retry_delay(response.headers, attempt))
            try:
                return self._read(response, on_text)
            finally:
                response.close()

    def _read(
        self, response: httpx.Response, on_text: Callable[[str], None] | None
    ) -> dict[str, Any]:
        if response.is_error:
            response.read()
            raise self._status_error(response)
        if on_text is None:
            response.read()
            return dict(response.json())
        return stream.fold(stream.events(response.iter_lines()), on_text)

    def _send(self, client: httpx.Client, request: httpx.Request) -> httpx.Response:
        import httpx

        try:
            return client.send(request, stream=True)
        except httpx.TimeoutException:
            raise ProviderError(
                f"{self.base_url} did not answer within {self._timeout:g} s",
                hint="raise provider.timeout_seconds or retry",
            ) from None
        except httpx.HTTPError as exc:
            raise ProviderError(f"cannot reach {self.base_url}: {type(exc).__name__}") from None

    def _status_error(self, response: httpx.Response) -> ProviderError:
        try:
            detail = wire.error_detail(response.json())
        except ValueError:
            detail = response.text[:300] or response.reason_phrase
        hint = "check the key and provider.base_url" if response.status_code in (401, 403) else None
        return ProviderError(
            f"{self.base_url} answered {response.status_code} — {detail}", hint=hint
        )


def retry_delay(headers: Mapping[str, str], attempt: int) -> float:
    """Seconds to wait before retry ``attempt + 1``: what the server asks, else back-off."""
    asked = _asked_delay(headers)
    if asked is None:
        asked = BASE_BACKOFF_SECONDS * 2**attempt
    return min(max(asked, 0.0), MAX_WAIT_SECONDS)


def _asked_delay(headers: Mapping[str, str]) -> float | None:
    if (ms := headers.get("retry-after-ms")) is not None:
        try:
            return float(ms) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(value).timestamp() - time.time()
    except (TypeError, ValueError):
        return None
