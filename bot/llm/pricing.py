"""What a call cost, from the price table in package data (``bot/llm/prices.toml``).

Prices are data, not code: update the table when a provider changes them.  An
unknown model has no price (``None``), which the ledger shows as ``$?`` rather
than pretending it was free.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from bot.core.errors import ParseError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.llm.base import Usage

PRICES_FILE = "prices.toml"
PER_TOKENS = 1_000_000
_DATE_SUFFIX = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$")  # claude-…-20250929, -latest
_VENDOR_PREFIX = re.compile(r"^[\w.-]+/")  # anthropic/claude-sonnet-4.5 (OpenRouter)


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_write: float
    cache_read: float
    long_prompt_tokens: int = 0
    """Prompts larger than this (0: no tier) pay every rate times ``long_prompt_factor``."""
    long_prompt_factor: float = 1.0

    def cost(self, usage: Usage) -> float:
        prompt = usage.input_tokens + usage.cache_write_tokens + usage.cache_read_tokens
        long = self.long_prompt_tokens and prompt > self.long_prompt_tokens
        factor = self.long_prompt_factor if long else 1.0
        return (
            factor
            * (
                usage.input_tokens * self.input
                + usage.output_tokens * self.output
                + usage.cache_write_tokens * self.cache_write
                + usage.cache_read_tokens * self.cache_read
            )
            / PER_TOKENS
        )


def price(model: str, table: Mapping[str, Price] | None = None) -> Price | None:
    """The price of ``model`` (dated ids and vendor prefixes tolerated), or None."""
    prices = prices_table() if table is None else table
    for name in _candidates(model):
        if name in prices:
            return prices[name]
    return None


def cost(model: str, usage: Usage) -> float | None:
    """What ``usage`` cost with ``model``, or None when the model has no price."""
    p = price(model)
    return None if p is None else p.cost(usage)


def _candidates(model: str) -> list[str]:
    bare = _VENDOR_PREFIX.sub("", model.strip().lower())
    undated = _DATE_SUFFIX.sub("", bare)
    # OpenRouter spells versions with dots (claude-sonnet-4.5); our table uses dashes.
    return [bare, undated, undated.replace(".", "-")]


@functools.cache
def prices_table() -> dict[str, Price]:
    text = resources.files("bot.llm").joinpath(PRICES_FILE).read_text(encoding="utf-8")
    return parse_prices(text, f"bot/llm/{PRICES_FILE}")


def parse_prices(text: str, path: str) -> dict[str, Price]:
    try:
        data = tomllib.loads(text)
        return {name: Price(**row) for name, row in data.get("models", {}).items()}
    except (tomllib.TOMLDecodeError, TypeError) as exc:
        raise ParseError(f"bad price table: {exc}", path=path) from exc
