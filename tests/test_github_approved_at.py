"""A sign-off's revision shown as the commit that brought the content it agreed with."""

from __future__ import annotations

from pathlib import Path

from bot.github.approved_at import commits_of
from bot.model.consensus import revision
from tests.conftest import git


def test_each_content_maps_to_the_oldest_commit_that_brought_it(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    rfd = tmp_path / "docs" / "rfd" / "045-x.md"
    rfd.parent.mkdir(parents=True)
    made = []
    for text in ("one\n", "two\n", "one\n"):  # the third commit brings "one" back
        rfd.write_text(text, encoding="utf-8")
        (tmp_path / "other.txt").write_text(str(len(made)), encoding="utf-8")
        git(tmp_path, "add", "-A")
        git(tmp_path, "commit", "-q", "-m", f"c{len(made)}")
        made.append(git(tmp_path, "rev-parse", "HEAD").strip())
    found = commits_of(tmp_path, "docs/rfd/045-x.md")
    assert found == {revision("one\n"): made[0], revision("two\n"): made[1]}


def test_no_history_shows_no_revision_rather_than_a_blob(tmp_path: Path) -> None:
    assert commits_of(tmp_path, "docs/rfd/045-x.md") == {}
