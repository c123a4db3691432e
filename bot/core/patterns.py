"""Regular expressions declared at module level and compiled on first use.

Each hook run is a fresh interpreter, and :mod:`re` compiles in Python: 30–1,400 µs a
pattern here.  With every module compiling its patterns at import, that was ≈ 9 ms of a
hook's 55–70 ms, most of it for patterns the run never used (the plan parser's six when a
``plan.json`` exists, the secret detector's assignment pattern when no line holds a
secret-ish word).  A pattern declared with :func:`lazy` is written and used like a
compiled one; the first attribute asked of it compiles it, and from then on its methods
are the compiled pattern's own (no call in between).
"""

from __future__ import annotations

import re
from typing import Any, cast

_DELEGATED = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _Lazy:
    """Compiles on the first attribute asked for, then holds the compiled pattern's."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = pattern, flags

    def __getattr__(self, name: str) -> Any:  # only for what the instance does not hold yet
        compiled = re.compile(*self._source)
        for attr in _DELEGATED:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r}, {self._source[1]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done the first time the pattern is used.

    It behaves as the compiled pattern for its methods and attributes, but is no
    ``re.Pattern`` instance: call its methods (``X.match(s)``), don't pass it to
    ``re.match(X, s)``.  A broken pattern fails on first use, so every pattern declared
    this way needs a test that uses it (tests/test_patterns.py compiles them all)."""
    return cast("re.Pattern[str]", _Lazy(pattern, flags))
