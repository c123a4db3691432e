"""What the bot posts never carries a credential."""

from __future__ import annotations

import pytest

from bot.github.redact import redact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain text", "plain text"),
        ("token ghp_" + "a" * 36, "token [redacted]"),
        ("installation ghs_" + "B" * 36 + " used", "installation [redacted] used"),
        ("key sk-ant-api03-" + "b" * 40, "key [redacted]"),
        ("aws AKIAABCDEFGHIJKLMNOP", "aws [redacted]"),
        (
            "sha ec26c3e57ca3a959ca5aad62de7213c562f8c821",
            "sha ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        ),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected
