"""An object built the first time it is used: a part a command may never touch costs nothing.

A read-only command such as ``rfd status`` opens a workspace but never calls its forge or its
model; :func:`deferred` lets the workspace hold them without importing their modules until an
attribute of theirs is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")


class Deferred:
    """Stands for what ``build`` returns, built (once) when an attribute is first read."""

    def __init__(self, build: Callable[[], object]) -> None:
        self._build: Callable[[], object] | None = build
        self._target: object = None

    def __getattr__(self, name: str) -> Any:
        if name in ("_build", "_target"):  # read before __init__ ran (a copy): not ours
            raise AttributeError(name)
        return getattr(self._built(), name)

    def _built(self) -> object:
        if self._build is not None:
            self._target, self._build = self._build(), None
        return self._target

    def __repr__(self) -> str:
        return "<deferred, not built yet>" if self._build is not None else repr(self._target)


def deferred(build: Callable[[], T]) -> T:
    """What ``build`` returns, as an object of its type that builds it on first use."""
    return cast(T, Deferred(build))
