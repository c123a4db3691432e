"""The policy plugin: tool calls refused by step, protected paths during implement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.config.load import Config, PluginsSection, Resolved
from bot.core.errors import Aborted
from bot.events import EventBus, ToolCallIntercept
from bot.plugins import load_plugins
from bot.plugins.policy import glob_regex, normalise

RULES = {
    "deny_tools_in_steps": {"review": ["write_file", "edit_file"]},
    "protected_globs": ["migrations/**", "**/secrets.py", "*.lock"],
}


@pytest.fixture
def bus(tmp_path: Path) -> EventBus:
    config = Config(plugins=PluginsSection(enabled=("policy",), options={"policy": RULES}))
    bus = EventBus()
    load_plugins(bus, Resolved(config, {}), root=tmp_path)
    return bus


def call(step: str, tool: str, **arguments: Any) -> ToolCallIntercept:
    return ToolCallIntercept(rfd_id="045", step=step, tool=tool, arguments=arguments)


@pytest.mark.parametrize(
    ("step", "tool", "arguments", "reason"),
    [
        ("review", "write_file", {"path": "x.md"}, "`write_file` is not allowed during review"),
        ("review", "edit_file", {"path": "a.py"}, "`edit_file` is not allowed during review"),
        (
            "implement",
            "write_file",
            {"path": "migrations/0001_init.py"},
            "`migrations/0001_init.py` is protected during implement (matches `migrations/**`)",
        ),
        (
            "implement",
            "edit_file",
            {"file_path": "./app/../migrations/x/y.sql"},
            "`migrations/x/y.sql` is protected",
        ),
        ("implement", "write_file", {"path": "src/secrets.py"}, "(matches `**/secrets.py`)"),
        ("implement", "write_file", {"path": "secrets.py"}, "(matches `**/secrets.py`)"),
        ("implement", "delete_files", {"paths": ["ok.py", "uv.lock"]}, "`uv.lock` is protected"),
        (
            "implement",
            "run_command",
            {"command": "ruff check --fix migrations/x.py"},
            "`migrations/x.py` is protected during implement",
        ),
        (
            "implement",
            "run_command",
            {"command": "ruff check --fix migrations"},
            "`migrations` is protected during implement (matches `migrations/**`)",
        ),
        (
            "implement",
            "run_command",
            {"command": "ruff format --stdin-filename=./src/secrets.py"},
            "`src/secrets.py` is protected",
        ),
        (
            "implement",
            "run_command",
            {"command": "pytest --junitxml=migrations/r.xml"},
            "`migrations/r.xml` is protected",
        ),
    ],
)
def test_calls_breaking_a_rule_are_aborted_with_the_reason(
    bus: EventBus, step: str, tool: str, arguments: dict[str, Any], reason: str
) -> None:
    with pytest.raises(Aborted) as err:
        bus.intercept(call(step, tool, **arguments))
    assert reason in err.value.message
    assert "[plugins.policy]" in str(err.value)  # what the user and the model are shown


@pytest.mark.parametrize(
    ("step", "tool", "arguments"),
    [
        ("review", "read_file", {"path": "migrations/0001_init.py"}),
        ("implement", "write_file", {"path": "src/app.py"}),
        ("implement", "write_file", {"path": "docs/migrations/notes.md"}),
        ("implement", "write_file", {"path": "sub/uv.lock"}),  # `*` stays within one name
        ("refine", "write_file", {"path": "migrations/0002.py"}),  # globs guard implement only
        ("implement", "run_command", {"command": "pytest -q tests/test_migrations.py"}),
        ("implement", "run_command", {"command": "ruff check 'unclosed"}),  # the tool refuses it
        ("review", "run_command", {"command": "ruff check --fix migrations"}),
    ],
)
def test_calls_within_the_rules_pass_unchanged(
    bus: EventBus, step: str, tool: str, arguments: dict[str, Any]
) -> None:
    event = call(step, tool, **arguments)
    assert bus.intercept(event) == event


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("migrations/**", "migrations/a/b.py", True),
        ("migrations/**", "migrations", False),
        ("**/x.py", "x.py", True),
        ("**/x.py", "a/b/x.py", True),
        ("a/*.py", "a/b/c.py", False),
        ("a/?.py", "a/b.py", True),
        ("a+b/[x].py", "a+b/[x].py", True),
    ],
)
def test_globs(glob: str, path: str, matches: bool) -> None:
    assert bool(glob_regex(glob).fullmatch(path)) is matches


def test_absolute_paths_inside_the_repository_are_made_relative(tmp_path: Path) -> None:
    assert normalise(str(tmp_path / "migrations" / "x.py"), str(tmp_path)) == "migrations/x.py"
