from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from bot.agent.toolbox.commands import check, program
from bot.agent.toolbox.sandbox import Sandbox
from bot.core.argv import path_words
from bot.core.errors import PermissionDenied

PROTECTED = (".git/**", ".github/workflows/**", "migrations/**")


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "migrations").mkdir()
    (root / "escape").symlink_to(tmp_path)
    return Sandbox(root, protected_paths=PROTECTED)


ALLOWED = [
    ("pytest", 1),
    ("pytest -q -x tests/test_a.py::test_one", 1),
    ("pytest -k 'not slow and a/b' tests", 1),
    ("pytest -rA -vv --tb=short --basetemp=tmp/pt", 1),
    ("python -m pytest tests/../tests", 3),
    ("ruff check --fix src/app.py", 1),
    ("ruff format --check .", 1),
    ("make test", 2),
    ("make test -j2 -k", 2),
]

REFUSED = [
    ("ruff check --fix /etc", 1, "`/etc` is outside the repository"),
    ("ruff check --fix ../other", 1, "`../other` is outside"),
    ("ruff check escape/secret.txt", 1, "`escape/secret.txt` is outside"),
    ("ruff check ~/project", 1, "home directory"),
    ("ruff check --config /tmp/ruff.toml", 1, "`--config` changes where `ruff` works"),
    ("ruff check --config=ruff.toml", 1, "changes where `ruff` works"),
    ("ruff check --fix migrations/x.py", 1, "names `migrations/x.py`, which is protected"),
    ("ruff check --fix migrations", 1, "which is protected"),
    ("ruff format .git/hooks/pre-commit", 1, "is protected"),
    ("ruff format .github/workflows/ci.yml", 1, "is protected"),
    ("make test -C /", 2, "`-C` changes where `make` works"),
    ("make test -C/", 2, "`-C/` changes where `make` works"),
    ("make test -kC/", 2, "`-kC/` is outside the repository"),
    ("make test -kf../evil.mk", 2, "is outside the repository"),
    ("make test -f /tmp/evil.mk", 2, "`-f` changes where `make` works"),
    ("make test --directory=sub", 2, "changes where `make` works"),
    ("make test --makefile=x.mk", 2, "changes where `make` works"),
    ("make test -I inc", 2, "changes where `make` works"),
    ("make test --eval=x:", 2, "changes where `make` works"),
    ("make test PYTEST=rm", 2, "overrides a make variable"),
    ("pytest /somewhere/else", 1, "`/somewhere/else` is outside"),
    ("python -m pytest --rootdir=/ tests", 3, "`--rootdir=/` changes where `pytest` works"),
    ("pytest -c /dev/null", 1, "`-c` changes where `pytest` works"),
    ("pytest --confcutdir=..", 1, "changes where `pytest` works"),
    ("pytest -p evil_plugin", 1, "`-p` changes where `pytest` works"),
    ("pytest --pyargs os", 1, "changes where `pytest` works"),
    ("pytest -o cache_dir=/tmp/c", 1, "`-o` changes where `pytest` works"),
    ("pytest --basetemp=/tmp/x", 1, "`--basetemp=/tmp/x` is outside"),
    ("pytest --junitxml=../report.xml", 1, "is outside"),
]


@pytest.mark.parametrize(("command", "prefix"), ALLOWED)
def test_arguments_inside_the_repository_are_allowed(
    sandbox: Sandbox, command: str, prefix: int
) -> None:
    check(shlex.split(command), prefix, sandbox)


@pytest.mark.parametrize(("command", "prefix", "reason"), REFUSED)
def test_arguments_reaching_outside_or_into_protected_paths_are_refused(
    sandbox: Sandbox, command: str, prefix: int, reason: str
) -> None:
    with pytest.raises(PermissionDenied, match="refused: argument") as info:
        check(shlex.split(command), prefix, sandbox)
    assert reason in info.value.message


def test_the_prefix_itself_is_not_checked(sandbox: Sandbox) -> None:
    check(["/usr/bin/python3", "-m", "pytest", "tests"], 3, sandbox)


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["pytest"], "pytest"),
        ([".venv/bin/pytest", "-q"], "pytest"),
        (["python3", "-m", "pytest"], "pytest"),
        (["/usr/bin/make", "test"], "make"),
    ],
)
def test_the_program_is_recognised_however_it_is_started(argv: list[str], name: str) -> None:
    assert program(argv) == name


@pytest.mark.parametrize(
    ("argument", "words"),
    [
        ("tests/a.py", ["tests/a.py"]),
        ("--rootdir=/", ["/"]),
        ("-C/", ["/"]),
        ("-kC/", ["C/", "/"]),
        ("-ocache_dir=/tmp", ["/tmp"]),
        ("VAR=/etc", ["VAR=/etc", "/etc"]),
        ("-q", []),
        ("--tb", []),
    ],
)
def test_path_words_of_an_argument(argument: str, words: list[str]) -> None:
    assert list(path_words(argument)) == words


@pytest.mark.parametrize(
    "command", ["pytest --basetemp=docs", "pytest --basetemp docs", "pytest --basetemp=."]
)
def test_pytest_may_not_empty_a_directory_holding_tracked_files(
    tmp_path: Path, command: str
) -> None:
    from tests.conftest import git

    (tmp_path / "docs" / "rfd").mkdir(parents=True)
    (tmp_path / "docs" / "rfd" / "001-a.md").write_text("# RFD 001: A\n", encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    with pytest.raises(PermissionDenied, match="holds files git tracks"):
        check(shlex.split(command), 1, Sandbox(tmp_path))
    check(shlex.split("pytest --basetemp=tmp/pt"), 1, Sandbox(tmp_path))  # a fresh one is fine
