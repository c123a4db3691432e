from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.agent.toolbox.sandbox import Sandbox, matches_any, write_text
from bot.core.errors import PermissionDenied, ValidationError


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / ".git").mkdir()
    (tmp_path / "secret.txt").write_text("outside\n")
    return root


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/app.py", "src/app.py"),
        ("./src/../src/app.py", "src/app.py"),
        ("new/dir/file.txt", "new/dir/file.txt"),
        (".", "."),
    ],
)
def test_paths_inside_the_repository_resolve(repo: Path, path: str, expected: str) -> None:
    sandbox = Sandbox(repo)
    assert sandbox.relative(sandbox.resolve(path)) == expected


@pytest.mark.parametrize("path", ["../secret.txt", "src/../../secret.txt", "/etc/passwd"])
def test_paths_leaving_the_repository_are_refused(repo: Path, path: str) -> None:
    with pytest.raises(PermissionDenied, match="outside the repository"):
        Sandbox(repo).resolve(path)


def test_an_absolute_path_inside_the_repository_is_fine(repo: Path) -> None:
    sandbox = Sandbox(repo)
    assert sandbox.relative(sandbox.resolve(str(repo / "src" / "app.py"))) == "src/app.py"


def test_a_symlink_pointing_outside_is_refused(repo: Path) -> None:
    os.symlink(repo.parent / "secret.txt", repo / "innocent.txt")
    os.symlink(repo.parent, repo / "up")
    sandbox = Sandbox(repo)
    for path in ("innocent.txt", "up/secret.txt"):
        with pytest.raises(PermissionDenied, match="outside"):
            sandbox.resolve(path)


@pytest.mark.parametrize("path", ["", "a\x00b"])
def test_empty_or_nul_paths_are_invalid(repo: Path, path: str) -> None:
    with pytest.raises(ValidationError):
        Sandbox(repo).resolve(path)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (".git/config", "protected"),
        (".git", "protected"),
        (".github/workflows/ci.yml", "protected"),
        ("docs/../.git/hooks/pre-commit", "protected"),
    ],
)
def test_protected_paths_cannot_be_written(repo: Path, path: str, message: str) -> None:
    with pytest.raises(PermissionDenied, match=message):
        Sandbox(repo).writable(path)


def test_protection_is_configurable(repo: Path) -> None:
    sandbox = Sandbox(repo, protected_paths=(".github/workflows/**",))
    assert sandbox.relative(sandbox.writable(".git/info/exclude")) == ".git/info/exclude"


def test_writes_outside_allowed_paths_are_refused(repo: Path) -> None:
    sandbox = Sandbox(repo, allowed_paths=("src/**", "docs/*.md"))
    assert sandbox.writable("src/deep/x.py").name == "x.py"
    assert sandbox.writable("docs/a.md").name == "a.md"
    for path in ("README.md", "docs/sub/b.md"):
        with pytest.raises(PermissionDenied, match="allowed_paths"):
            sandbox.writable(path)


@pytest.mark.parametrize(
    ("rel", "globs", "expected"),
    [
        ("a/b/c.py", ("**",), True),
        ("a/b/c.py", ("a/**",), True),
        ("a", ("a/**",), True),
        ("ab/c", ("a/**",), False),
        ("a/b/c.py", ("*.py",), False),
        ("a/b/c.py", ("**/*.py",), True),
        ("c.py", ("**/*.py",), True),
        ("a/b.txt", ("a/?.txt",), True),
    ],
)
def test_glob_matching(rel: str, globs: tuple[str, ...], expected: bool) -> None:
    assert matches_any(rel, globs) is expected


def test_write_text_creates_parents_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.txt"
    write_text(target, "one\r\ntwo\n")
    assert target.read_bytes() == b"one\r\ntwo\n"
    assert os.listdir(target.parent) == ["b.txt"]


@pytest.mark.parametrize("path", [".git", ".git/config", "vendor/lib/.git/config", "src/../.git"])
def test_git_directories_are_never_readable(repo: Path, path: str) -> None:
    with pytest.raises(PermissionDenied, match="never read"):
        Sandbox(repo, protected_paths=()).readable(path)


def test_everything_else_inside_is_readable(repo: Path) -> None:
    assert Sandbox(repo).readable("src/app.py") == (repo / "src" / "app.py").resolve()
    assert Sandbox(repo).readable(".gitignore") == (repo / ".gitignore").resolve()
