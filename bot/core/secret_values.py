"""The secrets this process holds, by value, in every form a leak could take.

:mod:`bot.core.secret_shapes` knows what a credential *looks like*; this module knows the
actual values in the environment (``GITHUB_TOKEN``, model keys, ``DATABASE_URL``…) and
finds them plain, reversed, hex, URL-encoded and base64-encoded at each of the three
byte alignments — so a token that a hostile command reversed or encoded is still found.
:func:`bot.core.redact.redact` (every post) and :mod:`bot.agent.commit_guard` (every
commit) use both detectors.
"""

from __future__ import annotations

import base64
import re
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

SECRET_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASS|PWD|CREDENTIAL|AUTH(?!OR)|COOKIE|DSN|WEBHOOK|(?:^|_)PAT(?:_|$)",
    re.IGNORECASE,
)
"""Variable names whose value is a secret (``MYSQL_PWD``, ``SENTRY_DSN``, ``API_KEY``; not
``GIT_AUTHOR_NAME``)."""
URL_CREDENTIALS = re.compile(r"://[^/@\s]+@")
"""A value carrying credentials in a URL (``DATABASE_URL=postgres://u:p@host/db``)."""
NOT_SECRET = frozenset({"PWD", "OLDPWD"})
"""The shell's working directories, named like passwords."""
MIN_LENGTH = 8
"""Shorter values would redact ordinary words; no real credential is that short."""
KIND = "the value of {name}"
REDACTED = "[redacted]"


def secret_names(environ: Mapping[str, str], configured: Iterable[str] = ()) -> set[str]:
    """The variables of ``environ`` that hold secrets: secret-ish names, credentials in a
    URL, and the ``configured`` ones (``implement.redacted_env``, ``provider.api_key_env``)."""
    wanted = set(configured)
    return {
        name
        for name, value in environ.items()
        if name in wanted
        or (name not in NOT_SECRET and SECRET_NAME.search(name))
        or URL_CREDENTIALS.search(value)
    }


def held(environ: Mapping[str, str], configured: Iterable[str] = ()) -> SecretValues:
    """The secret values of ``environ`` (see :func:`secret_names`)."""
    names = secret_names(environ, configured)
    pairs = ((name, environ[name]) for name in sorted(names))
    return _compiled(tuple((n, v) for n, v in pairs if len(v) >= MIN_LENGTH))


@dataclass(frozen=True)
class SecretValues:
    """A compiled set of secret values; ``find`` gives each occurrence in any encoding."""

    pattern: re.Pattern[str] | None
    kinds: Mapping[str, str]
    """Each encoded form → which variable's value it is."""

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """``(start, end, kind)`` of every occurrence, non-overlapping, left to right."""
        if self.pattern is None:
            return
        for match in self.pattern.finditer(text):
            yield match.start(), match.end(), self.kinds.get(match.group(), "a secret value")

    def redact(self, text: str) -> str:
        """``text`` with every occurrence replaced by ``[redacted]``."""
        return text if self.pattern is None else self.pattern.sub(REDACTED, text)

    def find_bytes(self, data: bytes) -> list[tuple[int, int, str]]:
        """Occurrences in a file's bytes (latin-1 keeps one character per byte)."""
        return list(self.find(data.decode("latin-1")))

    def __bool__(self) -> bool:
        return self.pattern is not None


@lru_cache(maxsize=8)
def _compiled(pairs: tuple[tuple[str, str], ...]) -> SecretValues:
    kinds: dict[str, str] = {}
    for name, value in pairs:
        for form in encodings(value):
            kinds.setdefault(form, KIND.format(name=name))
    if not kinds:
        return SecretValues(None, {})
    longest_first = sorted(kinds, key=len, reverse=True)
    return SecretValues(re.compile("|".join(map(re.escape, longest_first))), kinds)


def encodings(value: str) -> set[str]:
    """``value`` and the forms a leak could give it (each at least :data:`MIN_LENGTH` long)."""
    raw = value.encode()
    forms = {value, value[::-1], raw.hex(), raw.hex().upper()}
    forms |= {urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value)}
    for core in base64_cores(raw):
        forms |= {core, core.translate(_URLSAFE)}
    return {form for form in forms if len(form) >= MIN_LENGTH}


_URLSAFE = str.maketrans("+/", "-_")


def base64_cores(raw: bytes) -> Iterator[str]:
    """The base64 characters that depend on ``raw`` alone, for each of the 3 alignments
    ``raw`` can have inside a longer encoded text (``x-access-token:TOKEN`` encodes the
    token at some offset): the characters mixed with neighbouring bytes are left out."""
    for offset in range(3):
        encoded = base64.b64encode(bytes(offset) + raw).decode()
        start = (offset * 8 + 5) // 6
        end = (offset + len(raw)) * 8 // 6
        yield encoded[start:end]
