"""What ``rfd`` imports for the commands that only read: no provider, forge or plugin code.

Each command runs through the real entry point in a fresh interpreter (with an API key set,
so a provider would be chosen if anything asked for one) and reports the modules it loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from bot.cli.commands import COMMANDS
from bot.cli.main import cli
from tests.conftest import rfd_text, write_rfd

CHECKOUT = Path(__file__).resolve().parent.parent
UNCALLED = (
    "bot.llm",
    "bot.forge",
    "bot.plugins",
    "bot.github",
    "bot.ai",
    "bot.agent",
    "pluggy",
    "anthropic",
    "openai",
    "httpx",
    "github",
    "git",
    "jinja2",
)
CHILD = """
import json, sys
from bot.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded(repo: Path, *argv: str) -> tuple[str, list[str]]:
    """What ``rfd -C repo argv`` printed, and the modules it imported that it does not call."""
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT), "ANTHROPIC_API_KEY": "sk-ant-unused"}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, "-C", str(repo), *argv],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    *printed, report = proc.stdout.splitlines()
    found = json.loads(report)
    assert found["code"] == 0, proc.stdout + proc.stderr
    heavy = [m for m in found["modules"] if m.split(".")[0] in UNCALLED or m.startswith(UNCALLED)]
    return "\n".join(printed), heavy


@pytest.fixture
def repo(git_repo: Path) -> Path:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Alpha"))
    write_rfd(git_repo, "002-b.md", rfd_text("002", "Beta", status="Draft"))
    return git_repo


@pytest.mark.parametrize("argv", [("list",), ("status", "1"), ("status", "2", "--json")])
def test_read_only_commands_import_no_provider_forge_or_plugin(
    repo: Path, argv: tuple[str, ...]
) -> None:
    printed, heavy = loaded(repo, *argv)
    assert "Alpha" in printed or "Beta" in printed
    assert heavy == []


def test_help_loads_no_command_and_no_plugin(repo: Path) -> None:
    printed, heavy = loaded(repo, "--help")
    assert heavy == []
    assert "List every RFD: id, status, title and phase progress." in printed
    assert "implement  Implement the next phase" in printed


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_help_line_of_each_command_is_its_docstrings(name: str) -> None:
    """``rfd --help`` reads the table, not the commands: the table says what they say."""
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    assert COMMANDS[name] == command.get_short_help_str(limit=10_000)


@pytest.mark.parametrize("argv", [("help",), ("help", "security")])
def test_help_reads_its_pages_and_imports_no_command(repo: Path, argv: tuple[str, ...]) -> None:
    """``rfd help`` reads Markdown files: no provider, forge, plugin, configuration or RFD."""
    printed, heavy = loaded(repo, *argv)
    assert "security" in printed.lower()
    assert heavy == []
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, *argv], env=env, capture_output=True, text=True, check=True
    )
    modules = json.loads(proc.stdout.splitlines()[-1])["modules"]
    assert [m for m in modules if m.startswith(("bot.config", "bot.lifecycle", "bot.model"))] == []
