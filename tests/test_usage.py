"""The usage ledger: JSON lines through the state module, totals, the one-line summary."""

from __future__ import annotations

import json

import pytest

from bot.llm.base import Usage
from bot.llm.usage import (
    Entry,
    cache_read_share,
    entry,
    format_entry,
    parse_line,
    record,
    summarize,
)

REVIEW = Entry("review", "claude-sonnet-5-5", Usage(451, 512, 0, 1980), 0.0123, at=1763779200.0)


@pytest.mark.parametrize(
    ("item", "line"),
    [
        (REVIEW, "review · claude-sonnet-5-5 · 2,431 in (1,980 cached) · 512 out · $0.0123"),
        (
            Entry("review", "m", Usage(100, 5, 2000, 0), 0.5),
            "review · m · 2,100 in (2,000 cache write) · 5 out · $0.5000",
        ),
        (Entry("accept", "llama3", Usage(10, 2), None), "accept · llama3 · 10 in · 2 out · $?"),
    ],
)
def test_one_line_format(item: Entry, line: str) -> None:
    assert format_entry(item) == line


def test_record_appends_one_json_line_through_the_given_function() -> None:
    lines: list[str] = []
    record(lines.append, REVIEW)
    (line,) = lines
    assert "\n" not in line
    assert json.loads(line)["cache_read_tokens"] == 1980
    assert parse_line(line) == REVIEW


def test_entry_is_priced_from_the_table() -> None:
    item = entry("review", "claude-sonnet-5-5", Usage(1_000_000), at=1.0)
    assert item.cost_usd == pytest.approx(2.0)


def test_summarize_totals_per_step_and_skips_mangled_lines() -> None:
    lines = [
        REVIEW.to_line(),
        "not json",
        "",
        '{"no": "step"}',
        Entry("review", "claude-sonnet-5-5", Usage(10, 10), 0.001).to_line(),
        Entry("accept", "my-llama", Usage(5, 5), None).to_line(),
    ]
    totals = summarize(lines)
    assert list(totals) == ["review", "accept"]
    assert totals["review"].usage == Usage(461, 522, 0, 1980)
    assert totals["review"].cost_usd == pytest.approx(0.0133)
    assert totals["accept"].cost_usd is None


def test_cache_read_share() -> None:
    assert cache_read_share(Usage(100, 50, 0, 900)) == pytest.approx(0.9)
    assert cache_read_share(Usage()) == 0.0
