from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.core.errors import ConfigError
from bot.lifecycle.workspace import Workspace
from tests.conftest import rfd_text, write_rfd


def enable(repo: Path, toml: str) -> None:
    (repo / ".github").mkdir(exist_ok=True)
    (repo / ".github/rfd.toml").write_text(toml)


def test_enabled_plugins_listen_to_cli_steps(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    enable(git_repo, '[plugins]\nenabled = ["event-log"]\n')
    assert main(["-C", str(git_repo), "review", "1"]) == 0
    log = git_repo / "docs/rfd/.state/001/events.jsonl"
    events = [json.loads(line)["event"] for line in log.read_text().splitlines()]
    assert events == ["review.saved"]


def test_a_plugin_config_error_names_the_plugin(git_repo: Path) -> None:
    enable(git_repo, '[plugins]\nenabled = ["event-log"]\n[plugins.event-log]\nbogus = 1\n')
    with pytest.raises(ConfigError, match="bogus"):
        Workspace.open(git_repo)


def test_explicit_config_loads_no_plugins(git_repo: Path) -> None:
    enable(git_repo, '[plugins]\nenabled = ["event-log"]\n')
    from bot.config.load import load_config

    ws = Workspace.open(git_repo, config=load_config(git_repo))
    assert ws.plugins == ()
    assert Workspace.open(git_repo).plugins[0].name == "event-log"
