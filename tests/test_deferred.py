"""bot.lifecycle.opening: built on first use, once, and only then."""

from __future__ import annotations

import copy

import pytest

from bot.lifecycle.opening import deferred


class Counter:
    def __init__(self) -> None:
        self.value = 41

    def bump(self) -> int:
        self.value += 1
        return self.value


def test_built_on_first_use_and_only_once() -> None:
    built: list[Counter] = []

    def build() -> Counter:
        built.append(Counter())
        return built[-1]

    counter = deferred(build)
    assert built == [] and "not built yet" in repr(counter)
    assert counter.bump() == 42
    assert counter.bump() == 43 and len(built) == 1
    assert counter.value == 43


def test_an_error_of_the_build_surfaces_where_it_is_used() -> None:
    def build() -> Counter:
        raise ValueError("no provider configured")

    counter = deferred(build)
    with pytest.raises(ValueError, match="no provider configured"):
        counter.bump()


def test_a_copy_does_not_recurse() -> None:
    counter = deferred(Counter)
    assert copy.copy(counter).bump() == 42
