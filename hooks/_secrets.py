"""Credentials that must never be committed, by line (the shapes are
:mod:`bot.core.secret_shapes`', which the bot's redaction uses too).

A finding names the kind of secret and the line, never the secret itself (hook output
ends up in CI logs).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.core.secret_shapes import find


def find_secrets(data: bytes) -> Iterator[tuple[int, str]]:
    """``(1-based line, kind of secret)`` for each line that holds one (first kind only)."""
    text = data.decode("utf-8", "surrogateescape")
    found: dict[int, str] = {}
    for secret in find(text):
        found.setdefault(text.count("\n", 0, secret.start) + 1, secret.kind)
    yield from sorted(found.items())
