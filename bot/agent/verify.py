"""The repository's own check of an implement item: ``implement.verify``, run after each item.

The command comes from the configuration (a person's choice, not the model's), so it is
not held to ``implement.allowed_commands``; but it runs the tests the model wrote, so it
goes through the same door as the model's commands (:func:`bot.agent.commands.execute`):
isolated, or — where nothing isolates — only when a person confirms it.
``auto`` picks the usual test command of the repository; ``""`` turns the check off.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.agent.commands import execute, split
from bot.agent.context import ToolContext
from bot.agent.isolation import choose
from bot.core.errors import ConfigError, ValidationError

AUTO = "auto"
PYTEST, MAKE, NPM = "pytest -q", "make test", "npm test"
OUTPUT_TAIL = 3_000
"""How much of a failing check's output the retry sees (its end: where the failures are)."""
NPM_DEFAULT = "no test specified"
"""What ``npm init`` writes as the test script: not a test suite."""
_MAKE_TARGET = re.compile(r"^test\s*:(?!=)", re.MULTILINE)
_PYTEST_CONFIG = (
    ("pytest.ini", ""),
    ("pyproject.toml", "[tool.pytest"),
    ("setup.cfg", "[tool:pytest]"),
    ("tox.ini", "[pytest]"),
)
_TEST_GLOBS = ("test_*.py", "*_test.py")
NOT_INSTALLED = (
    "implement.verify: {error}; set implement.verify to the command that runs this "
    'repository\'s tests, or to "" to check items without it'
)
FAILED = "`{command}` failed (exit code {code})"
Confirm = Callable[[str], bool]
"""Asks a person whether a command line may run unisolated (True: yes)."""


@dataclass(frozen=True)
class Verdict:
    """The check's answer on one item: ``reason`` is one line, ``detail`` the output's end."""

    passed: bool
    reason: str = ""
    detail: str = ""


def command_for(root: Path, configured: str) -> str:
    """The verify command: the configured one, or (``auto``) the repository's usual one."""
    return detect(root) if configured.strip() == AUTO else configured.strip()


def detect(root: Path) -> str:
    """``pytest -q``, ``make test`` or ``npm test`` when the repository has such tests; ``""``."""
    if _has_pytest(root):
        return PYTEST
    if _make_target(root / "Makefile"):
        return MAKE
    if _npm_script(root / "package.json"):
        return NPM
    return ""


def _has_pytest(root: Path) -> bool:
    if (root / "conftest.py").is_file():
        return True
    for name, marker in _PYTEST_CONFIG:
        text = _read(root / name)
        if text is not None and marker in text:
            return True
    folders = [root / "tests", root / "test"]
    return any(next(d.rglob(g), None) for d in folders if d.is_dir() for g in _TEST_GLOBS)


def _make_target(path: Path) -> bool:
    text = _read(path)
    return text is not None and _MAKE_TARGET.search(text) is not None


def _npm_script(path: Path) -> bool:
    text = _read(path)
    try:
        scripts = json.loads(text or "{}").get("scripts") or {}
    except (ValueError, AttributeError):
        return False
    test = scripts.get("test") if isinstance(scripts, dict) else None
    return isinstance(test, str) and bool(test.strip()) and NPM_DEFAULT not in test


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
    except OSError:
        return None


def verify(ctx: ToolContext, command: str, confirm: Confirm | None = None) -> Verdict:
    """Run ``command`` in the repository, isolated as the model's commands are; where nothing
    isolates only when ``confirm`` (a person) says yes, else PermissionDenied.  ConfigError
    when it cannot start at all."""
    argv = split(command)
    unisolated = choose(ctx.config.implement.isolation) is None
    confirmed = unisolated and confirm is not None and confirm(shlex.join(argv))
    try:
        done = execute(ctx, argv, unisolated_confirmed=confirmed)
    except ValidationError as exc:
        if "not installed" in exc.message:
            raise ConfigError(NOT_INSTALLED.format(error=exc.message)) from exc
        return Verdict(False, f"`{shlex.join(argv)}` {exc.message}")
    if done.returncode == 0:
        return Verdict(True)
    reason = FAILED.format(command=shlex.join(argv), code=done.returncode)
    return Verdict(False, reason, done.output[-OUTPUT_TAIL:])
