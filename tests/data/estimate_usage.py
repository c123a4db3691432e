"""Fill the ``usage`` of hand-written Anthropic answers from the requests recorded beside them.

Used for the AI-step cassettes (``cassettes/test_ai_review/``): after
``rerecord.py`` has recorded the real requests, run::

    python tests/data/estimate_usage.py cassettes/test_ai_review/*.yaml

Chat-completions answers (``object: chat.completion``) get ``prompt_tokens`` from the same
estimate over their request's tools and messages, and no cached tokens (each such
cassette holds one call, and OpenAI caches automatically only a repeated prefix).
Streamed answers (``text/event-stream``) are read back into the message they carry and
rendered again with the new usage in ``message_start`` and ``message_delta``.

Tokens are estimated at four characters each (plus a few per block).  Prompt caching
is simulated the way the API does it: every ``cache_control`` breakpoint caches the
prefix up to it (tools and output format, system, message blocks); a later request
of the same cassette with the same prefix reads it from the cache.  ``tool_choice``
sits between system and messages: changing it invalidates the cached messages only.  Answers with a
``thinking`` block also pay :data:`THINKING_TOKENS` of output.  Only for maintainers.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anthropic_sse import parse_sse, sse

THINKING_TOKENS = 320
"""Adaptive thinking with display omitted: billed as output, never shown."""
MIN_CACHEABLE = 512


def tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def segments(body: dict[str, Any]) -> Iterator[tuple[str, int, bool]]:
    """(identity, tokens, is a breakpoint) of each prompt piece, in cache-prefix order."""
    head = [body.get("tools"), body.get("output_config")]
    yield json.dumps(head, sort_keys=True), tokens(json.dumps(head)) if any(head) else 0, False
    for block in body.get("system", []):
        yield _identity("system", block), tokens(block["text"]), "cache_control" in block
    choice = body.get("tool_choice")  # changing it invalidates the cached messages only
    yield json.dumps(choice, sort_keys=True), tokens(json.dumps(choice)) if choice else 0, False
    for message in body["messages"]:
        for block in message["content"]:
            text = block.get("text") or json.dumps(block.get("input") or block.get("content"))
            yield _identity(message["role"], block), tokens(text) + 3, "cache_control" in block


def _identity(role: str, block: dict[str, Any]) -> str:
    return role + json.dumps({k: v for k, v in block.items() if k != "cache_control"})


def prompt_usage(body: dict[str, Any], cache: dict[str, int]) -> tuple[int, int, int]:
    """(uncached input, cache write, cache read) of one request; ``cache`` is updated."""
    digest, total, read, written = hashlib.sha256(), 0, 0, 0
    prefixes: list[tuple[str, int]] = []
    for identity, count, breakpoint in segments(body):
        digest.update(identity.encode())
        total += count
        if breakpoint:
            prefixes.append((digest.hexdigest(), total))
    if prefixes and prefixes[-1][1] >= MIN_CACHEABLE:
        read = max((cache.get(key, 0) for key, _ in prefixes), default=0)
        written = prefixes[-1][1] - read
        cache.update(prefixes)
    return total - read - written, written, read


def output_tokens(answer: dict[str, Any]) -> int:
    count = 0
    for block in answer["content"]:
        count += tokens(
            block.get("text") or json.dumps(block.get("input", ""), separators=(",", ":"))
        )
        count += THINKING_TOKENS if block["type"] == "thinking" else 0
    return count


def chat_usage(request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with the usage estimated from ``request`` (chat completions)."""
    prompt = tokens(json.dumps(request.get("tools") or "")) if request.get("tools") else 0
    prompt += sum(tokens(m["content"] or "") + 3 for m in request["messages"])
    message = answer["choices"][0]["message"]
    calls = message.get("tool_calls") or []
    completion = tokens(message.get("content") or "")
    completion += sum(tokens(c["function"]["arguments"]) for c in calls)
    answer["usage"].update(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion
    )
    return answer


def fix(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cache: dict[str, int] = {}
    for item in data["interactions"]:
        response = item["response"]
        streamed = "event-stream" in "".join(response["headers"].get("content-type", []))
        body = response["body"]["string"]
        answer = parse_sse(body) if streamed else json.loads(body)
        request = json.loads(item["request"]["body"])
        if answer.get("object") == "chat.completion":
            body = json.dumps(chat_usage(request, answer), separators=(",", ":"))
            response["body"]["string"] = body
            response["headers"]["content-length"] = [str(len(body.encode()))]
            print(f"{path.name}: {answer['usage']['prompt_tokens']} prompt tokens")
            continue
        fresh, write, read = prompt_usage(request, cache)
        if answer.get("type") != "message":
            continue
        answer["usage"].update(
            input_tokens=fresh,
            cache_creation_input_tokens=write,
            cache_read_input_tokens=read,
            output_tokens=output_tokens(answer),
            cache_creation={"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0},
        )
        body = sse(answer) if streamed else json.dumps(answer, separators=(",", ":"))
        response["body"]["string"] = body
        if "content-length" in response["headers"]:
            response["headers"]["content-length"] = [str(len(body.encode()))]
        print(f"{path.name}: {fresh} in, {write} cache write, {read} cache read")
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000))


if __name__ == "__main__":
    for name in sys.argv[1:]:
        fix(Path(name))
