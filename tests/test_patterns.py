"""bot.core.patterns: a pattern declared with ``lazy`` compiles on first use and then
behaves as the compiled one; every pattern so declared compiles."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bot
import hooks
from bot.core.patterns import _Lazy, lazy

CHECKOUT = Path(__file__).resolve().parent.parent


def declared() -> list[tuple[str, str, _Lazy]]:
    """``(module, name, pattern)`` of every lazy pattern the project's modules hold, in
    module variables or in tuples of them (``secret_shapes.VENDOR``)."""
    found = []
    for package in (bot, hooks):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                items = value if isinstance(value, tuple) else (value,)
                for item in items:
                    for leaf in item if isinstance(item, tuple) else (item,):
                        if isinstance(leaf, _Lazy):
                            found.append((info.name, name, leaf))
    return found


def test_every_declared_pattern_compiles() -> None:
    patterns = declared()
    assert len(patterns) >= 40  # the hooks' path: ids, header, markdown, plan, lint, secrets
    for module, name, pattern in patterns:
        source, flags = pattern._source
        assert pattern.pattern == source, (module, name)
        assert pattern.flags == re.compile(source, flags).flags, (module, name)


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    field = r"^- \*\*(?P<key>\w+)\*\*: (?P<value>.*)$"
    eager, deferred = re.compile(field, re.M), lazy(field, re.M)
    text = "- **Status**: Draft\n- **Date**: 2026-01-15\nbody"
    first, again = deferred.match(text), eager.match(text)
    assert first is not None and again is not None
    assert first["key"] == again["key"] == "Status"
    found = deferred.search("x\n- **Date**: 1")
    assert found is not None and found["value"] == "1"
    assert [m["key"] for m in deferred.finditer(text)] == ["Status", "Date"]
    assert deferred.findall(text) == eager.findall(text)
    assert deferred.sub(r"\g<key>=\g<value>", text) == "Status=Draft\nDate=2026-01-15\nbody"
    assert deferred.split(text) == eager.split(text)
    assert deferred.fullmatch("- **A**: b") is not None
    assert deferred.groupindex == eager.groupindex and deferred.groups == 2


def test_a_broken_pattern_fails_on_first_use() -> None:
    broken = lazy(r"(unclosed")
    with pytest.raises(re.error):
        broken.match("x")


HOOK_RUN = """
import json, sys
from bot.core.patterns import _Lazy
import bot.model.plan, bot.core.secret_shapes, bot.model.header
mods = (bot.model.plan, bot.core.secret_shapes, bot.model.header)
lazies = [v for m in mods for v in vars(m).values() if isinstance(v, _Lazy)]
print(json.dumps([len(lazies), sum("match" in vars(p) for p in lazies)]))
"""


def test_importing_the_parsers_compiles_nothing() -> None:
    """A hook that imports the plan parser for a plan.json, or the secret detector for a
    review, pays for the patterns it uses, not for all of them."""
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    out = subprocess.run(
        [sys.executable, "-c", HOOK_RUN], env=env, capture_output=True, text=True, check=True
    )
    declared_count, compiled = json.loads(out.stdout)
    assert declared_count >= 10
    assert compiled == 0
