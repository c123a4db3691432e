"""Re-aiming relative links when an RFD file moves (pure: no file system)."""

from __future__ import annotations

import pytest

from bot.model.links import mover, rewrite_targets

UP = mover("docs/rfd/drafts", "docs/rfd", ("docs/rfd/drafts/D1-q.md", "docs/rfd/002-q.md"))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("[a](../001-a.md)", "[a](001-a.md)"),
        ('[a](../001-a.md#design "Title")', '[a](001-a.md#design "Title")'),
        ("![flow](../img/flow.png)", "![flow](img/flow.png)"),
        ("[sibling](D3-x.md)", "[sibling](drafts/D3-x.md)"),
        ("[me](D1-q.md#top)", "[me](002-q.md#top)"),
        ("[a](<../001-a.md>)", "[a](<001-a.md>)"),
        ("[a]: ../001-a.md", "[a]: 001-a.md"),
        ("[^1]: see the notes", "[^1]: see the notes"),
        ("[web](https://example.org/a.md) [mail](mailto:a@b.c)", None),
        ("[top](#summary) [root](/README.md)", None),
        ("[far](../../../../../outside.md)", None),
        ("```\n[a](../001-a.md)\n```\n", None),
        ("plain text (../001-a.md) with no link", None),
    ],
)
def test_links_of_a_moved_file_point_where_they_did(before: str, after: str | None) -> None:
    assert rewrite_targets(before, UP) == (before if after is None else after)


def test_a_file_that_stays_changes_only_links_to_the_moved_one() -> None:
    stay = mover("docs/rfd", "docs/rfd", ("docs/rfd/drafts/D1-q.md", "docs/rfd/002-q.md"))
    text = "[q](drafts/D1-q.md) [a](./001-a.md) [b](drafts/D3-x.md)\r\n"
    assert rewrite_targets(text, stay) == "[q](002-q.md) [a](./001-a.md) [b](drafts/D3-x.md)\r\n"


def test_a_dotted_target_stays_dotted() -> None:
    text = "[RFD 001]: ./drafts/D1-x.md\n"
    moved = mover("docs/rfd", "docs/rfd", ("docs/rfd/drafts/D1-x.md", "docs/rfd/002-x.md"))
    assert rewrite_targets(text, moved) == "[RFD 001]: ./002-x.md\n"
