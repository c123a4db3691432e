"""Translate our records to and from OpenAI-compatible chat completions (pure).

``usage.prompt_tokens`` counts cached tokens too; :func:`usage` splits them out so
that ``input_tokens`` means *uncached* input for every provider, as with Anthropic.
"""

from __future__ import annotations

import json
from typing import Any

from bot.core.errors import ProviderError
from bot.llm.base import Message, PaidError, Reply, Request, ToolCall, Usage


def body(request: Request, *, limit_field: str = "max_tokens") -> dict[str, Any]:
    """The JSON body of ``POST {base_url}/chat/completions``.

    ``limit_field``: OpenAI itself wants ``max_completion_tokens`` (its reasoning models
    refuse ``max_tokens``); Gemini, Ollama, vLLM and OpenRouter all read ``max_tokens``.
    """
    out: dict[str, Any] = {
        "model": request.model,
        limit_field: request.max_tokens,
        "messages": _system(request.system) + [m for msg in request.messages for m in message(msg)],
    }
    if request.tools:
        out["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": dict(t.input_schema),
                },
            }
            for t in request.tools
        ]
    if request.tool_choice:
        out["tool_choice"] = {"type": "function", "function": {"name": request.tool_choice}}
    if request.temperature is not None:
        out["temperature"] = request.temperature
    return out


def _system(system: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": system}] if system else []


def message(msg: Message) -> list[dict[str, Any]]:
    """One of our messages as one or more chat messages (tool results are ``tool`` messages)."""
    out: list[dict[str, Any]] = [
        {"role": "tool", "tool_call_id": r.call_id, "content": r.content} for r in msg.tool_results
    ]
    if msg.role == "assistant":
        chat: dict[str, Any] = {"role": "assistant", "content": msg.text or None}
        if msg.tool_calls:
            chat["tool_calls"] = [_call(c) for c in msg.tool_calls]
        out.append(chat)
    elif msg.text or not msg.tool_results:
        out.append({"role": "user", "content": msg.text})
    return out


def _call(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": json.dumps(dict(call.arguments))},
    }


def reply(data: dict[str, Any]) -> Reply:
    """A :class:`Reply` from a ``chat.completion`` object."""
    try:
        choice = data["choices"][0]
        msg = choice["message"]
        calls = _calls(msg, data)
        return Reply(
            text=msg.get("content") or "",
            model=data.get("model", ""),
            stop_reason=choice.get("finish_reason") or "",
            usage=usage(data.get("usage") or {}),
            tool_calls=calls,
        )
    except (KeyError, IndexError, TypeError) as exc:
        raise ProviderError(f"unexpected chat completion shape: missing {exc}") from None


def _calls(msg: dict[str, Any], data: dict[str, Any]) -> tuple[ToolCall, ...]:
    """The message's tool calls; a call that is no JSON (cut off) was still billed."""
    try:
        return tuple(_tool_call(c) for c in msg.get("tool_calls") or ())
    except ProviderError as exc:
        billed = usage(data.get("usage") or {})
        raise PaidError(exc.message, usage=billed, model=data.get("model", "")) from None


def _tool_call(raw: dict[str, Any]) -> ToolCall:
    fn = raw["function"]
    try:
        args = json.loads(fn.get("arguments") or "{}")
    except json.JSONDecodeError as exc:
        raise ProviderError(
            f"tool call {fn['name']!r} has arguments that are not JSON: {exc}"
        ) from None
    return ToolCall(id=raw.get("id", ""), name=fn["name"], arguments=args)


def usage(raw: dict[str, Any]) -> Usage:
    prompt = int(raw.get("prompt_tokens") or 0)
    cached = int((raw.get("prompt_tokens_details") or {}).get("cached_tokens") or 0)
    return Usage(
        input_tokens=max(prompt - cached, 0),
        output_tokens=int(raw.get("completion_tokens") or 0),
        cache_read_tokens=cached,
    )


def error_detail(payload: Any) -> str:
    """The message of an error body (``{"error": {...}}``, or a list of them, as Gemini sends)."""
    if isinstance(payload, list) and payload:
        payload = payload[0]
    err = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(err, dict):
        kind = err.get("type") or err.get("status") or err.get("code")
        text = err.get("message") or ""
        return f"{kind}: {text}" if kind else text
    return str(err or payload)[:300]
