"""Finding the line a TOML key is written on (bot/core/toml_lines.py)."""

from __future__ import annotations

import pytest

from bot.core.toml_lines import line_of, split_key

TEXT = '''\
# rfd-bot
[plugins]
enabled = ["notify"]
inline = { retries = 9 }

[plugins.notify]
note = """
retries = 1 is not a key: it is inside a string
"""
"url" = "https://example.com/hook"
events = [
  "status.changed",
]
retries = 3  # key after a multi-line string

[[plugins.judge.rules]]
name.first = "x"
'''


@pytest.mark.parametrize(
    ("key", "line"),
    [
        ("plugins", 2),
        ("plugins.enabled", 3),
        ("plugins.inline.retries", 4),  # inside an inline table: the table's line
        ("plugins.notify", 6),
        ("plugins.notify.url", 10),
        ("plugins.notify.events[0]", 11),
        ("plugins.notify.retries", 14),
        ("plugins.notify.missing", 6),  # not written: its table
        ("plugins.judge.rules.name.first", 17),
        ("steps.review.model", None),
    ],
)
def test_the_line_of_a_key(key: str, line: int | None) -> None:
    assert line_of(TEXT, key) == line


def test_quoted_keys_keep_their_dots() -> None:
    assert split_key('a."b.c" . d') == ("a", "b.c", "d")
