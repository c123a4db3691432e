"""``rfd plugins`` through the real entry point."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.config.load import CONFIG_PATH


def configure(repo: Path, toml: str) -> None:
    (repo / CONFIG_PATH).parent.mkdir(parents=True, exist_ok=True)
    (repo / CONFIG_PATH).write_text(toml)


def test_lists_every_installed_plugin_with_what_it_sees_and_touches(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(git_repo, '[plugins]\nenabled = ["policy"]\n')
    assert main(["-C", str(git_repo), "plugins"]) == 0
    out = capsys.readouterr().out
    # "(built-in)" from a source checkout, "(rfd-bot 0.1.0)" once installed
    assert re.search(r"^policy +enabled +\((built-in|rfd-bot [\d.]+)\)$", out, re.M)
    assert re.search(r"^notify +disabled +\((built-in|rfd-bot [\d.]+)\)$", out, re.M)
    assert "events: tool_call.intercept; intercepts: every tool" in out
    assert "events: all (observe only); intercepts: nothing" in out  # event-log
    assert "events: result.ready; intercepts: result.ready" in out  # judge
    assert "none enabled" not in out


def test_json_lists_declarations_and_schemas(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(git_repo), "plugins", "--json"]) == 0
    plugins = {p["name"]: p for p in json.loads(capsys.readouterr().out)["plugins"]}
    assert sorted(plugins) == ["event-log", "judge", "notify", "policy"]
    assert not any(p["enabled"] for p in plugins.values())
    assert plugins["judge"]["events"] == ["result.ready"]
    assert plugins["judge"]["intercepts"] == ["result.ready"]
    assert "criteria" in plugins["judge"]["options_schema"]["properties"]


def test_says_how_to_enable_one_when_none_is(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(git_repo), "plugins"]) == 0
    assert "none enabled — add names to `enabled` under [plugins]" in capsys.readouterr().out


def test_a_bad_plugin_option_is_exit_1_naming_file_line_plugin_and_key(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(git_repo, "[plugins]\nenabled = []\n\n[plugins.policy]\nbogus = 1\n")
    assert main(["-C", str(git_repo), "plugins"]) == 1
    err = capsys.readouterr().err
    assert f"{CONFIG_PATH}:5: plugin `policy`: unknown key `plugins.policy.bogus`" in err
