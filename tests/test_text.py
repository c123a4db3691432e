"""Counted nouns agree with their count."""

from __future__ import annotations

import pytest

from bot.core.text import noun, plural


@pytest.mark.parametrize(
    ("count", "word", "expected"),
    [
        (1, "finding", "1 finding"),
        (0, "finding", "0 findings"),
        (2, "review", "2 reviews"),
        (1, "RFD", "1 RFD"),
        (3, "RFD", "3 RFDs"),
        (2, "phase summary", "2 phase summaries"),
        (2, "day", "2 days"),
        (2, "pass", "2 passes"),
        (1, "open question", "1 open question"),
    ],
)
def test_plural(count: int, word: str, expected: str) -> None:
    assert plural(count, word) == expected


def test_irregular_plural_and_the_bare_noun() -> None:
    assert plural(2, "child", "children") == "2 children"
    assert noun(1, "child", "children") == "child"
    assert noun(5, "write") == "writes"
