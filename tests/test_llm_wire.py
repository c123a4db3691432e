"""Request/response translation for both providers (pure: no SDK, no network)."""

from __future__ import annotations

from types import SimpleNamespace as NS
from typing import Any

import pytest

from bot.llm import anthropic_wire as aw
from bot.llm import openai_wire as ow
from bot.llm.base import (
    Message,
    PaidError,
    Request,
    SystemPart,
    ToolCall,
    ToolResult,
    ToolSpec,
    assistant_message,
)

TOOL = ToolSpec("submit", "Submit.", {"type": "object", "properties": {}})
CALL = ToolCall("toolu_1", "read_file", {"path": "a.py"})
RESULT = ToolResult("toolu_1", "print(1)")


def request(*messages: Message, **changes: Any) -> Request:
    return Request(model="claude-sonnet-5-5", system="sys", messages=messages, **changes)


def breakpoints(params: dict[str, Any]) -> list[str]:
    """Where cache_control sits: "system" or "m<turn>b<block>"."""
    out = ["system" for b in params.get("system", []) if "cache_control" in b]
    for i, turn in enumerate(params["messages"]):
        out += [f"m{i}b{j}" for j, b in enumerate(turn["content"]) if "cache_control" in b]
    return out


@pytest.mark.parametrize(
    ("marked", "cache_system", "expected"),
    [
        ((), True, ["system"]),
        ((0,), True, ["system", "m0b0"]),
        ((0, 1, 2), True, ["system", "m0b0", "m0b1", "m0b2"]),
        ((0, 1, 2, 3), True, ["system", "m0b1", "m0b2", "m0b3"]),  # at most 4: latest win
        ((0, 1, 2, 3), False, ["m0b0", "m0b1", "m0b2", "m0b3"]),
    ],
)
def test_cache_breakpoints_never_exceed_four(
    marked: tuple[int, ...], cache_system: bool, expected: list[str]
) -> None:
    msgs = [Message("user", f"doc {i}", cache=i in marked) for i in range(4)]
    params = aw.params(request(*msgs, cache_system=cache_system))
    assert len(params["messages"]) == 1  # consecutive user messages are one turn
    assert breakpoints(params) == expected


def test_tool_loop_turns() -> None:
    history = (
        Message("user", "fix it"),
        Message("assistant", "Reading.", tool_calls=(CALL,)),
        Message("user", tool_results=(RESULT, ToolResult("toolu_2", "boom", is_error=True))),
    )
    turns = aw.params(request(*history))["messages"]
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert [b["type"] for b in turns[1]["content"]] == ["text", "tool_use"]
    assert turns[2]["content"][1] == {
        "type": "tool_result",
        "tool_use_id": "toolu_2",
        "content": "boom",
        "is_error": True,
    }


@pytest.mark.parametrize(
    ("model", "forced"),
    [
        ("claude-haiku-4-5", True),
        ("claude-opus-4-6", True),
        ("claude-sonnet-5-5", False),
        ("claude-opus-5-5", False),
        ("claude-fable-5-1", False),
    ],
)
def test_structured_output_mechanism_per_model(model: str, forced: bool) -> None:
    params = aw.params(Request(model, "sys", (Message("user", "x"),), (TOOL,), "submit"))
    assert ("tool_choice" in params) is forced
    assert ("output_config" in params) is not forced
    assert ("tools" in params) is forced  # the schema travels in output_config instead


def test_structured_answer_that_is_not_json_is_a_provider_error() -> None:
    message = NS(
        content=[NS(type="text", text='{"summary": "cut')],
        model="claude-sonnet-5-5",
        stop_reason="max_tokens",
        usage=NS(input_tokens=1_200, output_tokens=8_192),
    )
    with pytest.raises(PaidError, match="stop reason max_tokens") as raised:
        aw.reply(message, structured="submit")
    assert (raised.value.usage.output_tokens, raised.value.model) == (8_192, "claude-sonnet-5-5")


def test_thinking_blocks_go_back_verbatim() -> None:
    thinking = {"type": "thinking", "thinking": "", "signature": "sig"}
    content = [
        NS(type="thinking", model_dump=lambda **_: dict(thinking)),
        NS(type="tool_use", id="toolu_9", name="read_file", input={"path": "x"}),
    ]
    usage = NS(
        input_tokens=1, output_tokens=2, cache_creation_input_tokens=None, cache_read_input_tokens=3
    )
    message = NS(content=content, model="m", stop_reason="tool_use", usage=usage)
    reply = aw.reply(message)
    assert reply.usage.cache_read_tokens == 3
    turn = aw.message(assistant_message(reply))
    assert turn["content"][0] == thinking
    assert turn["content"][1] == {
        "type": "tool_use",
        "id": "toolu_9",
        "name": "read_file",
        "input": {"path": "x"},
    }


def test_openai_messages() -> None:
    history = (
        Message("user", "fix it"),
        Message("assistant", "", tool_calls=(CALL,)),
        Message("user", tool_results=(RESULT,)),
    )
    body = ow.body(Request("gpt-4.1", "sys", history, (TOOL,), "submit", max_tokens=9))
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "tool"]
    assert body["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"path": "a.py"}'
    assert body["tool_choice"] == {"type": "function", "function": {"name": "submit"}}
    assert body["max_tokens"] == 9


def test_openai_bad_tool_arguments_are_a_provider_error() -> None:
    data = {
        "model": "m",
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {"id": "c", "function": {"name": "submit", "arguments": "{not json"}}
                    ]
                },
                "finish_reason": "length",
            }
        ],
        "usage": {"prompt_tokens": 900, "completion_tokens": 4_096},
    }
    with pytest.raises(PaidError, match="not JSON") as raised:
        ow.reply(data)
    assert raised.value.usage.output_tokens == 4_096  # billed: the ledger records it


def test_an_empty_structured_answer_is_empty_not_broken() -> None:
    message = NS(
        content=[], model="m", stop_reason="end_turn", usage=NS(input_tokens=1, output_tokens=0)
    )
    assert aw.reply(message, structured="submit").tool_calls == ()


@pytest.mark.parametrize(
    ("model", "sent"), [("claude-haiku-4-5", True), ("claude-sonnet-5-5", False)]
)
def test_temperature_only_reaches_models_that_accept_it(model: str, sent: bool) -> None:
    params = aw.params(Request(model, "s", (Message("user", "x"),), temperature=0.3))
    assert ("temperature" in params) is sent


ANSWERS = tuple(
    ToolSpec(name, name, {"type": "object", "properties": {"x": {"type": "string"}}})
    for name in ("submit_review", "submit_revision", "submit_plan")
)


def shared(model: str, forced: str) -> dict[str, Any]:
    parts = (SystemPart("rules", cache=True), SystemPart("<document>RFD</document>", cache=True))
    req = Request(
        model, "rules\nRFD", (Message("user", "task"),), ANSWERS, forced, system_parts=parts
    )
    return aw.params(req)


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-sonnet-5-5"])
def test_the_answer_tools_send_the_same_prefix_whichever_step_forces_one(model: str) -> None:
    """Review, refine and accept force different tools; tools, schema and system stay equal."""
    review, plan = shared(model, "submit_review"), shared(model, "submit_plan")
    assert (
        review["system"]
        == plan["system"]
        == [
            {"type": "text", "text": "rules", "cache_control": {"type": "ephemeral"}},
            {
                "type": "text",
                "text": "<document>RFD</document>",
                "cache_control": {"type": "ephemeral"},
            },
        ]
    )
    assert (review.get("tools"), review.get("output_config")) == (
        plan.get("tools"),
        plan.get("output_config"),
    )
    if model.startswith("claude-haiku"):  # a forced tool: only tool_choice differs
        assert [t["name"] for t in review["tools"]] == [t.name for t in ANSWERS]
        assert (review["tool_choice"]["name"], plan["tool_choice"]["name"]) == (
            "submit_review",
            "submit_plan",
        )
    else:  # one schema for the three: a property per tool
        schema = review["output_config"]["format"]["schema"]
        assert list(schema["properties"]) == [t.name for t in ANSWERS] and "tools" not in review


def test_an_answer_to_the_shared_schema_is_the_forced_tools_property() -> None:
    def message(text: str) -> Any:
        usage = NS(input_tokens=1, output_tokens=1)
        return NS(
            content=[NS(type="text", text=text)], model="m", stop_reason="end_turn", usage=usage
        )

    got = aw.reply(
        message('{"submit_plan": {"phases": []}}'), structured="submit_plan", shared=True
    )
    assert [(c.name, c.arguments) for c in got.tool_calls] == [("submit_plan", {"phases": []})]
    other = aw.reply(message('{"submit_review": {}}'), structured="submit_plan", shared=True)
    assert other.tool_calls == ()  # the step then says the model did not answer its tool
