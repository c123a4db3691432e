"""What a credential looks like: well-known key shapes, and long random values given to a
secret-ish name (``GITHUB_TOKEN=…``, ``api_key: "…"``, ``Bearer …``, JWTs).

One detector for both ends: rfd-state reports the lines of state files that hold one, the
bot redacts them from everything it posts.  Imports nothing but :mod:`re` (the hooks load
it).  Placeholders (``<your token>``, ``${{ secrets.X }}``, ``$TOKEN``, ``xxxx``, ``***``,
``REDACTED``) and values without both letters and digits are no secret; neither is a
commit id that no secret-ish name introduces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from bot.core.patterns import lazy

VENDOR: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, lazy(pattern))
    for kind, pattern in (
        ("an Anthropic API key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
        ("an OpenAI-style API key", r"(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-)?[A-Za-z0-9_\-]{20,}"),
        ("a GitHub token", r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}"),
        ("a GitHub fine-grained token", r"github_pat_[A-Za-z0-9_]{22,}"),
        ("an AWS access key id", r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
        ("a Google API key", r"AIza[0-9A-Za-z_\-]{35}"),
        ("a Slack token", r"xox[abposr]-[0-9A-Za-z\-]{10,}"),
        ("a private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----"),
        ("a JSON Web Token", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+"),
    )
)

_ASSIGNED = lazy(
    r"""(?<![A-Za-z0-9_.\-])                        # a name starts a word:
        (?P<name>[A-Za-z0-9_.\-]*?                 # GITHUB_ / my-app. ...
          (?:api[_\-]?key|token|secret|secret[_\-]?key|password|passwd|private[_\-]?key
            |access[_\-]?key|authorization))        # ... a secret-ish name ending the word
        (?![A-Za-z0-9_])
        ["']?[ \t]*(?:[:=]|[ \t])[ \t]*             # "name": / name= / name <space>
        (?:(?:bearer|token)[ \t]+)?                 # Authorization: Bearer ...
        ["']?(?P<value>[A-Za-z0-9_\-./+=]{16,})     # the value, quoted or not
      | (?P<bearer>bearer)[ \t]+(?P<token>[A-Za-z0-9_\-./+=~]{16,})""",
    re.VERBOSE | re.IGNORECASE,
)
_PLACEHOLDER = lazy(r"your|example|placeholder|redacted|changeme|dummy|fake|xxxx", re.IGNORECASE)
_PATH_SEPARATOR = lazy(r"[/.]")
_MARKER_WORDS = (
    r"key|token|secret|passw|authoriz|bearer|eyj|sk-|gh[pousr]_|github_pat_|akia|asia|aiza|xox"
)
_MARKERS = lazy(_MARKER_WORDS, re.IGNORECASE)
_MARKERS_LOWER = lazy(_MARKER_WORDS)
"""The same words in lower-cased ASCII text: a case-insensitive search is ≈ 7× slower."""
_DIGITS = frozenset("0123456789")


class Secret(NamedTuple):
    start: int
    end: int
    """Where the secret is in the text (for a name given a value: the value only)."""
    kind: str
    """What it is, to be said instead of it: "a GitHub token", "a secret given to API_KEY"."""


def find(text: str) -> Iterator[Secret]:
    """Each secret in ``text``: the well-known shapes first, then assigned values."""
    if not may_hold(text):
        return  # the common case: one pass over the text, nothing secret-ish in it
    for kind, pattern in VENDOR:
        for match in pattern.finditer(text):
            yield Secret(match.start(), match.end(), kind)
    for match in _ASSIGNED.finditer(text):
        assigned = _assigned(match)
        if assigned is not None:
            group = "token" if match["bearer"] else "value"
            yield Secret(match.start(group), match.end(group), assigned)


def may_hold(text: str) -> bool:
    """Whether ``text`` holds a word every secret shape starts with or is named by (none
    holds a line break: texts joined by ``\\n`` can be asked at once)."""
    if text.isascii():  # in ASCII text, lower-casing first is the same as ignoring case
        return _MARKERS_LOWER.search(text.lower()) is not None
    return _MARKERS.search(text) is not None


def _assigned(match: re.Match[str]) -> str | None:
    """The kind of secret ``match`` holds, None when its value is no secret."""
    if not _random(match["token"] if match["bearer"] else match["value"]):
        return None
    if match["bearer"]:
        return "a bearer token"
    return f"a secret given to {match['name'].strip('.-_')}"


def _random(value: str) -> bool:
    """Whether ``value`` looks generated: letters and digits, no placeholder word, and not a
    path or dotted name made of short parts (``docs/rfd/.state/001/plan.json``)."""
    if _DIGITS.isdisjoint(value) or not any(c.isalpha() for c in value):
        return False
    if _PLACEHOLDER.search(value) or len(set(value)) < 8:
        return False
    return max(len(part) for part in _PATH_SEPARATOR.split(value)) >= 16
