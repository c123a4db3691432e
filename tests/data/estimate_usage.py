"""Fill the ``usage`` of hand-written Anthropic answers from the requests recorded beside them.

Used for the AI-step cassettes (``cassettes/test_ai_review/``): after
``rerecord.py`` has recorded the real requests, run::

    python tests/data/estimate_usage.py cassettes/test_ai_review/*.yaml

Chat-completions answers (``object: chat.completion``, or a stream of
``chat.completion.chunk`` lines whose last chunk carries the usage) get ``prompt_tokens``
from the same estimate over their request's tools and messages.  OpenAI and Gemini
cache implicitly: ``prompt_tokens_details.cached_tokens`` is the longest prefix (tools,
then whole messages) an earlier request of the same cassette sent, from
:data:`MIN_IMPLICIT` tokens on.
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
import openai_sse
from anthropic_sse import parse_sse, sse

THINKING_TOKENS = 320
"""Adaptive thinking with display omitted: billed as output, never shown."""
MIN_CACHEABLE = 512
MIN_IMPLICIT = {"gemini-2.5-pro": 2048}
"""The smallest prefix a model caches implicitly where it is not 1024 tokens."""


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


def chat_segments(request: dict[str, Any]) -> list[tuple[str, int]]:
    """(identity, tokens) of the tools and of each message, in prompt order."""
    tools = request.get("tools")
    out = [(json.dumps(tools, sort_keys=True), tokens(json.dumps(tools)) if tools else 0)]
    for m in request["messages"]:
        calls = json.dumps(m.get("tool_calls")) if m.get("tool_calls") else ""
        out.append((json.dumps(m, sort_keys=True), tokens((m["content"] or "") + calls) + 3))
    return out


def cached_prefix(
    segments: list[tuple[str, int]], seen: list[list[tuple[str, int]]], model: str
) -> int:
    """Tokens of the longest prefix an earlier request sent (0 under the model's minimum)."""
    best = 0
    for earlier in seen:
        total = 0
        for mine, theirs in zip(segments, earlier, strict=False):
            if mine[0] != theirs[0]:
                break
            total += mine[1]
        best = max(best, total)
    return best if best >= MIN_IMPLICIT.get(model, 1024) else 0


def chat_usage(
    request: dict[str, Any],
    message: dict[str, Any],
    usage: dict[str, Any],
    seen: list[list[tuple[str, int]]],
) -> None:
    """Fill ``usage`` of the answer ``message`` to ``request`` (chat completions)."""
    segments = chat_segments(request)
    prompt = sum(n for _, n in segments)
    cached = cached_prefix(segments, seen, request["model"])
    seen.append(segments)
    calls = message.get("tool_calls") or []
    completion = tokens(message.get("content") or "")
    completion += sum(tokens(c["function"]["arguments"]) for c in calls)
    usage.update(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion
    )
    if cached or "prompt_tokens_details" in usage:
        usage["prompt_tokens_details"] = {
            **usage.get("prompt_tokens_details", {}),
            "cached_tokens": cached,
        }


def fix_chat(response: dict[str, Any], request: dict[str, Any], seen: Any) -> str:
    """Rewrite one chat-completions answer with its estimated usage; a line to print."""
    body = response["body"]["string"]
    if body.startswith("data:"):
        chunks = openai_sse.parse_sse(body)
        last = next(c for c in reversed(chunks) if c.get("usage"))
        chat_usage(request, openai_sse.folded(chunks), last["usage"], seen)
        usage, body = last["usage"], openai_sse.render(chunks)
    else:
        answer = json.loads(body)
        chat_usage(request, answer["choices"][0]["message"], answer["usage"], seen)
        usage, body = answer["usage"], json.dumps(answer, separators=(",", ":"))
    response["body"]["string"] = body
    if "content-length" in response["headers"]:
        response["headers"]["content-length"] = [str(len(body.encode()))]
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0)
    return f"{usage['prompt_tokens']} prompt tokens, {cached} cached"


def fix(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cache: dict[str, int] = {}
    seen: list[list[tuple[str, int]]] = []
    for item in data["interactions"]:
        response = item["response"]
        if "chat/completions" in item["request"]["uri"]:
            if response["status"]["code"] != 200:
                continue  # an error body has no usage
            request = json.loads(item["request"]["body"])
            print(f"{path.name}: {fix_chat(response, request, seen)}")
            continue
        streamed = "event-stream" in "".join(response["headers"].get("content-type", []))
        body = response["body"]["string"]
        answer = parse_sse(body) if streamed else json.loads(body)
        request = json.loads(item["request"]["body"])
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
