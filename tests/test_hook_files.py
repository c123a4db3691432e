"""What the hooks read: never through a symlink out of the repository, never without bound,
never a file name with a control character left unchecked (hooks/_files.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hooks import rfd_lint, rfd_state, rfd_status
from hooks._files import MAX_BYTES
from tests.conftest import git
from tests.hooks_support import STATE, commit, plan_json, rfd, run_hook, staged, write

A = "docs/rfd/001-alpha.md"
PLAN = f"{STATE}/001/plan.json"
SECRET = "DB_PASSWORD=hunter2-from-the-ci-environment"


@pytest.fixture
def repo(git_repo: Path) -> Path:
    commit(git_repo, {A: rfd("001", "Discussion")})
    return git_repo


def link(repo: Path, rel: str, target: str | Path) -> str:
    """Stage ``rel`` as a symlink to ``target``."""
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    git(repo, "add", rel)
    return rel


def test_a_state_file_linked_out_of_the_repository_is_refused_unread(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "ci.env"
    outside.write_text(f'[{{"title": "{SECRET}"\n', encoding="utf-8")  # broken JSON, quoted
    link(repo, PLAN, outside)
    code, out = run_hook(rfd_state.main, repo, [PLAN], monkeypatch, capsys)
    assert code == 1
    assert f"{PLAN}: is a symlink to a file outside the repository" in out
    assert "hunter2" not in out and str(outside) not in out


def test_an_rfd_linked_to_dev_zero_is_refused_at_once(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rel = link(repo, "docs/rfd/002-zero.md", "/dev/zero")
    code, out = run_hook(rfd_lint.main, repo, [rel], monkeypatch, capsys)
    assert code == 1
    assert f"{rel}: is a symlink to a file outside the repository" in out


def test_a_pipe_in_the_repository_does_not_hang_a_hook(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo(repo / "docs/rfd/002-pipe.md")
    code, out = run_hook(rfd_lint.main, repo, ["docs/rfd/002-pipe.md"], monkeypatch, capsys)
    assert code == 1
    assert "docs/rfd/002-pipe.md: is not a regular file" in out


def test_a_link_inside_the_repository_is_read(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, {f"{STATE}/001/plan.source.json": plan_json()})
    link(repo, PLAN, "plan.source.json")
    assert run_hook(rfd_state.main, repo, [PLAN], monkeypatch, capsys) == (0, "")


def test_an_oversized_rfd_is_an_error_not_a_read(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, {A: rfd("001", "Discussion") + "x" * MAX_BYTES})
    code, out = run_hook(rfd_lint.main, repo, [A], monkeypatch, capsys)
    assert code == 1
    assert f"{A}: is larger than {MAX_BYTES} bytes" in out


def test_an_oversized_blob_of_a_pushed_commit_is_an_error(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    head = commit(repo, {A: rfd("001", "Accepted") + "x" * MAX_BYTES})
    args = ["--from-ref", base, "--to-ref", head]
    code, out = run_hook(rfd_status.main, repo, args, monkeypatch, capsys)
    assert code == 1
    assert f"{A}: is larger than {MAX_BYTES} bytes" in out


def test_a_deeply_nested_plan_is_a_clear_error(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, {PLAN: "[" * 200_000 + "]" * 200_000})
    code, out = run_hook(rfd_state.main, repo, [PLAN], monkeypatch, capsys)
    assert code == 1
    assert f"{PLAN}: plan is nested too deeply" in out
    assert "Traceback" not in out


def test_a_new_rfd_with_a_newline_in_its_name_cannot_be_born_implemented(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, {"docs/rfd/002-beta\n.md": rfd("002", "Implemented"), "README.md": "more\n"})
    assert "docs/rfd/002-beta\n.md" in staged(repo)
    for args in (["README.md"], staged(repo), []):  # whatever pre-commit passes
        code, out = run_hook(rfd_status.main, repo, args, monkeypatch, capsys)
        assert code == 1, args
        assert "docs/rfd/002-beta\\n.md: file name holds a control character" in out


@pytest.mark.parametrize("name", ["reviews/17215\t00000.md", "phases/1\x1b[2J.md"])
def test_a_state_file_name_with_a_control_character_is_an_error(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = f"{STATE}/001/{name}"
    write(repo, {path: "text\n"})
    code, out = run_hook(rfd_state.main, repo, [path], monkeypatch, capsys)
    assert code == 1
    assert f"{repr(path)[1:-1]}: file name holds a control character" in out
    assert "\x1b" not in out


def test_rfd_lint_names_an_rfd_file_with_a_control_character(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, {"docs/rfd/002-beta\r.md": rfd("002")})
    code, out = run_hook(rfd_lint.main, repo, ["docs/rfd/002-beta\r.md"], monkeypatch, capsys)
    assert code == 1
    assert "docs/rfd/002-beta\\r.md: file name holds a control character" in out


def test_a_configuration_linked_to_dev_zero_is_an_error_not_a_hang(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    link(repo, ".github/rfd.toml", "/dev/zero")
    code, out = run_hook(rfd_lint.main, repo, [A], monkeypatch, capsys)
    assert code == 1
    assert ".github/rfd.toml: is a symlink to a file outside the repository" in out
