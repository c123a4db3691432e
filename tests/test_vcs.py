"""The git edge: whatever a revision holds, it never becomes an option of git."""

from __future__ import annotations

from pathlib import Path

import git
import pytest

from bot.core.vcs import GitVcs


@pytest.mark.parametrize("rev", ["--output={target}", "-o{target}"])
def test_a_revision_shaped_like_an_option_writes_no_file(git_repo: Path, rev: str) -> None:
    target = git_repo.parent / "overwritten"
    with pytest.raises(git.GitCommandError):
        GitVcs(git_repo).diff_since(rev.format(target=target))
    assert not target.exists()


def test_reading_at_an_option_shaped_revision_finds_nothing(git_repo: Path) -> None:
    target = git_repo.parent / "overwritten"
    assert GitVcs(git_repo).read_at(f"--output={target}", "README.md") is None
    assert not target.exists()
    assert GitVcs(git_repo).read_at("HEAD", "README.md") == "# test repo"
