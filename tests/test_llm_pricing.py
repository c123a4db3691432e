"""Prices come from package data; dated ids and vendor prefixes resolve."""

from __future__ import annotations

import pytest

from bot.core.errors import ParseError
from bot.llm.base import Usage
from bot.llm.pricing import Price, cost, parse_prices, price, prices_table


@pytest.mark.parametrize(
    ("model", "table_name"),
    [
        ("claude-sonnet-5-5", "claude-sonnet-5-5"),
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
        ("anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"),
        ("gpt-4.1-2025-04-14", "gpt-4.1"),
        ("Claude-Opus-5-5", "claude-opus-5-5"),
    ],
)
def test_model_ids_resolve(model: str, table_name: str) -> None:
    assert price(model) == prices_table()[table_name]


def test_unknown_model_has_no_price() -> None:
    assert cost("my-local-llama", Usage(1000, 1000)) is None


def test_cost_counts_all_four_kinds() -> None:
    p = Price(input=3.0, output=15.0, cache_write=3.75, cache_read=0.30)
    usage = Usage(
        input_tokens=1_000, output_tokens=500, cache_write_tokens=2_000, cache_read_tokens=10_000
    )
    assert p.cost(usage) == pytest.approx((3_000 + 7_500 + 7_500 + 3_000) / 1_000_000)


def test_long_prompts_pay_the_higher_tier() -> None:
    short, long = Usage(50_000, 1_000), Usage(150_000, 1_000)
    p = prices_table()["claude-haiku-5-5"]
    assert p.cost(long) == pytest.approx(5 * Price(0.10, 0.50, 0.125, 0.01).cost(long))
    assert p.cost(short) == pytest.approx(Price(0.10, 0.50, 0.125, 0.01).cost(short))


def test_every_row_is_complete_and_cache_reads_are_cheaper() -> None:
    for name, p in prices_table().items():
        assert 0 < p.cache_read <= p.input <= p.cache_write, name


def test_a_broken_table_names_the_file() -> None:
    with pytest.raises(ParseError, match="bad price table") as err:
        parse_prices('[models."x"]\ninput = 1.0\n', "prices.toml")
    assert err.value.path == "prices.toml"
