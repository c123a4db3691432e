"""Translate our records to and from the Anthropic Messages API (pure, no SDK import).

Prompt caching: the system prompt and up to :data:`MAX_MESSAGE_BREAKPOINTS` messages
marked ``cache=True`` get ``cache_control={"type": "ephemeral"}`` on their last
content block.  The API allows four breakpoints per request; when more messages
are marked, the latest ones win (they cover the longest stable prefix).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.llm.base import Message, Reply, Request, ToolCall, Usage

EPHEMERAL: Mapping[str, str] = {"type": "ephemeral"}
MAX_BREAKPOINTS = 4
MAX_MESSAGE_BREAKPOINTS = MAX_BREAKPOINTS - 1
"""One breakpoint is kept for the system prompt."""


def params(request: Request) -> dict[str, Any]:
    """Keyword arguments of ``client.messages.create`` / ``.stream`` for ``request``."""
    out: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": messages(request.messages, request.cache_system),
    }
    if request.system:
        out["system"] = system_blocks(request.system, cache=request.cache_system)
    if request.tools:
        out["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": dict(t.input_schema)}
            for t in request.tools
        ]
    if request.tool_choice:
        out["tool_choice"] = {"type": "tool", "name": request.tool_choice}
    if request.temperature is not None:
        out["temperature"] = request.temperature
    return out


def system_blocks(system: str, *, cache: bool) -> list[dict[str, Any]]:
    block: dict[str, Any] = {"type": "text", "text": system}
    if cache:
        block["cache_control"] = dict(EPHEMERAL)
    return [block]


def messages(history: tuple[Message, ...], system_cached: bool) -> list[dict[str, Any]]:
    """API messages; consecutive messages of one role become one turn of several blocks."""
    budget = MAX_BREAKPOINTS - (1 if system_cached else 0)
    marked = [i for i, m in enumerate(history) if m.cache][-budget:] if budget else []
    out: list[dict[str, Any]] = []
    for i, m in enumerate(history):
        turn = message(m, cache=i in marked)
        if out and out[-1]["role"] == turn["role"]:
            out[-1]["content"].extend(turn["content"])
        else:
            out.append(turn)
    return out


def message(msg: Message, *, cache: bool = False) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = [
        {
            "type": "tool_result",
            "tool_use_id": r.call_id,
            "content": r.content,
            **({"is_error": True} if r.is_error else {}),
        }
        for r in msg.tool_results
    ]
    if msg.text:
        blocks.append({"type": "text", "text": msg.text})
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": dict(c.arguments)}
        for c in msg.tool_calls
    ]
    if cache and blocks:
        blocks[-1]["cache_control"] = dict(EPHEMERAL)
    return {"role": msg.role, "content": blocks}


def reply(message: Any) -> Reply:
    """A :class:`Reply` from an SDK ``Message`` (duck-typed: only attributes are read)."""
    text = "".join(b.text for b in message.content if b.type == "text")
    calls = tuple(
        ToolCall(id=b.id, name=b.name, arguments=dict(b.input))
        for b in message.content
        if b.type == "tool_use"
    )
    return Reply(
        text=text,
        model=message.model,
        stop_reason=message.stop_reason or "",
        usage=usage(message.usage),
        tool_calls=calls,
    )


def usage(u: Any) -> Usage:
    return Usage(
        input_tokens=u.input_tokens or 0,
        output_tokens=u.output_tokens or 0,
        cache_write_tokens=getattr(u, "cache_creation_input_tokens", None) or 0,
        cache_read_tokens=getattr(u, "cache_read_input_tokens", None) or 0,
    )
