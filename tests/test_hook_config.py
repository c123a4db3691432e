"""The hooks' fast reading of ``.github/rfd.toml`` gives bot.config.load's answer, or defers
to it."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from bot.config.load import (
    _ENV_KEYS,
    CATEGORIES,
    CONFIG_PATH,
    SHAPES,
    Config,
    ConsensusSection,
    PluginsSection,
    load_config,
)
from bot.core.errors import ConfigError
from bot.lifecycle.repo_setup import CONFIG_TEMPLATE
from bot.model.lint_codes import RULES
from hooks._common import Layout, load_layout, load_settings, settings_of
from hooks._config import (
    ENV_VARS,
    LEAVES,
    LIST_OF_STATUS,
    LIST_OF_STR,
    Check,
    _simple,
    parse,
    rfd_section,
    severity_leaves,
)

MAPPING_KEYS = {"lint.severity": tuple(RULES), "lint.required_sections": CATEGORIES}
"""Tables whose keys bot.config.load checks against a list: the reader knows each key."""

CHECKOUT = Path(__file__).resolve().parent.parent

FAST = {
    "rfd init's file": CONFIG_TEMPLATE,
    "empty": "",
    "other layout": '[rfd]\ndir = "design/rfcs/"\ndrafts_dir = "wip/"\nstate_dir = "st"\n',
    "every plain key": """
        [provider]
        name = "openai"
        timeout_seconds = 30
        max_retries = 0
        [models]
        fast = "gpt-5-mini"
        [steps.implement]
        budget_usd = 2.5
        [accept]
        allow_author = true
        min_permission = "admin"
        [bot]
        allowed_bots = ["renovate[bot]"]
        [implement]
        protected_paths = [".git/**"]
        max_items = 12
        [lint.severity]
        RFD012 = "warning"
        [lint.required_sections]
        design = ["Summary"]
        [process]
        new_statuses = ["Draft", "Accepted"]
        implemented_needs_phases = false
    """,
}
DEFERRED_VALID = {
    "bot.login has a pattern": '[bot]\nlogin = "my-app[bot]"\n',
    "rfd.main_branch has a shape": '[rfd]\nmain_branch = "trunk"\n',
    "plugins": '[plugins]\nenabled = ["notify"]\n[plugins.notify]\nevents = ["x"]\n',
    "hyphenated key": '[rfd]\ndrafts-dir = "wip"\n',
    "nan budget": "[steps.review]\nbudget_usd = nan\n",
}
INVALID = {
    "unknown key": "[rfd]\ndirr = 'x'\n",
    "unknown table": "[rdf]\ndir = 'x'\n",
    "wrong type": "[rfd]\ndir = 3\n",
    "negative number": "[provider]\nmax_retries = -1\n",
    "a bool for an int": "[bot]\nwrite_burst = true\n",
    "an int for a bool": "[accept]\nallow_author = 1\n",
    "not a literal": '[provider]\nname = "gpt"\n',
    "not a list of strings": "[implement]\nallowed_paths = [1]\n",
    "a table where a value goes": "[labels.review]\nx = 1\n",
    "a value where a table goes": 'steps = "fast"\n',
    "outside the repository": '[rfd]\ndir = "../elsewhere"\n',
    "absolute": '[rfd]\nstate_dir = "/var/state"\n',
    "windows drive": '[rfd]\ndir = "C:/rfds"\n',
    "bad login": '[bot]\nlogin = "not a login"\n',
    "a branch that is an option": '[rfd]\nmain_branch = "--output=/some/file"\n',
    "a branch git refuses": '[rfd]\nmain_branch = "a..b"\n',
    "a directory with a newline": '[rfd]\ndir = "docs\\nrfd"\n',
    "a directory that is an option": '[rfd]\nstate_dir = "--git-dir=x"\n',
    "an environment variable name": '[provider]\napi_key_env = "A B"\n',
    "a base URL that is not http": '[provider]\nbase_url = "file:///etc/passwd"\n',
    "a verify command on two lines": '[implement]\nverify = "pytest\\nrm -rf docs"\n',
    "not TOML": "[rfd\n",
    "unknown lint code": '[lint.severity]\nRFD999 = "off"\n',
    "unknown severity": '[lint.severity]\nRFD012 = "fatal"\n',
    "unknown category": '[lint.required_sections]\nessay = ["Summary"]\n',
    "unknown status": '[process]\nnew_statuses = ["Approved"]\n',
    "not a table of plugin options": "[plugins]\nnotify = 1\n",
}


def configured(root: Path, text: str) -> Path:
    (root / CONFIG_PATH).parent.mkdir(parents=True, exist_ok=True)
    (root / CONFIG_PATH).write_text(text.replace("\n        ", "\n"), encoding="utf-8")
    return root


@pytest.mark.parametrize("text", FAST.values(), ids=FAST.keys())
def test_a_plain_file_is_read_without_bot_config_with_the_same_layout(
    tmp_path: Path, text: str
) -> None:
    root = configured(tmp_path, text)
    assert rfd_section(root, CONFIG_PATH) is not None
    assert load_layout(root) == Layout.of(load_config(root))
    fast, slow = load_settings(root), settings_of(load_config(root))
    assert (fast.process, fast.lint) == (slow.process, slow.lint)  # [process], [lint] too


@pytest.mark.parametrize("text", DEFERRED_VALID.values(), ids=DEFERRED_VALID.keys())
def test_an_unusual_valid_file_is_left_to_bot_config(tmp_path: Path, text: str) -> None:
    root = configured(tmp_path, text)
    assert rfd_section(root, CONFIG_PATH) is None
    assert load_layout(root) == Layout.of(load_config(root))


@pytest.mark.parametrize("text", INVALID.values(), ids=INVALID.keys())
def test_an_invalid_file_fails_with_bot_configs_message(tmp_path: Path, text: str) -> None:
    root = configured(tmp_path, text)
    assert rfd_section(root, CONFIG_PATH) is None
    with pytest.raises(ConfigError) as expected:
        load_config(root)
    with pytest.raises(ConfigError) as got:
        load_layout(root)
    assert str(got.value) == str(expected.value)
    assert str(got.value).startswith(CONFIG_PATH)


@pytest.mark.parametrize("var", ENV_VARS)
def test_an_rfd_variable_leaves_the_answer_to_bot_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, var: str
) -> None:
    root = configured(tmp_path, CONFIG_TEMPLATE)
    values = {"RFD_PROVIDER": "bogus", "RFD_BASE_URL": "http://localhost:8000/v1"}
    monkeypatch.setenv(var, values.get(var, "rfcs"))
    assert rfd_section(root, CONFIG_PATH) is None
    if var == "RFD_PROVIDER":
        with pytest.raises(ConfigError, match=r"provider\.name"):
            load_layout(root)
    else:
        assert load_layout(root) == Layout.of(load_config(root))


def test_the_reader_knows_every_plain_key_of_the_schema_and_no_other() -> None:
    assert schema_leaves(Config, "") == {**LEAVES, **severity_leaves()}
    assert tuple(_ENV_KEYS) == ENV_VARS


def schema_leaves(cls: type[Any], prefix: str) -> dict[str, Check]:
    """What bot.config.load's dataclasses say: every key with a plain check, by dotted name."""
    out: dict[str, Check] = {}
    hints = typing.get_type_hints(cls)
    for f in fields(cls):
        key, tp = prefix + f.name, hints[f.name]
        origin = typing.get_origin(tp)
        if tp in (PluginsSection, ConsensusSection) or key in SHAPES:
            continue  # checked by bot.config.load alone
        if is_dataclass(tp):
            out.update(schema_leaves(tp, key + "."))  # type: ignore[arg-type]
        elif origin is Literal:
            out[key] = typing.get_args(tp)
        elif origin is tuple:
            item = typing.get_args(tp)[0]
            out[key] = LIST_OF_STATUS if typing.get_origin(item) is Literal else LIST_OF_STR
        elif origin is Mapping and key in MAPPING_KEYS:
            value = typing.get_args(tp)[1]
            check = typing.get_args(value) if typing.get_origin(value) is Literal else LIST_OF_STR
            out.update({f"{key}.{name}": check for name in MAPPING_KEYS[key]})
        elif origin is Mapping:
            value = typing.get_args(tp)[1]
            literal = typing.get_origin(value) is Literal
            listed = typing.get_origin(value) is tuple
            out[key + ".*"] = (
                typing.get_args(value) if literal else LIST_OF_STR if listed else value
            )
        else:
            out[key] = tp
    return out


def test_a_hook_in_a_repo_set_up_by_rfd_init_loads_neither_bot_config_nor_tomllib(
    tmp_path: Path,
) -> None:
    configured(tmp_path, CONFIG_TEMPLATE.replace('"docs/rfd"', '"rfcs"'))
    (tmp_path / "rfcs").mkdir()
    (tmp_path / "rfcs/001-a.md").write_text("# Not an RFD header\n")
    script = (
        "import sys; from hooks.rfd_lint import main; code = main(['rfcs/001-a.md']); "
        "print(code, 'bot.config.load' in sys.modules, 'tomllib' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout.split()[-3:] == ["1", "False", "False"]  # the configured dir is linted


SIMPLE = {
    "rfd init's file": CONFIG_TEMPLATE,
    "comments only": "# nothing set\n\n   # indented\t comment\n",
    "nested tables": '[steps.review]\nmodel = "opus"\n[steps.draft]\nmodel = ""\n',
    "table after its sub-table's parent": '[steps]\n[steps.review]\nmodel = "x"  # a comment\n',
}
NOT_SIMPLE = {  # left to tomllib, which reads them (or rejects them) as TOML says
    "a number": "[provider]\nmax_retries = 3\n",
    "an escape": '[rfd]\ndir = "docs\\\\rfd"\n',
    "a literal string": "[rfd]\ndir = 'docs/rfd'\n",
    "a dotted key": '[rfd]\nstate.dir = "x"\n',
    "windows line ends": '[rfd]\r\ndir = "x"\r\n',
    "parent table after a sub-table": '[steps.review]\nmodel = "x"\n[steps]\n',
    "a table repeated": '[rfd]\ndir = "a"\n[rfd]\nmain_branch = "b"\n',
    "a key repeated": '[rfd]\ndir = "a"\ndir = "b"\n',
    "a table over a key": '[steps]\nreview = "x"\n[steps.review]\n',
    "an unclosed header": "[rfd\n",
    "a tab in a string": '[rfd]\ndir = "a\tb"\n',
}


@pytest.mark.parametrize("text", SIMPLE.values(), ids=SIMPLE.keys())
def test_a_simple_file_is_read_as_tomllib_reads_it(text: str) -> None:
    assert _simple(text) is not None
    assert parse(text.encode()) == tomllib.loads(text)


@pytest.mark.parametrize("text", NOT_SIMPLE.values(), ids=NOT_SIMPLE.keys())
def test_any_other_file_is_left_to_tomllib(text: str) -> None:
    assert _simple(text) is None
    try:
        expected: dict[str, Any] | None = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        expected = None
    assert parse(text.encode()) == expected
