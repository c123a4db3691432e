"""Nothing the bot posts can carry a credential: the secrets this process holds, and
redaction.

Every title and body goes through :func:`redact` on its way out: in the forge's
writes (comments, issues, pull requests) whoever calls them, and already in
``Context.upsert`` so that comparing with what is posted stays idempotent.
Text travelling the other way — RFDs read from PRs, reviews — reaches a model only
through the prompt templates, which sanitise all data (:mod:`bot.core.sanitize`);
comment text never does: the bot takes only the parsed, validated command.

Two detectors: :mod:`bot.core.secret_shapes` knows what a credential *looks like*
(rfd-state's detector too); :class:`SecretValues` here knows the actual values in the
environment (``GITHUB_TOKEN``, model keys, ``DATABASE_URL``…) and finds them plain,
reversed, hex, URL-encoded and base64-encoded at each of the three byte alignments — so a
token that a hostile command reversed or encoded is still found.  :func:`redact` (every
post) and :mod:`bot.agent.implementation.commit_guard` (every commit) use both.
"""

from __future__ import annotations

import base64
import bisect
import codecs
import os
import re
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from bot.core.secret_shapes import find


def redact(text: str, values: SecretValues | None = None) -> str:
    """``text`` with anything shaped like a credential, and every form of a secret value the
    process holds (``values``, default: its environment's), replaced by ``[redacted]`` (a
    value given to a secret-ish name loses the value, the name stays: ``API_KEY=[redacted]``)."""
    values = held(os.environ) if values is None else values
    spans = sorted((secret.start, secret.end) for secret in find(text))
    spans = sorted(spans + [(start, end) for start, end, _ in values.find(text)])
    if not spans:
        return text
    out, done = [], 0
    for start, end in spans:
        if start < done:  # overlaps the span redacted last
            done = max(done, end)
            continue
        out += [text[done:start], "[redacted]"]
        done = end
    return "".join(out) + text[done:]


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


SEPARATORS = re.compile(r"[\s\-_.,:;|`'\"*>]+")
"""What a leak may put between a value's characters (spaced, dash-joined, split across
lines, quoted line by line): found with the value's characters alone."""
RUNS = re.compile(r"[^\s\-_.,:;|`'\"*>]+")
"""What lies between separators."""


@dataclass(frozen=True)
class SecretValues:
    """A compiled set of secret values; ``find`` gives each occurrence in any encoding."""

    pattern: re.Pattern[str] | None
    kinds: Mapping[str, str]
    """Each encoded form (lower case) → which variable's value it is."""
    squeezed: re.Pattern[str] | None = None
    """The forms without separators (:data:`SEPARATORS`), to find them spread out."""
    squeezed_kinds: Mapping[str, str] = field(default_factory=dict)

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """``(start, end, kind)`` of every occurrence, non-overlapping, left to right:
        plain or case-changed, or with separators between its characters."""
        if self.pattern is None:
            return
        spans = [
            (m.start(), m.end(), self._kind(self.kinds, m.group()))
            for m in self.pattern.finditer(text)
        ]
        spans += list(self._spread(text))
        done = -1
        for start, end, kind in sorted(spans):
            if start >= done:
                yield start, end, kind
                done = end

    def _spread(self, text: str) -> Iterator[tuple[int, int, str]]:
        if self.squeezed is None or not SEPARATORS.search(text):
            return
        runs = [(m.start(), m.group()) for m in RUNS.finditer(text)]
        starts, offsets, total = [], [], 0
        for at, run in runs:
            starts.append(total)
            offsets.append(at)
            total += len(run)
        squeezed = "".join(run for _, run in runs)
        for match in self.squeezed.finditer(squeezed):
            first = _original(starts, offsets, match.start())
            last = _original(starts, offsets, match.end() - 1) + 1
            yield first, last, self._kind(self.squeezed_kinds, match.group())

    @staticmethod
    def _kind(kinds: Mapping[str, str], found: str) -> str:
        return kinds.get(found.lower(), "a secret value")

    def redact(self, text: str) -> str:
        """``text`` with every occurrence replaced by ``[redacted]``."""
        out, done = [], 0
        for start, end, _ in self.find(text):
            out += [text[done:start], REDACTED]
            done = end
        return "".join(out) + text[done:]

    def find_bytes(self, data: bytes) -> list[tuple[int, int, str]]:
        """Occurrences in a file's bytes (latin-1 keeps one character per byte)."""
        return list(self.find(data.decode("latin-1")))

    def __bool__(self) -> bool:
        return self.pattern is not None


def _original(starts: list[int], offsets: list[int], index: int) -> int:
    """Where the ``index``-th character of the squeezed text is in the original one."""
    run = bisect.bisect_right(starts, index) - 1
    return offsets[run] + index - starts[run]


@lru_cache(maxsize=8)
def _compiled(pairs: tuple[tuple[str, str], ...]) -> SecretValues:
    kinds: dict[str, str] = {}
    for name, value in pairs:
        for form in encodings(value):
            kinds.setdefault(form.lower(), KIND.format(name=name))
    if not kinds:
        return SecretValues(None, {})
    squeezed = {SEPARATORS.sub("", form): kind for form, kind in kinds.items()}
    squeezed = {form: kind for form, kind in squeezed.items() if len(form) >= MIN_LENGTH}
    return SecretValues(_alternation(kinds), kinds, _alternation(squeezed), squeezed)


def _alternation(forms: Mapping[str, str]) -> re.Pattern[str] | None:
    longest_first = sorted(forms, key=len, reverse=True)
    if not longest_first:
        return None
    return re.compile("|".join(map(re.escape, longest_first)), re.IGNORECASE)


def encodings(value: str) -> set[str]:
    """``value`` and the forms a leak could give it (each at least :data:`MIN_LENGTH` long):
    reversed, rot13, hex, URL-encoded, and base64, base32 and base85 at every alignment."""
    raw = value.encode()
    forms = {value, value[::-1], codecs.encode(value, "rot13"), raw.hex()}
    forms |= {urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value)}
    for core in base64_cores(raw):
        forms |= {core, core.translate(_URLSAFE)}
    forms |= set(block_cores(raw, base64.b32encode, 5, 8))
    forms |= set(block_cores(raw, base64.b85encode, 4, 5))
    forms |= set(block_cores(raw, base64.a85encode, 4, 5))
    return {form for form in forms if len(form) >= MIN_LENGTH}


def block_cores(
    raw: bytes, encode: Callable[[bytes], bytes], group: int, chars: int
) -> Iterator[str]:
    """For a block encoding (``group`` bytes → ``chars`` characters, as base32 and base85),
    the whole blocks that depend on ``raw`` alone, at each alignment inside a longer text."""
    for offset in range(group):
        encoded = encode(bytes(offset) + raw + bytes(group)).decode()
        first = -(-offset // group)
        last = (offset + len(raw)) // group
        if last > first and "z" not in encoded[first * chars : last * chars]:
            yield encoded[first * chars : last * chars]


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
