"""Credentials that must never be committed: well-known key shapes, and long random values
given to a secret-ish name (``GITHUB_TOKEN=…``, ``api_key: "…"``, ``Bearer …``, JWTs).

A finding names the kind of secret and the line, never the secret itself (hook output
ends up in CI logs).  Placeholders (``<your token>``, ``${{ secrets.X }}``, ``$TOKEN``,
``xxxx``, ``***``, ``REDACTED``) and values without both letters and digits are not
secrets; neither is a commit id that no secret-ish name introduces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_VENDOR: tuple[tuple[str, re.Pattern[bytes]], ...] = tuple(
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
        ("a JSON Web Token", rb"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+"),
    )
)

_ASSIGNED = re.compile(
    rb"""(?<![A-Za-z0-9_.\-])                        # a name starts a word:
        (?P<name>[A-Za-z0-9_.\-]*?                 # GITHUB_ / my-app. ...
          (?:api[_\-]?key|token|secret|secret[_\-]?key|password|passwd|private[_\-]?key
            |access[_\-]?key|authorization))        # ... a secret-ish name ending the word
        (?![A-Za-z0-9_])
        ["']?[ \t]*(?:[:=]|[ \t])[ \t]*               # "name": / name= / name <space>
        (?:(?:bearer|token)[ \t]+)?                 # Authorization: Bearer ...
        ["']?(?P<value>[A-Za-z0-9_\-./+=]{16,})     # the value, quoted or not
      | (?P<bearer>bearer)[ \t]+(?P<token>[A-Za-z0-9_\-./+=~]{16,})""",
    re.VERBOSE | re.IGNORECASE,
)
_PLACEHOLDER = re.compile(rb"your|example|placeholder|redacted|changeme|dummy|fake|xxxx",
                          re.IGNORECASE)  # fmt: skip
_PATH_SEPARATOR = re.compile(rb"[/.]")
_MARKERS = re.compile(
    rb"key|token|secret|passw|authoriz|bearer|eyJ|sk-|gh[pousr]_|github_pat_|AKIA|ASIA|AIza"
    rb"|xox",
    re.IGNORECASE,
)


def find_secrets(data: bytes) -> Iterator[tuple[int, str]]:
    """``(1-based line, kind of secret)`` for each line that holds one (first kind only)."""
    if not _MARKERS.search(data):
        return  # the common case: one pass over the file, nothing secret-ish in it
    found: dict[int, str] = {}
    for kind, pattern in _VENDOR:
        for match in pattern.finditer(data):
            found.setdefault(data.count(b"\n", 0, match.start()) + 1, kind)
    for match in _ASSIGNED.finditer(data):
        assigned = _assigned(match)
        if assigned is not None:
            found.setdefault(data.count(b"\n", 0, match.start()) + 1, assigned)
    yield from sorted(found.items())


def _assigned(match: re.Match[bytes]) -> str | None:
    """The kind of secret ``match`` holds, None when its value is no secret."""
    value = match["token"] if match["bearer"] else match["value"]
    if not _random(value):
        return None
    if match["bearer"]:
        return "a bearer token"
    name = match["name"].decode("ascii").strip(".-_")
    return f"a secret given to {name}"


def _random(value: bytes) -> bool:
    """Whether ``value`` looks generated: letters and digits, no placeholder word, and not a
    path or dotted name made of short parts (``docs/rfd/.state/001/plan.json``)."""
    if not (any(c in b"0123456789" for c in value) and any(chr(c).isalpha() for c in value)):
        return False
    if _PLACEHOLDER.search(value) or len(set(value)) < 8:
        return False
    return max(len(part) for part in _PATH_SEPARATOR.split(value)) >= 16
