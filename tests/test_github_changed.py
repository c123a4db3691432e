"""Which files of a pull request are RFDs: the repository's templates are not."""

from __future__ import annotations

from bot.config.load import Config, parse
from bot.forge.base import ChangedFile
from bot.github.checkout import changed_rfds


def test_a_pull_request_changing_a_template_changes_no_rfd() -> None:
    files = [
        ChangedFile("docs/rfd/000-design-template.md", "modified"),
        ChangedFile("docs/rfd/drafts/D05-dev-plugin.md", "added"),
        ChangedFile("docs/rfd/017-personas.md", "modified"),
    ]
    found = [(str(c.file.rfd_id), c.file.path) for c in changed_rfds(files, Config())]
    assert found == [
        ("017", "docs/rfd/017-personas.md"),
        ("D05", "docs/rfd/drafts/D05-dev-plugin.md"),
    ]


def test_a_pull_request_on_an_oxide_repository_changes_the_rfd_of_each_directory() -> None:
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
    found = [(str(c.file.rfd_id), c.file.path) for c in changed_rfds(files, cfg)]
    assert found == [("0007", "rfd/0007/README.md"), ("0042", "rfd/0042/README.adoc")]
