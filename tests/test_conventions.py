"""Detecting conventions from plain data: the other side of each choice the fixture shows."""

from __future__ import annotations

import pytest

from bot.config.conventions import Convention, Corpus, detect
from bot.model.document import parse


def corpus(
    files: dict[str, str], drafts_added: tuple[tuple[int, int], ...] | None = None
) -> Corpus:
    docs = tuple(parse(text, path) for path, text in files.items() if "template" not in path)
    return Corpus(tuple(files.items()), docs, drafts_added)


def rfd(rid: str, status: str = "Accepted", extra: str = "", body: str = "") -> str:
    return f"# RFD {rid}: T\n\n- **Status**: {status}\n{extra}\n{body}"


def found(c: Corpus) -> dict[str, Convention]:
    return {convention.key: convention for convention in detect(c)}


def test_a_young_inline_repository_keeps_the_defaults() -> None:
    files = {
        "0001-a.md": rfd("0001", extra="- **Requires**: [RFD 0002](0002-b.md)\n"),
        "0002-b.md": rfd("0002", "Abandoned", extra="- **Abandoned**: no time\n"),
        "D7-c.md": rfd("D7", "Draft"),
    }
    got = found(corpus(files, drafts_added=((7, 0),)))
    assert got["conventions.id_digits"].value == 4
    assert got["conventions.draft_digits"].value == 1
    assert got["conventions.link_style"].value == "inline"
    assert got["conventions.back_links"].value == ()
    assert got["conventions.abandon_notice"].value == ""
    assert got["conventions.draft_numbers"].value == "max+1"
    assert got["conventions.tracking_issue"].value == "state"
    assert got["rfd.drafts_dir"].evidence == "no drafts in a sub-directory; the default"
    assert got["rfd.templates"].evidence == "no template files found; the default"


def test_required_by_is_kept_when_most_requires_are_answered() -> None:
    files = {
        "001-a.md": rfd("001", extra="- **Required by**: [RFD 002]\n"),
        "002-b.md": rfd("002", extra="- **Requires**: [RFD 001]\n"),
    }
    got = found(corpus(files))["conventions.back_links"]
    assert got.value == ("Required by",)
    assert got.evidence.startswith("Required by: 1 of 1 Requires link answered")


def test_a_templates_directory_is_recognised() -> None:
    files = {"templates/design.md": "# RFD NNN: TITLE\n", "001-a.md": rfd("001")}
    assert found(corpus(files))["rfd.templates"].value == "templates/*.md"


def tracked(total: int, recorded: int) -> dict[str, str]:
    issue = "- **Tracking Issue**: [#7](https://github.com/o/r/issues/7)\n"
    return {
        f"{n:03d}-x.md": rfd(f"{n:03d}", extra=issue if n <= recorded else "")
        for n in range(1, total + 1)
    }


@pytest.mark.parametrize(
    ("total", "recorded", "where"),
    [
        (43, 4, "state"),  # a real team's corpus: the field was retired long ago
        (25, 6, "state"),
        (6, 3, "header"),  # half of them: the team writes it
        (5, 5, "header"),
        (0, 0, "header"),  # nothing accepted yet: the default
    ],
)
def test_the_tracking_issue_field_is_written_only_where_most_rfds_have_it(
    total: int, recorded: int, where: str
) -> None:
    got = found(corpus(tracked(total, recorded)))["conventions.tracking_issue"]
    assert got.value == where
    assert got.evidence.startswith(f"{recorded} of {total} Accepted/Implemented RFD")


def test_a_drafts_requires_are_not_counted_against_back_links() -> None:
    """A published RFD never names a draft: only links it could answer count."""
    files = {
        "001-a.md": rfd("001", extra="- **Extended by**: [RFD 002]\n"),
        "002-b.md": rfd("002", extra="- **Extends**: [RFD 001]\n"),
        **{
            f"D{n}-d.md": rfd(f"D{n}", "Draft", extra="- **Extends**: [RFD 001]\n")
            for n in range(1, 4)
        },
    }
    got = found(corpus(files))["conventions.back_links"]
    assert got.value == ("Extended by",)
    assert "Extended by: 1 of 1 Extends link answered" in got.evidence
