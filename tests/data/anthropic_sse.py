"""Hand-written Anthropic answers as the API sends them: JSON, or a Messages SSE stream.

The stream follows the recorded real streams the ``anthropic`` sdist ships
(``tests/lib/streaming/fixtures/tool_use_response.txt``): ``message_start`` with an
empty ``content`` and the prompt's usage (cache fields included, ``output_tokens: 1``),
one ``ping`` after the first ``content_block_start``, then per block
``content_block_start`` → deltas (``text_delta`` / ``input_json_delta`` starting with an
empty ``partial_json`` / ``signature_delta``) → ``content_block_stop``, and finally
``message_delta`` (``stop_reason``, cumulative usage) and ``message_stop``.  Chunking is
deterministic so a rebuilt cassette only changes where its content does.
Used by ``scenarios_llm.py`` and ``estimate_usage.py``, and by the cost benchmark to read
streamed answers back; the tests replay the streams through the real SDK.
"""

from __future__ import annotations

import json
from typing import Any

SSE_TYPE = "text/event-stream; charset=utf-8"
TEXT_CHUNK = 48
JSON_CHUNK = 24


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _text_chunks(text: str) -> list[str]:
    """Pieces of about TEXT_CHUNK characters, cut after a space (as tokens arrive)."""
    out, start = [], 0
    while start < len(text):
        end = text.find(" ", start + TEXT_CHUNK)
        end = len(text) if end == -1 else end + 1
        out.append(text[start:end])
        start = end
    return out


def _block_events(index: int, block: dict[str, Any]) -> list[str]:
    kind = block["type"]
    if kind == "text":
        start: dict[str, Any] = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": t} for t in _text_chunks(block["text"])]
    elif kind == "tool_use":
        start = {**block, "input": {}, "caller": {"type": "direct"}}
        raw = json.dumps(block["input"], separators=(",", ":"), ensure_ascii=False)
        pieces = [""] + [raw[i : i + JSON_CHUNK] for i in range(0, len(raw), JSON_CHUNK)]
        deltas = [{"type": "input_json_delta", "partial_json": p} for p in pieces]
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "signature_delta", "signature": block["signature"]}]
    else:
        raise ValueError(f"no stream form for a {kind} block")
    head = [
        _event(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
    ]
    if index == 0:
        head.append('event: ping\ndata: {"type": "ping"}\n\n')
    body = [
        _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
        for d in deltas
    ]
    return (
        head + body + [_event("content_block_stop", {"type": "content_block_stop", "index": index})]
    )


def sse(message: dict[str, Any]) -> str:
    """The stream of events the API sends for ``message`` (a full Messages API answer)."""
    usage = dict(message["usage"])
    start = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {**usage, "output_tokens": 1},
    }
    out = [_event("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        out += _block_events(index, block)
    final = {
        k: usage[k]
        for k in (
            "input_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
            "output_tokens",
        )
    }
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    out.append(_event("message_delta", {"type": "message_delta", "delta": delta, "usage": final}))
    out.append(_event("message_stop", {"type": "message_stop"}))
    return "".join(out)


def parse_sse(text: str) -> dict[str, Any]:
    """The message a stream from :func:`sse` carries (what ``get_final_message`` builds)."""
    message: dict[str, Any] = {}
    partial: dict[int, str] = {}
    for chunk in text.strip().split("\n\n"):
        data = json.loads(chunk.split("data: ", 1)[1])
        kind = data["type"]
        if kind == "message_start":
            message = data["message"]
        elif kind == "content_block_start":
            block = dict(data["content_block"])
            block.pop("caller", None)
            message["content"].append(block)
        elif kind == "content_block_delta":
            block, delta = message["content"][data["index"]], data["delta"]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            elif delta["type"] == "input_json_delta":
                partial[data["index"]] = partial.get(data["index"], "") + delta["partial_json"]
            elif delta["type"] == "signature_delta":
                block["signature"] = delta["signature"]
        elif kind == "content_block_stop" and data["index"] in partial:
            message["content"][data["index"]]["input"] = json.loads(partial[data["index"]])
        elif kind == "message_delta":
            message.update(data["delta"])
            message["usage"] = {**message["usage"], **data["usage"]}
    return message
