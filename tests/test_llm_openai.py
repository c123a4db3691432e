"""The OpenAI-compatible provider against recorded chat-completions exchanges."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.config.load import Config
from bot.core.errors import ProviderError
from bot.llm import openai_stream as stream
from bot.llm.base import Message, Request, ToolSpec
from bot.llm.openai import OpenAILLM, retry_delay
from bot.llm.openai_wire import error_detail
from bot.llm.openai_wire import reply as reply_of
from bot.model.reviews import REVIEW_SCHEMA, Severity, from_data

DUMMY_KEY = "sk-proj-test-dummy-key"
SYSTEM = "You answer questions about software design documents in one or two sentences."


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def llm(sleeps: list[float]) -> OpenAILLM:
    return OpenAILLM(DUMMY_KEY, max_retries=2, sleep=sleeps.append)


def ask(**changes: Any) -> Request:
    base: dict[str, Any] = {
        "model": "gpt-4.1",
        "system": SYSTEM,
        "messages": (Message("user", "What is an RFD, in one sentence?"),),
        "max_tokens": 256,
    }
    return Request(**{**base, **changes})


@pytest.mark.vcr
def test_completion_reports_cached_tokens_apart(llm: OpenAILLM) -> None:
    reply = llm.complete(ask())
    assert reply.text.startswith("An RFD (Request for Discussion)")
    assert reply.model == "gpt-4.1-2025-04-14"
    assert reply.stop_reason == "stop"
    usage = reply.usage
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (256, 1792, 41)


@pytest.mark.vcr
def test_streaming_passes_text_on_as_it_arrives(llm: OpenAILLM) -> None:
    chunks: list[str] = []
    reply = llm.complete(ask(), on_text=chunks.append)
    assert len(chunks) > 1 and "".join(chunks) == reply.text
    assert reply.text.startswith("An RFD (Request for Discussion)")
    assert reply.stop_reason == "stop"
    assert (reply.usage.input_tokens, reply.usage.cache_read_tokens) == (256, 1792)


def test_streamed_tool_call_pieces_are_joined() -> None:
    lines = [
        ": keep-alive",
        'data: {"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,'
        '"id":"call_1","type":"function","function":{"name":"submit","arguments":""}}]}}]}',
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,'
        '"function":{"arguments":"{\\"a\\": "}}]}}]}',
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,'
        '"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]}',
        'data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}',
        "data: [DONE]",
    ]
    data = stream.fold(stream.events(lines), lambda _: None)
    reply = reply_of(data)
    assert reply.tool_calls[0].arguments == {"a": 1}
    assert reply.stop_reason == "tool_calls" and reply.usage.output_tokens == 2


def test_whole_tool_calls_without_an_index_stay_apart() -> None:
    """Gemini's endpoint streams each call whole in one piece, with no ``index``."""
    calls = ",".join(
        f'{{"function":{{"arguments":"{{\\"n\\":{n}}}","name":"add"}},"id":"c{n}","type":"function"}}'
        for n in (1, 2)
    )
    lines = [f'data: {{"choices":[{{"delta":{{"tool_calls":[{calls}]}},"index":0}}]}}']
    reply = reply_of(stream.fold(stream.events(lines), lambda _: None))
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        ("c1", "add", {"n": 1}),
        ("c2", "add", {"n": 2}),
    ]


@pytest.mark.vcr
def test_forced_function_gives_structured_output(llm: OpenAILLM) -> None:
    tool = ToolSpec("submit_review", "Submit the review.", REVIEW_SCHEMA)
    reply = llm.complete(ask(tools=(tool,), tool_choice="submit_review", max_tokens=1024))
    (call,) = reply.tool_calls
    assert call.id.startswith("call_") and call.name == "submit_review"
    review = from_data(dict(call.arguments), kind="design", reviewer="openai", model=reply.model)
    assert review.findings[0].severity is Severity.MAJOR


@pytest.mark.vcr
def test_rate_limit_waits_what_retry_after_says(
    llm: OpenAILLM, sleeps: list[float], vcr: Any
) -> None:
    assert llm.complete(ask()).text
    assert vcr.play_count == 2
    assert sleeps == [1.0]


@pytest.mark.vcr
def test_server_errors_back_off_then_fail_clearly(
    llm: OpenAILLM, sleeps: list[float], vcr: Any
) -> None:
    with pytest.raises(ProviderError, match="answered 503"):
        llm.complete(ask())
    assert vcr.play_count == 3
    assert sleeps == [0.5, 1.0]


@pytest.mark.vcr
def test_bad_request_is_a_clear_provider_error_without_the_key(llm: OpenAILLM) -> None:
    with pytest.raises(ProviderError) as err:
        llm.complete(ask(model="gpt-4.1-turbo-nonexistent"))
    message = str(err.value)
    assert "answered 404" in message and "does not exist" in message
    assert DUMMY_KEY not in message and DUMMY_KEY not in repr(llm)


def test_key_comes_from_the_configured_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config()
    with pytest.raises(ProviderError, match="OPENAI_API_KEY is not set"):
        OpenAILLM.from_config(config, {})
    monkeypatch.setenv("OPENAI_API_KEY", DUMMY_KEY)
    assert OpenAILLM.from_config(config, os.environ).base_url == "https://api.openai.com/v1"


@pytest.mark.parametrize(
    ("headers", "attempt", "wait"),
    [
        ({"retry-after": "3"}, 0, 3.0),
        ({"retry-after-ms": "250"}, 0, 0.25),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0, 0.0),  # in the past
        ({"retry-after": "soon"}, 1, 1.0),  # unreadable: back-off
        ({}, 2, 2.0),
        ({"retry-after": "86400"}, 0, 60.0),  # capped
    ],
)
def test_retry_delay(headers: dict[str, str], attempt: int, wait: float) -> None:
    assert retry_delay(headers, attempt) == wait


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            {"error": {"message": "bad", "type": "invalid_request_error"}},
            "invalid_request_error: bad",
        ),
        (
            [{"error": {"code": 400, "message": "no", "status": "INVALID_ARGUMENT"}}],
            "INVALID_ARGUMENT: no",
        ),  # Gemini's OpenAI endpoint answers a list
        ({"detail": "Not Found"}, "{'detail': 'Not Found'}"),
    ],
)
def test_error_detail(body: Any, detail: str) -> None:
    assert error_detail(body) == detail
