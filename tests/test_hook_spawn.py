"""Hooks start git with posix_spawn (subprocess where it is missing): same answers either way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hooks._git import BlobReader, GitFailed, run, start


@pytest.fixture(params=["posix_spawn", "subprocess"])
def spawning(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "subprocess":
        monkeypatch.delattr(os, "posix_spawnp")
    return str(request.param)


def test_git_runs_in_the_repository_given(
    git_repo: Path, spawning: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(git_repo.parent)
    top = run(git_repo, "rev-parse", "--show-toplevel").decode().strip()
    assert Path(top).resolve() == git_repo.resolve()


def test_a_failing_git_says_what_git_said(git_repo: Path, spawning: str) -> None:
    with pytest.raises(GitFailed, match=r"bad revision .no-such-branch."):
        run(git_repo, "log", "no-such-branch", "--")
    assert run(git_repo, "grep", "-l", "no such text", ok=(0, 1)) == b""


def test_gits_running_at_once_do_not_wait_on_each_other(git_repo: Path, spawning: str) -> None:
    """Each git holds only its own pipes: the first one finishes although the second, started
    later, is read first and the blob reader stays open."""
    with BlobReader(git_repo).start() as reader:
        log = start(git_repo, "log", "--format=%s")
        files = start(git_repo, "ls-files")
        assert files() == b"README.md\n"
        assert log() == b"initial\n"
        assert reader.read("HEAD:README.md") == b"# test repo\n"
        assert reader.read("HEAD:missing.md") is None
