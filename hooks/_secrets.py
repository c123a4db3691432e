"""Credentials that must never be committed, recognised by their well-known shapes.

A finding names the kind of secret and the line, never the secret itself (hook output
ends up in CI logs).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_PATTERNS: tuple[tuple[str, re.Pattern[bytes]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        ("an Anthropic API key", rb"sk-ant-[A-Za-z0-9_\-]{20,}"),
        ("an OpenAI-style API key", rb"(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-)?[A-Za-z0-9_\-]{20,}"),
        ("a GitHub token", rb"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}"),
        ("a GitHub fine-grained token", rb"github_pat_[A-Za-z0-9_]{22,}"),
        ("an AWS access key id", rb"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
        ("a Google API key", rb"AIza[0-9A-Za-z_\-]{35}"),
        ("a Slack token", rb"xox[abposr]-[0-9A-Za-z\-]{10,}"),
        ("a private key", rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----"),
    )
)


def find_secrets(data: bytes) -> Iterator[tuple[int, str]]:
    """``(1-based line, kind of secret)`` for each line that holds one (first kind only)."""
    if not any(marker in data for marker in (b"sk-", b"gh", b"github_pat_", b"AKIA", b"ASIA",
                                             b"AIza", b"xox", b"PRIVATE KEY")):  # fmt: skip
        return
    for number, line in enumerate(data.splitlines(), start=1):
        for kind, pattern in _PATTERNS:
            if pattern.search(line):
                yield number, kind
                break
