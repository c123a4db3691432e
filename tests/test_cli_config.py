"""``rfd config show``: every key, its value, and the layer (and file) it came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli.assignments import parse_assignments
from bot.cli.main import main
from bot.config.load import CONFIG_PATH, user_config_path


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    user = user_config_path()
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[labels]\nreview = "user-review"\n[steps.review]\nmodel = "haiku"\n')
    (git_repo / ".github").mkdir()
    (git_repo / CONFIG_PATH).write_text(
        '[steps.review]\nmodel = "opus"\n[plugins]\nenabled = ["notify"]\n'
        '[plugins.notify]\nurl = "https://hooks.slack.com/services/T0/B0/secret"\n'
    )
    monkeypatch.setenv("RFD_PROVIDER", "offline")
    return git_repo


def show(repo: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["-C", str(repo), "config", "show", *flags]) == 0
    return capsys.readouterr().out


def test_each_line_says_where_the_value_came_from(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = {line.split(" = ")[0].strip(): line for line in show(repo, capsys).splitlines()}
    assert lines["rfd.dir"].endswith('= "docs/rfd"  # default')
    assert lines["labels.review"].endswith(f'= "user-review"  # user ({user_config_path()})')
    assert lines["steps.review.model"].endswith(f'= "opus"  # repo ({CONFIG_PATH})')
    assert lines["provider.name"].endswith('= "offline"  # env (environment)')
    assert lines["plugins.enabled"].endswith(f'= ["notify"]  # repo ({CONFIG_PATH})')


def test_flags_are_the_last_layer(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = show(repo, capsys, "--set", "steps.review.model=sonnet", "-c", "rfd.dir=rfcs")
    lines = {line.split(" = ")[0].strip(): line for line in out.splitlines()}
    assert lines["steps.review.model"].endswith('= "sonnet"  # cli (command line)')
    assert lines["rfd.dir"].endswith('= "rfcs"  # cli (command line)')


def test_json_and_secrets_stay_hidden(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = {s["key"]: s for s in json.loads(show(repo, capsys, "--json"))["settings"]}
    assert settings["steps.review.model"] == {
        "key": "steps.review.model",
        "value": "opus",
        "source": "repo",
        "file": CONFIG_PATH,
    }
    assert settings["implement.allowed_paths"]["value"] == ["**"]
    assert settings["plugins.notify.url"]["value"] == "<hidden>"
    assert "secret" not in json.dumps(settings)


def test_a_bad_value_is_exit_1_naming_the_key(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(repo), "config", "show", "--set", "steps.review.max_tokens=many"]) == 1
    assert "`steps.review.max_tokens` must be an integer" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("assignments", "expected"),
    [
        (("rfd.dir=rfcs",), {"rfd": {"dir": "rfcs"}}),
        (("a.b=3", "a.c=true"), {"a": {"b": 3, "c": True}}),
        (('plugins.enabled=["notify", "policy"]',), {"plugins": {"enabled": ["notify", "policy"]}}),
        (('x="quoted = fine"',), {"x": "quoted = fine"}),
    ],
)
def test_assignments(assignments: tuple[str, ...], expected: dict[str, Any]) -> None:
    assert parse_assignments(assignments) == expected


def test_plugin_defaults_show_with_their_source(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / CONFIG_PATH).write_text(
        '[plugins]\nenabled = ["judge"]\n[plugins.judge]\nsteps = ["refine"]\n'
    )
    lines = {line.split(" = ")[0].strip(): line for line in show(repo, capsys).splitlines()}
    assert lines["plugins.judge.model"].endswith('= "sonnet"  # default')
    assert lines["plugins.judge.steps"].endswith(f'= ["refine"]  # repo ({CONFIG_PATH})')


def test_a_bad_plugin_option_is_exit_1_naming_file_line_plugin_and_key(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / CONFIG_PATH).write_text("[plugins.policy]\nbogus = 1\n")
    assert main(["-C", str(repo), "config", "show"]) == 1
    err = capsys.readouterr().err
    assert f"{CONFIG_PATH}:2: plugin `policy`: unknown key `plugins.policy.bogus`" in err


def test_root_set_is_the_cli_layer_of_every_command(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["-C", str(repo), "--set", "steps.review.model=haiku", "--set", "rfd.dir=rfcs"]
    assert main([*argv, "config", "show", "--set", "rfd.dir=specs"]) == 0
    lines = {line.split(" = ")[0].strip(): line for line in capsys.readouterr().out.splitlines()}
    assert lines["steps.review.model"].endswith('= "haiku"  # cli (command line)')
    assert lines["rfd.dir"].endswith('= "specs"  # cli (command line)')  # the command's own wins


def test_model_flag_enters_the_configuration_of_its_step(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from collections.abc import Mapping

    from bot.config.load import Config
    from bot.lifecycle.workspace import make_providers
    from bot.llm.select import Providers

    seen: list[Config] = []

    def recording(config: Config, environ: Mapping[str, str]) -> Providers:
        seen.append(config)
        return make_providers(config, environ)  # no key in the tests: every step is offline

    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", recording)
    argv = ["-C", str(repo), "--set", "steps.refine.max_tokens=300"]
    assert main([*argv, "implement", "1", "--model", "haiku"]) == 1  # offline: stops at once
    assert main([*argv, "refine", "1"]) == 1
    implement, refine = seen
    assert implement.steps.implement.model == "haiku"
    assert refine.steps.implement.model == "opus" and refine.steps.refine.max_tokens == 300
