"""Which files of a pull request are RFDs: the repository's templates are not; a numbered
directory's document is, and another file in that directory changes its RFD."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config.load import Config, parse
from bot.forge.base import ChangedFile
from bot.github.checkout import changed_rfds
from tests.github_world import write


def found(files: list[ChangedFile], cfg: Config, root: Path) -> list[tuple[str, str, str]]:
    return [(str(c.file.rfd_id), c.file.path, c.status) for c in changed_rfds(files, cfg, root)]


def test_a_pull_request_changing_a_template_changes_no_rfd(tmp_path: Path) -> None:
    files = [
        ChangedFile("docs/rfd/000-design-template.md", "modified"),
        ChangedFile("docs/rfd/drafts/D05-dev-plugin.md", "added"),
        ChangedFile("docs/rfd/017-personas.md", "modified"),
    ]
    assert found(files, Config(), tmp_path) == [
        ("017", "docs/rfd/017-personas.md", "modified"),
        ("D05", "docs/rfd/drafts/D05-dev-plugin.md", "added"),
    ]


@pytest.mark.parametrize(
    ("path", "rfd"),
    [
        ("docs/rfd/0042/README.md", "0042"),
        ("docs/rfd/0042/README.adoc", "0042"),
        ("docs/rfd/0042/index.md", "0042"),
        ("docs/rfd/drafts/0007/index.adoc", "0007"),
        ("docs/rfd/0042/notes.md", None),  # not its document: see the next test
        ("docs/rfd/0042/old/README.md", None),
        ("docs/rfd/draft-ideas/README.md", None),
        ("docs/0042/README.md", None),
        ("docs/rfd/drafts/D05-x/README.md", None),
    ],
)
def test_the_document_of_a_numbered_directory_is_the_rfd(
    tmp_path: Path, path: str, rfd: str | None
) -> None:
    files = [ChangedFile(path, "modified")]
    assert found(files, Config(), tmp_path) == ([(rfd, path, "modified")] if rfd else [])


def test_another_file_of_an_rfd_directory_changes_its_rfd(tmp_path: Path) -> None:
    """A diagram alone: the RFD is the directory's document on the default branch."""
    write(tmp_path, {"docs/rfd/0042/README.adoc": "= RFD 42 Title\n", "docs/rfd/0043/x.txt": ""})
    files = [
        ChangedFile("docs/rfd/0042/img/flow.svg", "added"),
        ChangedFile("docs/rfd/0042/notes.md", "removed"),
        ChangedFile("docs/rfd/0043/x.txt", "modified"),  # a directory with no document
    ]
    assert found(files, Config(), tmp_path) == [("0042", "docs/rfd/0042/README.adoc", "modified")]


def test_a_changed_document_is_listed_once_with_its_own_change(tmp_path: Path) -> None:
    write(tmp_path, {"docs/rfd/0042/README.md": "old\n"})
    files = [
        ChangedFile("docs/rfd/0042/diagram.png", "removed"),
        ChangedFile("docs/rfd/0042/README.md", "removed", blob="", patch="@@ -1 +0,0 @@\n-old"),
    ]
    assert found(files, Config(), tmp_path) == [("0042", "docs/rfd/0042/README.md", "removed")]


def test_a_pull_request_on_an_oxide_repository_changes_the_rfd_of_each_directory(
    tmp_path: Path,
) -> None:
    """``rfd/0042/README.adoc`` is RFD 0042 (its directory's name, padding kept); the
    diagram beside it and the RFD directory's own README are no RFD."""
    cfg = parse('[rfd]\ndir = "rfd"\n')
    files = [
        ChangedFile("rfd/0042/README.adoc", "modified"),
        ChangedFile("rfd/0042/power.svg", "added"),
        ChangedFile("rfd/0007/README.md", "modified"),
        ChangedFile("rfd/README.md", "modified"),
        ChangedFile("prototypes/prototype.adoc", "modified"),
    ]
    assert found(files, cfg, tmp_path) == [
        ("0007", "rfd/0007/README.md", "modified"),
        ("0042", "rfd/0042/README.adoc", "modified"),
    ]
