"""Which files of a pull request are RFDs: the repository's templates are not."""

from __future__ import annotations

from bot.config.load import Config
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
