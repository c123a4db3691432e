"""The docs say what users can type and configure: the README the set-up, the reference in
``bot/docs/`` (shown by ``rfd help TOPIC``) every command, key and lint rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import COMMANDS
from bot.config.load import schema_keys

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def topic(name: str) -> str:
    """The reference topic ``bot/docs/<name>.md``."""
    return (ROOT / "bot" / "docs" / f"{name}.md").read_text(encoding="utf-8")


def documented_key(key: str) -> str:
    """``steps.review.model`` is documented as ``steps.<step>.model``."""
    return re.sub(r"^steps\.[a-z]+\.", "steps.<step>.", key).replace(
        "plugins.options", "plugins.<name>.*"
    )


@pytest.mark.parametrize("key", sorted({documented_key(k) for k, _, _ in schema_keys()}))
def test_every_config_key_is_documented(key: str) -> None:
    assert f"| `{key}` |" in topic("configuration")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_is_documented(command: str) -> None:
    assert f"`rfd {command}" in topic("commands")


def test_the_two_setup_commands_exist() -> None:
    root = Path(__file__).resolve().parent.parent
    for script in ("./.ci/demo", "./.ci/run"):
        assert script in README
        assert (root / script).stat().st_mode & 0o111
    assert "source" in (root / ".ci/run").read_text() and "pytest" in (root / ".ci/run").read_text()


def test_every_lint_rule_is_documented_with_its_meaning_and_default() -> None:
    from bot.model.lint_codes import RULES

    for code, rule in RULES.items():
        assert f"| `{code}` | {rule.meaning} | {rule.default} |" in topic("documents")


def test_every_slash_command_is_documented_for_the_bot() -> None:
    from bot.github.commands import Verb

    bot = topic("bot")
    assert [verb.value for verb in Verb if f"`/rfd {verb.value}" not in bot] == []


def test_every_topic_is_listed_by_rfd_help_and_linked_from_the_readme() -> None:
    from bot.cli.help import TOPICS

    assert [t for t in TOPICS if f"](bot/docs/{t}.md)" not in README] == []
