"""Tokens and cost per lifecycle step, read from the recorded LLM exchanges.

Run with ``.ci/bench`` (or ``pytest tests/bench -s``).  Every Messages API / chat
completion answer under ``cassettes/`` is attributed to a step by the first words of
its step template (``bot/prompts/``): in the task message for staged steps (review,
refine and plan extraction, which share one system prompt; implement's research and
plan), else in the system prompt; and priced with ``bot/llm/prices.toml``.  The second
design review of the example RFD shows how much of the prompt the cache serves (target:
at least 80%), and review → refine → accept on one model how much of the shared prefix
the later steps read from the cache.
"""

from __future__ import annotations

import json
from collections import defaultdict
from itertools import takewhile
from pathlib import Path
from typing import Any

import yaml

from bot.llm.base import Usage
from bot.llm.pricing import cost
from bot.llm.usage import Entry, cache_read_share, format_entry
from tests.data import openai_sse
from tests.data.anthropic_sse import parse_sse

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"
SECOND_REVIEW = CASSETTES / "test_ai_review/test_second_review_reads_the_prefix_from_the_cache.yaml"
SHARED_CHAIN = (
    CASSETTES / "test_shared_prefix/test_review_refine_accept_on_one_model_share_the_prefix.yaml"
)
TARGET_SHARE = 0.80
OPENINGS = {
    "Review RFD": "review",
    "You review the implementation": "review (implementation)",
    "Apply the": "refine (pass 1)",
    "Revise RFD": "refine (passes 2-5)",
    "Extract the implementation plan": "accept (model plan)",
    "You research a problem": "explore",
    "You help a contributor make the design decisions": "converge",
    "You draft a design document": "draft",
    "You prepare the implementation": "implement (research)",
    "You plan the implementation": "implement (plan)",
    "You implement one item": "implement (item)",
    "You write the summary of one implemented phase": "implement (summary)",
}


def exchanges() -> list[tuple[str, str, Usage]]:
    """(step, model, usage) of every successful model answer in the cassettes."""
    out = []
    for path in sorted(CASSETTES.glob("*/*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")).get("interactions", []):
            found = _exchange(item)
            if found:
                out.append(found)
    return out


def _exchange(item: dict[str, Any]) -> tuple[str, str, Usage] | None:
    try:
        request = json.loads(item["request"]["body"])
        body = item["response"]["body"]["string"]
        answer = _answer(body)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None
    if not isinstance(request, dict) or not isinstance(answer, dict):
        return None  # GitHub's label calls and the like: not a model exchange
    step = _step(request)
    if step is None or "usage" not in answer:
        return None
    return step, answer["model"], _usage(answer["usage"])


def _answer(body: str) -> Any:
    """The answer's JSON; of a streamed chat completion, its last chunk (model and usage)."""
    if body.startswith("event: "):
        return parse_sse(body)
    if body.startswith("data: "):
        return next((c for c in reversed(openai_sse.parse_sse(body)) if c.get("usage")), {})
    return json.loads(body)


def _step(request: dict[str, Any]) -> str | None:
    """The step whose template opens the task (staged prompts) or else the system prompt."""
    system = request.get("system") or next(
        (m["content"] for m in request.get("messages", []) if m.get("role") == "system"), ""
    )
    text = system if isinstance(system, str) else "".join(b.get("text", "") for b in system)
    for candidate in (_task(request), text):
        found = [step for opening, step in OPENINGS.items() if candidate.startswith(opening)]
        if found:
            return found[0]
    return None


def _task(request: dict[str, Any]) -> str:
    """The last text block of the first user turn: where a staged step's instructions are."""
    messages = request.get("messages", [])
    first = next((m for m in messages if m.get("role") == "user"), None)
    content = first["content"] if first else ""
    if isinstance(content, str):  # chat completions: one user message per block
        lead = takewhile(lambda m: m.get("role") in ("system", "user"), messages)
        texts = [m["content"] for m in lead if m["role"] == "user"]
        return texts[-1] if texts else ""
    texts = [b.get("text", "") for b in content if b.get("type") == "text"]
    return texts[-1] if texts else ""


def _usage(raw: dict[str, Any]) -> Usage:
    if "prompt_tokens" in raw:  # chat completions
        cached = (raw.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
        return Usage(raw["prompt_tokens"] - cached, raw["completion_tokens"], 0, cached)
    return Usage(
        raw["input_tokens"],
        raw["output_tokens"],
        raw.get("cache_creation_input_tokens") or 0,
        raw.get("cache_read_input_tokens") or 0,
    )


def test_report_tokens_and_cost_per_step() -> None:
    totals: dict[tuple[str, str], list[Usage]] = defaultdict(list)
    for step, model, usage in exchanges():
        totals[(step, model)].append(usage)
    assert totals, "no recorded model answers under cassettes/"
    print("\nper step (all recorded calls, averaged per call):")
    for (step, model), usages in sorted(totals.items()):
        n = len(usages)
        mean = Usage(*(sum(getattr(u, f) for u in usages) // n for f in Usage.__dataclass_fields__))
        print(f"  {n:>2} × {format_entry(Entry(step, model, mean, cost(model, mean)))}")


def test_report_cache_share_of_a_second_review() -> None:
    data = yaml.safe_load(SECOND_REVIEW.read_text(encoding="utf-8"))
    first, second = (_exchange(i) for i in data["interactions"])
    assert first is not None and second is not None
    _, model, usage = second
    share = cache_read_share(usage)
    prompt = Usage(usage.input_tokens, 0, usage.cache_write_tokens, usage.cache_read_tokens)
    saved = 1 - (cost(model, prompt) or 0) / (cost(model, _uncached(prompt)) or 1)
    fresh = usage.input_tokens + usage.cache_write_tokens
    verdict = "met" if share >= TARGET_SHARE else "NOT met"
    print(f"\nfirst review:  {_line(first)}\nsecond review: {_line(second)}")
    print(f"cache-read share of the second review's prompt: {share:.1%} ", end="")
    print(f"(target {TARGET_SHARE:.0%}: {verdict}); prompt cost {saved:.0%} below uncached")
    print(
        f"  new in it: {fresh:,} tokens (the first review's findings and questions, the task);",
        end="",
    )
    print(f" the share is {TARGET_SHARE:.0%} or more while system prompt + RFD hold", end="")
    print(f" {4 * fresh:,} tokens or more")
    assert share > 0.5  # the cache is used at all; the target is reported, not enforced


def test_report_review_refine_accept_on_one_model() -> None:
    data = yaml.safe_load(SHARED_CHAIN.read_text(encoding="utf-8"))
    chain = [e for e in map(_exchange, data["interactions"]) if e]
    assert [step for step, _, _ in chain] == [
        "review",
        "refine (pass 1)",
        "refine (passes 2-5)",
        "accept (model plan)",
    ]
    print('\nreview → refine → accept on one model (steps.refine.model = "sonnet"):')
    for exchange in chain:
        usage = exchange[2]
        print(f"  {_line(exchange)} · {cache_read_share(usage):.0%} of the prompt from the cache")
    review, refine, _, accept = (u for _, _, u in chain)
    assert refine.cache_read_tokens == review.cache_write_tokens  # the whole shared prefix
    assert accept.cache_write_tokens == 0 and accept.cache_read_tokens > 0


def _line(exchange: tuple[str, str, Usage]) -> str:
    step, model, usage = exchange
    return format_entry(Entry(step, model, usage, cost(model, usage)))


def _uncached(u: Usage) -> Usage:
    return Usage(u.input_tokens + u.cache_write_tokens + u.cache_read_tokens, u.output_tokens)
