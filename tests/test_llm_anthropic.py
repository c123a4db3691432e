"""The Anthropic provider against recorded Messages API exchanges (no network, dummy key)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.config.load import Config
from bot.core.errors import ProviderError
from bot.llm.anthropic import AnthropicLLM
from bot.llm.base import Message, Request, ToolSpec
from bot.llm.guard import retry_empty
from bot.model.reviews import REVIEW_SCHEMA, Severity, from_data

DUMMY_KEY = "sk-ant-api03-test-dummy-key"
SYSTEM = "You answer questions about software design documents in one or two sentences."
QUESTION = Message("user", "What is an RFD, in one sentence?")


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> AnthropicLLM:
    monkeypatch.setenv("ANTHROPIC_API_KEY", DUMMY_KEY)
    return AnthropicLLM.from_config(Config(), os.environ)


def ask(**changes: Any) -> Request:
    base: dict[str, Any] = {
        "model": "claude-sonnet-5-5",
        "system": SYSTEM,
        "messages": (QUESTION,),
        "max_tokens": 256,
        "cache_system": False,
    }
    return Request(**{**base, **changes})


@pytest.mark.vcr
def test_plain_completion(llm: AnthropicLLM) -> None:
    reply = llm.complete(ask())
    assert reply.text.startswith("An RFD (Request for Discussion)")
    assert reply.model == "claude-sonnet-5-5"
    assert reply.stop_reason == "end_turn"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (31, 38)


@pytest.mark.vcr
def test_streaming_calls_on_text_as_text_arrives(llm: AnthropicLLM) -> None:
    chunks: list[str] = []
    reply = llm.complete(ask(), on_text=chunks.append)
    assert len(chunks) > 1
    assert "".join(chunks) == reply.text
    assert reply.usage.output_tokens == 38
    assert reply.stop_reason == "end_turn"


REVIEW_TOOL = ToolSpec("submit_review", "Submit the review.", REVIEW_SCHEMA)
TINY_RFD = Message("user", "Review this RFD: # RFD 007: Cache\n\nWe add a cache.")


def structured(model: str) -> Request:
    return ask(
        model=model,
        messages=(TINY_RFD,),
        tools=(REVIEW_TOOL,),
        tool_choice="submit_review",
        max_tokens=1024,
    )


@pytest.mark.vcr
def test_forced_tool_gives_structured_output(llm: AnthropicLLM) -> None:
    reply = llm.complete(structured("claude-haiku-4-5"))
    assert reply.stop_reason == "tool_use"
    (call,) = reply.tool_calls
    assert call.id.startswith("toolu_")
    review = from_data(dict(call.arguments), kind="design", reviewer="anthropic", model=reply.model)
    assert review.findings[0].severity is Severity.MAJOR
    assert review.questions


@pytest.mark.vcr
def test_json_schema_output_where_forcing_a_tool_is_refused(llm: AnthropicLLM) -> None:
    """Sonnet 5.5 answers 400 to a forced tool: the schema goes in output_config instead."""
    reply = llm.complete(structured("claude-sonnet-5-5"))
    (call,) = reply.tool_calls
    assert call.name == "submit_review"
    review = from_data(dict(call.arguments), kind="design", reviewer="anthropic", model=reply.model)
    assert review.findings[0].severity is Severity.MAJOR
    assert reply.blocks[0]["type"] == "thinking"  # kept, to be sent back in a tool loop


@pytest.mark.vcr
def test_cache_write_then_cache_read(llm: AnthropicLLM) -> None:
    request = ask(system=SYSTEM + "\n\n" + LONG_CONTEXT, cache_system=True)
    first, second = llm.complete(request), llm.complete(request)
    assert first.usage.cache_write_tokens > 1024 and first.usage.cache_read_tokens == 0
    assert second.usage.cache_read_tokens == first.usage.cache_write_tokens
    assert second.usage.cache_write_tokens == 0


@pytest.mark.vcr
def test_overloaded_529_is_retried_by_the_sdk(llm: AnthropicLLM, vcr: Any) -> None:
    reply = llm.complete(ask())
    assert reply.text
    assert vcr.play_count == 2  # one 529, then the answer


@pytest.mark.vcr
def test_overloaded_after_all_retries_is_a_provider_error(llm: AnthropicLLM, vcr: Any) -> None:
    with pytest.raises(ProviderError) as err:
        llm.complete(ask())
    assert vcr.play_count == 3  # max_retries = 2
    assert "529" in str(err.value) and "overloaded_error" in str(err.value)
    assert "try again later" in str(err.value)


@pytest.mark.vcr
def test_bad_request_is_a_clear_provider_error_without_the_key(llm: AnthropicLLM) -> None:
    with pytest.raises(ProviderError) as err:
        llm.complete(ask(model="claude-opus-5-5", max_tokens=200_000))
    message = str(err.value)
    assert message.startswith("Anthropic API error 400 — invalid_request_error: max_tokens")
    assert "request-id req_" in message
    assert DUMMY_KEY not in message and DUMMY_KEY not in repr(llm)


@pytest.mark.vcr
def test_empty_reply_is_retried(llm: AnthropicLLM, vcr: Any) -> None:
    reply = retry_empty(lambda: llm.complete(ask()))
    assert reply.text
    assert vcr.play_count == 2
    assert reply.usage.output_tokens == 3 + 38  # both attempts are counted


def test_missing_key_says_which_variable() -> None:
    with pytest.raises(ProviderError, match="ANTHROPIC_API_KEY is not set"):
        AnthropicLLM.from_config(Config(), {})


LONG_CONTEXT = "\n".join(
    f"Rule {n}: a design document names its owner, its status and the decision it asks for."
    for n in range(1, 121)
)
