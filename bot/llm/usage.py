"""The usage ledger: one JSON line per model call in the RFD's ``usage.jsonl``.

Writing goes through the state module (``StateStore.append_line(rfd_id,
LEDGER, line)``); this module only builds and reads lines, so it takes the
append function as a parameter.  Costs come from :mod:`bot.llm.pricing`;
an unpriced model is recorded with ``cost_usd: null`` and shown as ``$?``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.llm.base import Usage

LEDGER = "usage.jsonl"
SEP = " · "


@dataclass(frozen=True)
class Entry:
    """One model call (or one step's total, in :func:`summarize`)."""

    step: str
    model: str
    usage: Usage
    cost_usd: float | None
    at: float = 0.0
    """Unix time of the call."""

    def to_line(self) -> str:
        u = self.usage
        return json.dumps(
            {
                "at": self.at,
                "step": self.step,
                "model": self.model,
                "input_tokens": u.input_tokens,
                "output_tokens": u.output_tokens,
                "cache_write_tokens": u.cache_write_tokens,
                "cache_read_tokens": u.cache_read_tokens,
                "cost_usd": None if self.cost_usd is None else round(self.cost_usd, 6),
            },
            sort_keys=True,
        )


def entry(step: str, model: str, usage: Usage, *, at: float) -> Entry:
    """An entry priced from the price table."""
    from bot.llm.pricing import cost

    return Entry(step=step, model=model, usage=usage, cost_usd=cost(model, usage), at=at)


def record(append: Callable[[str], object], item: Entry) -> Entry:
    """Append ``item`` to the ledger through ``append`` and return it (to show it)."""
    append(item.to_line())
    return item


def parse_line(line: str) -> Entry | None:
    """An entry from one ledger line; None for blank or hand-mangled lines."""
    try:
        d = json.loads(line)
        usage = Usage(
            int(d.get("input_tokens", 0)),
            int(d.get("output_tokens", 0)),
            int(d.get("cache_write_tokens", 0)),
            int(d.get("cache_read_tokens", 0)),
        )
        cost = d.get("cost_usd")
        return Entry(
            step=str(d["step"]),
            model=str(d.get("model", "")),
            usage=usage,
            cost_usd=None if cost is None else float(cost),
            at=float(d.get("at", 0.0)),
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def summarize(lines: Iterable[str]) -> dict[str, Entry]:
    """Totals per step, in the order steps first appear; ``model`` is the last one used."""
    totals: dict[str, Entry] = {}
    for item in filter(None, map(parse_line, lines)):
        prev = totals.get(item.step)
        if prev is None:
            totals[item.step] = item
            continue
        cost = _add(prev.cost_usd, item.cost_usd)
        totals[item.step] = Entry(item.step, item.model, prev.usage + item.usage, cost, item.at)
    return totals


def _add(a: float | None, b: float | None) -> float | None:
    """Sum of two costs; unknown (None) when either is unknown."""
    return None if a is None or b is None else a + b


def format_entry(item: Entry) -> str:
    """``review · claude-sonnet-4-5 · 2,431 in (1,980 cached) · 512 out · $0.0123``."""
    u = item.usage
    prompt = u.input_tokens + u.cache_write_tokens + u.cache_read_tokens
    notes = [f"{u.cache_read_tokens:,} cached"] if u.cache_read_tokens else []
    notes += [f"{u.cache_write_tokens:,} cache write"] if u.cache_write_tokens else []
    tokens_in = f"{prompt:,} in" + (f" ({', '.join(notes)})" if notes else "")
    money = "$?" if item.cost_usd is None else f"${item.cost_usd:.4f}"
    return SEP.join([item.step, item.model, tokens_in, f"{u.output_tokens:,} out", money])


def cache_read_share(usage: Usage) -> float:
    """Share of the prompt served from the cache (0.0–1.0)."""
    prompt = usage.input_tokens + usage.cache_write_tokens + usage.cache_read_tokens
    return usage.cache_read_tokens / prompt if prompt else 0.0
