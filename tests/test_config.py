from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from bot.config import load as config
from bot.config.load import CONFIG_PATH, load, user_config_path
from bot.core.errors import ConfigError


def test_defaults_without_a_file(tmp_path: Path) -> None:
    cfg = config.load_config(tmp_path)
    assert cfg.rfd_dir == "docs/rfd"
    assert cfg.state_root == "docs/rfd/.state"
    assert cfg.labels.review == "rfd:review"


def test_aliases_resolve_per_step_and_override() -> None:
    cfg = config.parse('[steps.review]\nmodel = "opus"\n[models]\nopus = "claude-opus-9"\n')
    assert cfg.model_for("review") == "claude-opus-9"
    assert cfg.model_for("review", "haiku") == "claude-haiku-4-5"
    assert cfg.model_for("explore", "some-raw-id") == "some-raw-id"


def test_a_step_table_with_only_a_budget_keeps_the_step_model() -> None:
    cfg = config.parse("[steps.implement]\nbudget_usd = 2.0\n")
    assert cfg.model_for("implement") == "claude-opus-5-5"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[rfd]\nbogus = 1\n", "unknown key `rfd.bogus`"),
        ("[nope]\n", "unknown key `nope`"),
        ('[steps.review]\nmax_tokens = "many"\n', "`steps.review.max_tokens` must be an integer"),
        ('[provider]\nname = "gpt"\n', "`provider.name` must be one of"),
        ("[bot]\nallowed_bots = 3\n", "`bot.allowed_bots` must be a list"),
        ('[bot]\nlogin = "@rfd bot"\n', "`bot.login` must be a GitHub login"),
        ("[bot]\nlogin = 7\n", "`bot.login` must be a string"),
        ("[accept]\nallow_author = 1\n", "`accept.allow_author` must be true or false"),
        ('[review]\ninline = "yes"\n', "`review.inline` must be true or false"),
        ("[steps.review]\nbudget_usd = -1\n", "must not be negative"),
        ("[plugins]\nnotify = 3\n", "must be a table of plugin options"),
        ("rfd = [\n", "is not valid TOML"),
    ],
)
def test_bad_values_name_the_key_and_the_file(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as exc:
        config.parse(text, ".github/rfd.toml")
    assert expected in str(exc.value)
    assert str(exc.value).startswith(".github/rfd.toml")


@pytest.mark.parametrize("login", ["github-actions[bot]", "rfd-helper[bot]", "rfd-machine-user"])
def test_bot_login_takes_actions_app_and_machine_user_accounts(login: str) -> None:
    assert config.parse(f'[bot]\nlogin = "{login}"\n').bot.login == login


def test_unknown_key_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError) as exc:
        config.parse("[labels]\nreveiw = 'x'\n")
    assert exc.value.hint is not None and "review" in exc.value.hint


def test_layers_merge_in_order_and_remember_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/rfd.toml").write_text('[rfd]\ndir = "rfcs"\n[labels]\nreview = "r"\n')
    user = tmp_path / "user"
    user.mkdir()
    (user / "config.toml").write_text('[labels]\naccept = "user-accept"\nreview = "user"\n')
    monkeypatch.setenv("RFD_CONFIG_HOME", str(user))
    monkeypatch.setenv("RFD_PROVIDER", "offline")
    resolved = config.load(tmp_path, user=True, cli={"steps": {"review": {"model": "opus"}}})
    cfg = resolved.config
    assert (cfg.rfd_dir, cfg.labels.review, cfg.labels.accept) == ("rfcs", "r", "user-accept")
    assert cfg.provider.name == "offline"
    assert resolved.sources["labels.review"] == "repo"
    assert resolved.sources["labels.accept"] == "user"
    assert resolved.sources["provider.name"] == "env"
    assert resolved.sources["steps.review.model"] == "cli"


def test_error_in_a_layer_names_that_layer(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/rfd.toml").write_text("[labels]\nbad = 1\n")
    with pytest.raises(ConfigError, match=r"^\.github/rfd\.toml:2: unknown key `labels\.bad`"):
        config.load(tmp_path)


def test_config_is_frozen() -> None:
    cfg = config.parse("")
    with pytest.raises(AttributeError):
        cfg.rfd = config.RfdSection(dir="x")  # type: ignore[misc]


def test_every_key_is_documented() -> None:
    keys = config.schema_keys()
    assert keys[0][:2] == ("rfd.dir", "'docs/rfd'")
    undocumented = [k for k, _, doc in keys if not doc and not k.startswith("steps.")]
    assert undocumented == []


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


@pytest.mark.parametrize(
    ("key", "value", "inside"),
    [
        ("dir", "../x", "the repository"),
        ("dir", "/srv/elsewhere", "the repository"),
        ("dir", "docs/../../x", "the repository"),
        ("state_dir", "../../state", "`rfd.dir`"),
        ("drafts_dir", "/tmp/drafts", "`rfd.dir`"),
    ],
)
def test_rfd_directories_outside_the_repository_are_refused(
    git_repo: Path, capsys: pytest.CaptureFixture[str], key: str, value: str, inside: str
) -> None:
    from bot.cli.main import main

    (git_repo / ".github").mkdir()
    (git_repo / CONFIG_PATH).write_text(f'[rfd]\n{key} = "{value}"\n')
    assert main(["-C", str(git_repo), "list"]) == 1
    err = capsys.readouterr().err
    assert f"{CONFIG_PATH}:2: `rfd.{key}` = '{value}' points outside {inside}" in err
    assert f"set `rfd.{key}` to a relative path" in err


def test_rfd_dir_from_the_environment_must_stay_inside_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RFD_DIR", "../other-repo/rfds")
    with pytest.raises(ConfigError, match=r"environment: `rfd.dir` = '../other-repo/rfds'"):
        load(tmp_path)
    monkeypatch.setenv("RFD_DIR", "design/rfds")
    assert load(tmp_path).config.rfd_dir == "design/rfds"


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('main_branch = "--output=/some/file"', "rfd.main_branch"),
        ('main_branch = "a..b"', "rfd.main_branch"),
        ('main_branch = "topic.lock"', "rfd.main_branch"),
        ('main_branch = "a b"', "rfd.main_branch"),
        ('dir = "docs\\nrfd"', "rfd.dir"),
        ('state_dir = "--git-dir=x"', "rfd.state_dir"),
    ],
)
def test_a_value_that_could_become_an_option_names_key_file_and_line(line: str, key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config.parse(f"# settings\n[rfd]\n{line}\n")
    assert (caught.value.path, caught.value.line) == (".github/rfd.toml", 3)
    assert f"`{key}`" in caught.value.message


@pytest.mark.parametrize("branch", ["main", "trunk", "release/2.x", "feature/rfd-045", "v1.2"])
def test_branches_git_accepts_are_accepted(branch: str) -> None:
    assert config.parse(f'[rfd]\nmain_branch = "{branch}"\n').rfd.main_branch == branch


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[provider]\napi_key_env = "KEY; rm -rf"\n', "provider.api_key_env"),
        ('[provider]\nbase_url = "file:///etc/passwd"\n', "provider.base_url"),
    ],
)
def test_provider_values_have_their_shape(text: str, key: str) -> None:
    with pytest.raises(ConfigError, match=rf"^\.github/rfd\.toml:2: `{re.escape(key)}` must be"):
        config.parse(text)


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        (
            '[consensus]\nreviewers = ["alice", "a b"]\n',
            2,
            "`consensus.reviewers[1]` must be a GitHub login (`alice`) or a team",
        ),
        ("[consensus]\napprovals = 2\n", 1, "`consensus.reviewers` must name at least one"),
        (
            '[consensus]\nreviewers = ["a"]\napprovals = 0\n',
            3,
            '`consensus.approvals` must be 1 or more, or "all"',
        ),
        ('[consensus]\nreviewers = ["a"]\nfcp = 3\n', 3, "unknown key `consensus.fcp`"),
    ],
)
def test_consensus_is_checked_strictly_with_file_and_line(
    tmp_path: Path, text: str, line: int, expected: str
) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / CONFIG_PATH).write_text(text)
    with pytest.raises(ConfigError, match=re.escape(expected)) as err:
        load(tmp_path)
    assert err.value.location == f"{CONFIG_PATH}:{line}"


def test_without_a_consensus_table_nothing_is_asked() -> None:
    assert not config.parse("").consensus.enabled
    found = config.parse('[consensus]\nreviewers = ["alice", "@org/team"]\n').consensus
    assert found.enabled and found.approvals == "all" and found.fcp_days == 0
