"""Configuration layers: defaults < user < repo < env < CLI, frozen once resolved."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.config import CONFIG_PATH, load, user_config_path


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def layered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repo whose `rfd.dir` is set by every layer but the default."""
    repo = tmp_path / "repo"
    write(user_config_path(), '[rfd]\ndir = "from-user"\ndrafts_dir = "user-drafts"\n')
    write(repo / CONFIG_PATH, '[rfd]\ndir = "from-repo"\n')
    monkeypatch.setenv("RFD_DIR", "from-env")
    return repo


@pytest.mark.parametrize(
    ("user", "env", "cli", "expected", "source"),
    [
        (False, False, None, "from-repo", "repo"),
        (True, False, None, "from-repo", "repo"),
        (True, True, None, "from-env", "env"),
        (True, True, {"rfd": {"dir": "from-cli"}}, "from-cli", "cli"),
    ],
)
def test_each_layer_overrides_the_ones_before_it(
    layered: Path,
    monkeypatch: pytest.MonkeyPatch,
    user: bool,
    env: bool,
    cli: dict[str, Any] | None,
    expected: str,
    source: str,
) -> None:
    if not env:
        monkeypatch.delenv("RFD_DIR")
    resolved = load(layered, user=user, cli=cli)
    assert resolved.config.rfd.dir == expected
    assert resolved.sources["rfd.dir"] == source


def test_keys_merge_one_by_one_and_unset_keys_keep_their_default(layered: Path) -> None:
    resolved = load(layered, user=True)
    assert resolved.config.rfd.drafts_dir == "user-drafts"
    assert resolved.sources["rfd.drafts_dir"] == "user"
    assert resolved.config.rfd.state_dir == ".state"
    assert "rfd.state_dir" not in resolved.sources  # i.e. the default
    assert resolved.files["user"] == str(user_config_path())
    assert resolved.files["repo"] == CONFIG_PATH


def test_the_plugin_list_can_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RFD_PLUGINS", "event-log, notify")
    resolved = load(tmp_path)
    assert resolved.config.plugins.enabled == ("event-log", "notify")
    assert resolved.sources["plugins.enabled"] == "env"


def test_the_resolved_configuration_cannot_be_changed(tmp_path: Path) -> None:
    write(tmp_path / CONFIG_PATH, '[plugins.notify]\nevents = ["status.changed"]\n')
    config = load(tmp_path).config
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.rfd.dir = "elsewhere"  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.models["sonnet"] = "something else"  # type: ignore[index]
    with pytest.raises(TypeError):
        config.plugins.options["notify"]["url"] = "https://example.com"  # type: ignore[index]
    assert config.plugins.options["notify"]["events"] == ("status.changed",)
