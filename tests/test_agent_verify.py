"""``implement.verify``: which command checks an item, and what its answer means."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.agent.implementation.item import command_for, detect, verify
from bot.config.load import Config
from bot.core.errors import ConfigError
from tests.agent_support import make_repo

NPM_INIT = '{"scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}'


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({"tests/test_mod.py": "def test(): pass\n"}, "pytest -q"),
        ({"pkg/tests/unit/mod_test.py": ""}, ""),  # only tests/ and test/ at the root count
        ({"test/unit/mod_test.py": ""}, "pytest -q"),
        ({"pyproject.toml": "[tool.pytest.ini_options]\n"}, "pytest -q"),
        ({"conftest.py": ""}, "pytest -q"),
        ({"Makefile": "all:\n\tcc x.c\ntest: all\n\t./run\n"}, "make test"),
        ({"Makefile": "test := no\n"}, ""),
        ({"package.json": '{"scripts": {"test": "jest"}}'}, "npm test"),
        ({"package.json": NPM_INIT}, ""),
        ({"package.json": "not json"}, ""),
        ({"Makefile": "test:\n\tx\n", "tests/test_a.py": ""}, "pytest -q"),
        ({"README.md": "# hi\n"}, ""),
    ],
)
def test_the_usual_test_command_is_detected(
    tmp_path: Path, files: dict[str, str], command: str
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert detect(tmp_path) == command


def test_a_configured_command_wins_and_empty_turns_the_check_off(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("")
    assert command_for(tmp_path, "auto") == "pytest -q"
    assert command_for(tmp_path, "make check") == "make check"
    assert command_for(tmp_path, "") == ""


def test_a_failing_check_gives_its_exit_code_and_the_end_of_its_output(tmp_path: Path) -> None:
    ctx = make_repo(tmp_path, Config()).tool_context()
    script = "import sys; print('x' * 5000); print('3 failed'); sys.exit(3)"
    verdict = verify(ctx, f'{sys.executable} -c "{script}"')
    assert not verdict.passed
    assert verdict.reason.endswith("failed (exit code 3)")
    assert verdict.detail.endswith("3 failed\n") and len(verdict.detail) == 3000
    assert verify(ctx, f"{sys.executable} -c pass").passed


def test_a_check_that_cannot_start_stops_the_step_with_what_to_set(tmp_path: Path) -> None:
    ctx = make_repo(tmp_path, Config()).tool_context()
    with pytest.raises(ConfigError, match=r"implement.verify: `no-such-tool-x` is not installed"):
        verify(ctx, "no-such-tool-x --all")


def test_where_nothing_isolates_the_check_runs_only_when_a_person_says_yes(
    tmp_path: Path,
) -> None:
    from bot.config.load import ImplementSection
    from bot.core.errors import PermissionDenied

    config = Config(implement=ImplementSection(isolation="none"))
    ctx = make_repo(tmp_path, config).tool_context()
    failing = f'{sys.executable} -c "import sys; sys.exit(2)"'
    asked: list[str] = []
    verdict = verify(ctx, failing, lambda line: asked.append(line) or True)
    assert asked and asked[0].endswith("sys.exit(2)'") and verdict.reason.endswith("(exit code 2)")
    with pytest.raises(PermissionDenied, match="refused"):
        verify(ctx, failing, lambda line: False)
    with pytest.raises(PermissionDenied, match="refused"):
        verify(ctx, failing)  # nobody to ask: fail closed
