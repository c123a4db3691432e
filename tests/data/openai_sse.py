"""Hand-written chat-completions answers as Gemini's OpenAI endpoint sends them.

A ``chat.completion`` object, or, streamed (``"stream": true`` with
``stream_options.include_usage``), ``data: {chat.completion.chunk}`` lines and a final
``data: [DONE]``.  What the stream does on that endpoint, as reported against it
(googleapis/python-genai#2868, springfall2008/batpred#4904): every chunk repeats the
role; text arrives in pieces; each tool call arrives whole in one chunk, **without**
an ``index``; the last chunk carries ``finish_reason`` — ``"stop"`` even after tool
calls, where the non-streamed answer says ``"tool_calls"`` — and the ``usage``.
Used by ``cassettes/scenarios_openai.py`` and ``estimate_usage.py``.
"""

from __future__ import annotations

import json
from typing import Any

SSE_TYPE = "text/event-stream"
TEXT_CHUNK = 48


def _data(chunk: dict[str, Any]) -> str:
    return f"data: {json.dumps(chunk, separators=(',', ':'))}\n\n"


def _text_chunks(text: str) -> list[str]:
    """Pieces of about TEXT_CHUNK characters, cut after a space."""
    out, start = [], 0
    while start < len(text):
        end = text.find(" ", start + TEXT_CHUNK)
        end = len(text) if end == -1 else end + 1
        out.append(text[start:end])
        start = end
    return out


def chunks(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects that stream ``answer`` (a ``chat.completion``)."""
    head = {k: answer[k] for k in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"
    message = answer["choices"][0]["message"]
    deltas: list[dict[str, Any]] = [
        {"content": piece, "role": "assistant"}
        for piece in _text_chunks(message.get("content") or "")
    ]
    calls = [{k: c[k] for k in ("function", "id", "type")} for c in message.get("tool_calls") or ()]
    if calls:
        deltas.append({"role": "assistant", "tool_calls": calls})
    out = [{**head, "choices": [{"delta": d, "index": 0}]} for d in deltas]
    out[-1]["choices"][0]["finish_reason"] = "stop"
    out[-1]["usage"] = answer["usage"]
    return out


def sse(answer: dict[str, Any]) -> str:
    return "".join(_data(c) for c in chunks(answer)) + "data: [DONE]\n\n"


def parse_sse(body: str) -> list[dict[str, Any]]:
    """The chunks of a stream (``[DONE]`` left out)."""
    lines = (line[5:].strip() for line in body.splitlines() if line.startswith("data:"))
    return [json.loads(data) for data in lines if data != "[DONE]"]


def render(chunk_list: list[dict[str, Any]]) -> str:
    return "".join(_data(c) for c in chunk_list) + "data: [DONE]\n\n"


def folded(chunk_list: list[dict[str, Any]]) -> dict[str, Any]:
    """The message the chunks carry: ``content`` and ``tool_calls``."""
    text, calls = [], []
    for chunk in chunk_list:
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            text.append(delta.get("content") or "")
            calls += delta.get("tool_calls") or []
    return {"role": "assistant", "content": "".join(text) or None, "tool_calls": calls}
