"""Translate our records to and from the Anthropic Messages API (pure, no SDK import).

Prompt caching: the system prompt and up to three messages marked ``cache=True`` get
``cache_control={"type": "ephemeral"}`` on their last content block (the API allows
four breakpoints; when more messages are marked, the latest ones win).  Consecutive
messages of one role are sent as one turn of several blocks.

Structured output (``Request.tool_choice``): models in :data:`LEGACY_MODELS` get the
tool with a forced ``tool_choice`` and answer with a ``tool_use`` block.  Newer models
think by default or reject a forced tool (Sonnet 5.5 answers 400), so they get
``output_config.format`` with the tool's schema and answer JSON text, which
:func:`reply` turns into the same :class:`ToolCall`.  A request offering several answer
tools (the document steps' shared list) gets one schema for all of them — an object with
one optional property per tool — so its bytes, and the cached prefix, are the same
whichever tool the step asks for; the answer is the property the step named.
Newer models also answer 400 to sampling parameters, so ``Request.temperature`` only
reaches legacy models.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.core.errors import ProviderError
from bot.llm.base import Message, PaidError, Reply, Request, ToolCall, Usage

_T = TypeVar("_T")

EPHEMERAL: Mapping[str, str] = {"type": "ephemeral"}
MAX_BREAKPOINTS = 4
LEGACY_MODELS = (
    "claude-3",
    "claude-haiku-4-5",
    "claude-sonnet-4",  # 4, 4-5, 4-6
    "claude-opus-4-0",
    "claude-opus-4-1",
    "claude-opus-4-2025",
    "claude-opus-4-5",
    "claude-opus-4-6",
)
"""Model id prefixes with thinking off by default, which accept a forced ``tool_choice``
and ``temperature``; every other model gets ``output_config.format`` instead."""
STRUCTURED_ID = "structured_output"
"""Id of the ToolCall made from an ``output_config.format`` answer (the API gives none)."""


def legacy(model: str) -> bool:
    return model.startswith(LEGACY_MODELS)


def params(request: Request) -> dict[str, Any]:
    """Keyword arguments of ``client.messages.create`` / ``.stream`` for ``request``."""
    out: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": messages(request.messages, _system_breakpoints(request)),
    }
    if request.system_parts:
        out["system"] = [_text_block(p.text, cache=p.cache) for p in request.system_parts]
    elif request.system:
        out["system"] = system_blocks(request.system, cache=request.cache_system)
    forced, schema = request.tool_choice, structured_schema(request)
    tools = [t for t in request.tools if schema is None or not _answered(request, t.name)]
    if tools:
        out["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": dict(t.input_schema)}
            for t in tools
        ]
    if schema is not None:
        out["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
    elif forced:
        out["tool_choice"] = {"type": "tool", "name": forced}
    if request.temperature is not None and legacy(request.model):
        out["temperature"] = request.temperature
    return out


def structured_schema(request: Request) -> dict[str, Any] | None:
    """The schema to send as ``output_config.format``, or None (no structured output / tool)."""
    if not request.tool_choice or legacy(request.model):
        return None
    if shared_answer(request):
        props = {t.name: dict(t.input_schema) for t in request.tools}
        return {"type": "object", "additionalProperties": False, "properties": props}
    for tool in request.tools:
        if tool.name == request.tool_choice:
            return dict(tool.input_schema)
    raise ProviderError(f"tool_choice names {request.tool_choice!r}, which is not in tools")


def shared_answer(request: Request) -> bool:
    """Does the request offer several answer tools (one schema for all, see above)?"""
    return bool(request.tool_choice) and len(request.tools) > 1


def _answered(request: Request, name: str) -> bool:
    """Is tool ``name`` answered through ``output_config`` rather than offered as a tool?"""
    return shared_answer(request) or name == request.tool_choice


def system_blocks(system: str, *, cache: bool) -> list[dict[str, Any]]:
    return [_text_block(system, cache=cache)]


def _text_block(text: str, *, cache: bool) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if cache:
        block["cache_control"] = dict(EPHEMERAL)
    return block


def _system_breakpoints(request: Request) -> int:
    if request.system_parts:
        return sum(p.cache for p in request.system_parts)
    return 1 if request.system and request.cache_system else 0


def messages(history: tuple[Message, ...], system_breakpoints: int) -> list[dict[str, Any]]:
    """API messages; consecutive messages of one role become one turn of several blocks."""
    budget = MAX_BREAKPOINTS - system_breakpoints
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
    blocks = [dict(b) for b in msg.blocks] or _blocks(msg)
    if cache and blocks:
        blocks[-1]["cache_control"] = dict(EPHEMERAL)
    return {"role": msg.role, "content": blocks}


def _blocks(msg: Message) -> list[dict[str, Any]]:
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
    return blocks


def reply(message: Any, *, structured: str | None = None, shared: bool = False) -> Reply:
    """A :class:`Reply` from an SDK ``Message``; ``structured``: the tool its JSON text answers
    (``shared``: the text answers the shared schema, the tool's arguments are its property)."""
    text = "".join(b.text for b in message.content if b.type == "text")
    calls = tuple(
        ToolCall(id=b.id, name=b.name, arguments=dict(b.input))
        for b in message.content
        if b.type == "tool_use"
    )
    if structured and text.strip():  # an empty answer stays empty: the caller retries it
        data: Any = _paid(lambda: _json(text, message.stop_reason), message)
        data = data.get(structured) if shared else data
        calls += (ToolCall(STRUCTURED_ID, structured, data),) if isinstance(data, dict) else ()
    return Reply(
        text=text,
        model=message.model,
        stop_reason=message.stop_reason or "",
        usage=usage(message.usage),
        tool_calls=calls,
        blocks=_echo(message.content),
    )


def _paid(parse: Callable[[], _T], message: Any) -> _T:
    """``parse()``; its ProviderError carries the billed usage (:class:`PaidError`)."""
    try:
        return parse()
    except ProviderError as exc:
        billed = usage(message.usage)
        raise PaidError(exc.message, usage=billed, model=message.model, hint=exc.hint) from None


def _json(text: str, stop_reason: str | None) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        raise ProviderError(
            f"the model's structured answer is not a JSON object (stop reason {stop_reason})",
            hint="raise steps.<step>.max_tokens if it was cut off, or retry",
        )
    return data


_THINKING = ("thinking", "redacted_thinking")


def _echo(content: Any) -> tuple[Mapping[str, Any], ...]:
    """The content to send back in a tool loop; only needed when it holds thinking blocks."""
    if not any(b.type in _THINKING for b in content):
        return ()
    return tuple(_echo_block(b) for b in content)


def _echo_block(b: Any) -> dict[str, Any]:
    if b.type == "tool_use":
        return {"type": "tool_use", "id": b.id, "name": b.name, "input": dict(b.input)}
    if b.type == "text":
        return {"type": "text", "text": b.text}
    return dict(b.model_dump(exclude_none=True))  # thinking blocks: verbatim, signature included


def usage(u: Any) -> Usage:
    return Usage(
        input_tokens=u.input_tokens or 0,
        output_tokens=u.output_tokens or 0,
        cache_write_tokens=getattr(u, "cache_creation_input_tokens", None) or 0,
        cache_read_tokens=getattr(u, "cache_read_input_tokens", None) or 0,
    )
