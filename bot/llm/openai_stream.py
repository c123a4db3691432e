"""Server-sent chat-completion chunks, folded back into one ``chat.completion`` (pure).

With ``"stream": true`` and ``"stream_options": {"include_usage": true}`` the server
sends ``data: {chunk}`` lines, then ``data: [DONE]``: text arrives in
``choices[0].delta.content``, tool calls in pieces keyed by ``index`` (the id and
name first, the JSON arguments split across chunks), and the usage in a last chunk
whose ``choices`` is empty.  Gemini's endpoint sends each tool call whole, without an
``index``: a piece without one that names a function starts a new call.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from bot.core.errors import ProviderError

DONE = "[DONE]"


def events(lines: Iterable[str]) -> Iterable[dict[str, Any]]:
    """The JSON chunks of an SSE body (comments, blank lines and ``[DONE]`` skipped)."""
    for line in lines:
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == DONE:
            return
        try:
            yield json.loads(data)
        except json.JSONDecodeError as exc:
            raise ProviderError(f"unreadable stream chunk: {exc}") from None


def fold(chunks: Iterable[dict[str, Any]], on_text: Callable[[str], None]) -> dict[str, Any]:
    """One ``chat.completion``-shaped dict from the chunks; text goes to ``on_text`` as it comes."""
    out: dict[str, Any] = {"model": "", "usage": None}
    text: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    finish = None
    for chunk in chunks:
        out["model"] = chunk.get("model") or out["model"]
        out["usage"] = chunk.get("usage") or out["usage"]
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            if delta.get("content"):
                on_text(delta["content"])
                text.append(delta["content"])
            for piece in delta.get("tool_calls") or ():
                _add_piece(calls, piece)
            finish = choice.get("finish_reason") or finish
    message: dict[str, Any] = {"role": "assistant", "content": "".join(text) or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    out["choices"] = [{"index": 0, "message": message, "finish_reason": finish}]
    return out


def _add_piece(calls: dict[int, dict[str, Any]], piece: dict[str, Any]) -> None:
    call = calls.setdefault(
        _slot(calls, piece),
        {"id": "", "type": "function", "function": {"name": "", "arguments": ""}},
    )
    call["id"] = piece.get("id") or call["id"]
    fn = piece.get("function") or {}
    call["function"]["name"] += fn.get("name") or ""
    call["function"]["arguments"] += fn.get("arguments") or ""


def _slot(calls: dict[int, dict[str, Any]], piece: dict[str, Any]) -> int:
    """The call ``piece`` belongs to: its ``index``, else a new call when it names one."""
    if "index" in piece:
        return int(piece["index"])
    if not calls or (piece.get("function") or {}).get("name"):
        return max(calls, default=-1) + 1
    return max(calls)
