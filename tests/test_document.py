from __future__ import annotations

import pytest

from bot.core.errors import InvalidStructure, ParseError, RfdError, ValidationError
from bot.model.document import (
    Document,
    parse,
    remove_field,
    replace_section,
    set_field,
    set_heading,
    set_status,
)
from bot.model.ids import RfdId
from bot.model.status import Status

BASIC = """\
# RFD 045: Layered Handler Stack

- **Status**: Discussion
- **Category**: Design
- **Authors**: Ada Lovelace <ada@example.com>, Grace Hopper
- **Date**: 2026-01-05
- **Requires**: [RFD 001], [RFD D7]

## Summary

Handlers stack.

## Design

### Layers

Text.

```markdown
## Not A Section
# Not a heading either
```

## Implementation Plan

### Phase 1: Trait

Do it.
"""


def doc(text: str = BASIC) -> Document:
    return parse(text, "docs/rfd/045-layered.md")


@pytest.mark.parametrize(
    ("heading", "rfd_id", "title"),
    [
        ("# RFD 045: Title", "045", "Title"),
        ("# RFD 45: Title", "045", "Title"),
        ("# RFD D32: Title", "D32", "Title"),
        ("# RFD D32 — Title with: colon", "D32", "Title with: colon"),
        ("# RFD 7 – Title", "007", "Title"),
        ("# RFD 7 - Title", "007", "Title"),
        ("#   RFD 012:Title  ", "012", "Title"),
        ("# RFD 012", "012", ""),
        ("# Plain Title", None, "Plain Title"),
    ],
)
def test_heading_variants(heading: str, rfd_id: str | None, title: str) -> None:
    parsed = doc(f"{heading}\n\n- **Status**: Draft\n")
    assert (str(parsed.heading_id) if parsed.heading_id else None) == rfd_id
    assert str(parsed.rfd_id) == "045"  # the file name is the identity, whatever the heading
    assert parsed.title == title
    assert parsed.heading_line == 1


@pytest.mark.parametrize(
    "status_line",
    [
        "- **Status**: Discussion",
        "- **Status:** Discussion",
        "* **Status**: discussion",
        "**Status**: Discussion",
        "- **status** : DISCUSSION  ",
        "- **Status**: Discussion (since 2026-01-01)",
    ],
)
def test_status_line_variants(status_line: str) -> None:
    assert doc(f"# RFD 001: T\n\n{status_line}\n").status is Status.DISCUSSION


def test_fields_in_any_order_unknown_keys_kept() -> None:
    parsed = doc(
        "<!-- generated from a template -->\n<!--\nmulti-line\n-->\n"
        "# RFD 002: T\n\n- **Owner**: team-x\n- **Date:** 2026-01-01\n\n"
        "- **Status**: Accepted\n- **Requires**: [RFD 001],\n  [RFD 003]\n\nBody.\n"
    )
    assert [(f.key, f.line) for f in parsed.fields] == [
        ("Owner", 7),
        ("Date", 8),
        ("Status", 10),
        ("Requires", 11),
    ]
    assert parsed.heading_line == 5
    assert parsed.field("owner") == "team-x"
    assert parsed.field("REQUIRES") == "[RFD 001], [RFD 003]"
    assert parsed.links("Requires") == (RfdId.parse("1"), RfdId.parse("3"))


def test_front_matter_before_the_heading() -> None:
    parsed = doc("---\n# a YAML comment\ntags: [x]\n---\n# RFD 3: Real\n\n- **Status**: Draft\n")
    assert (str(parsed.heading_id), parsed.title, parsed.heading_line) == ("003", "Real", 5)


def test_header_ends_at_first_other_line() -> None:
    parsed = doc("# RFD 1: T\n\n- **Status**: Draft\n\nIntro.\n\n- **Model**: sonnet\n")
    assert parsed.field("Model") is None


def test_accessors() -> None:
    parsed = doc()
    assert parsed.category == "Design"
    assert parsed.authors == ("Ada Lovelace <ada@example.com>", "Grace Hopper")
    assert parsed.links("Requires") == (RfdId.parse("001"), RfdId.parse("D7"))
    assert parsed.links("Extends") == ()
    assert parsed.tracking_issue is None


@pytest.mark.parametrize(
    ("value", "links"),
    [
        ("[RFD 001], [RFD 003]", ["001", "003"]),
        ("RFD 001, RFD D32", ["001", "D32"]),
        ("001, 2, D32", ["001", "002", "D32"]),
        ("[RFD 072] Phase 1", ["072"]),
        ("[RFD 001](001-process.md)", ["001"]),
        ("[RFD 001], [RFD 001]", ["001"]),
        ("None", []),
        ("-", []),
    ],
)
def test_links(value: str, links: list[str]) -> None:
    parsed = doc(f"# RFD 009: T\n\n- **Status**: Draft\n- **Extends**: {value}\n")
    assert [str(i) for i in parsed.links("Extends")] == links


@pytest.mark.parametrize(
    ("value", "number"),
    [
        ("#12", 12),
        ("[#12](https://github.com/o/r/issues/12)", 12),
        ("https://github.com/o/r/issues/77", 77),
        ("12", 12),
        ("none yet", None),
    ],
)
def test_tracking_issue(value: str, number: int | None) -> None:
    parsed = doc(f"# RFD 009: T\n\n- **Status**: Accepted\n- **Tracking Issue**: {value}\n")
    assert parsed.tracking_issue == number


def test_sections_ignore_headings_in_code_and_comments() -> None:
    parsed = doc(BASIC + "<!--\n## Commented Out\n-->\n")
    assert [(s.title, s.level) for s in parsed.sections] == [
        ("Summary", 2),
        ("Design", 2),
        ("Layers", 3),
        ("Implementation Plan", 2),
        ("Phase 1: Trait", 3),
    ]
    design = parsed.section("design")
    assert design is not None
    assert "## Not A Section" in (parsed.section_body("Design") or "")
    assert parsed.lines[design.end].startswith("## Implementation Plan")
    assert parsed.section_body("Summary") == "\nHandlers stack.\n\n"
    assert parsed.section_body("Missing") is None


def test_crlf_document() -> None:
    parsed = doc(BASIC.replace("\n", "\r\n"))
    assert parsed.status is Status.DISCUSSION
    assert parsed.field("Date") == "2026-01-05"
    assert parsed.section_body("Summary") == "\r\nHandlers stack.\r\n\r\n"


@pytest.mark.parametrize(
    ("text", "error", "line", "says"),
    [
        ("", InvalidStructure, 1, "empty"),
        ("  \n\n", InvalidStructure, 1, "empty"),
        ("Just prose.\n## Summary\n", InvalidStructure, 1, "no '# RFD' heading"),
        ("```\n# RFD 1: In code\n```\n", InvalidStructure, 1, "no '# RFD' heading"),
        ("<!--\n# RFD 1: T\n-->\n", InvalidStructure, 1, "no '# RFD' heading"),
        ("\n\n# RFD 1: T\n\n## Summary\n", InvalidStructure, 3, "no status line"),
        ("# RFD 1: T\n\n- **Status**: Approved\n", ParseError, 3, "unknown status 'Approved'"),
        ("# RFD 1: T\n- **Date**: x\n- **Status**:\n", ParseError, 3, "unknown status"),
    ],
)
def test_errors_name_file_line_and_fix(
    text: str, error: type[RfdError], line: int, says: str
) -> None:
    with pytest.raises(error) as caught:
        doc(text)
    assert caught.value.path == "docs/rfd/045-layered.md"
    assert caught.value.line == line
    assert says in caught.value.message
    assert caught.value.hint


def test_unknown_status_lists_valid_ones() -> None:
    with pytest.raises(ParseError) as caught:
        doc("# RFD 1: T\n\n- **Status**: WIP\n")
    assert "Draft, Discussion, Accepted, Implemented, Abandoned, Superseded" in str(caught.value)


# Edits ---------------------------------------------------------------------


def diff(old: str, new: str) -> tuple[list[str], list[str]]:
    """The lines only in old and only in new (edits here touch few lines)."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    return [x for x in a if x not in b], [x for x in b if x not in a]


def test_set_status_changes_one_line() -> None:
    new = set_status(BASIC, Status.ACCEPTED)
    assert diff(BASIC, new) == (["- **Status**: Discussion\n"], ["- **Status**: Accepted\n"])
    assert doc(new).status is Status.ACCEPTED


def test_set_field_keeps_the_line_style() -> None:
    text = "# RFD 1: T\r\n\r\n* **Status:** Draft\r\n"
    assert set_status(text, Status.DISCUSSION) == "# RFD 1: T\r\n\r\n* **Status:** Discussion\r\n"


def test_set_field_adds_after_last_field_in_its_style() -> None:
    text = "# RFD 1: T\n\n- **Status:** Draft\n- **Date:** 2026-01-01\n\n## Summary\n"
    new = set_field(text, "Tracking Issue", "#4")
    assert new == text.replace("01\n", "01\n- **Tracking Issue:** #4\n")


def test_set_field_replaces_continuation_lines() -> None:
    text = "# RFD 1: T\n\n- **Requires**: [RFD 001],\n  [RFD 002]\n- **Status**: Draft\n"
    new = set_field(text, "requires", "[RFD 003]")
    assert new == "# RFD 1: T\n\n- **Requires**: [RFD 003]\n- **Status**: Draft\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# RFD 1: T\n\n## Summary\n", "# RFD 1: T\n\n- **Status**: Draft\n\n## Summary\n"),
        ("# RFD 1: T\n## Summary\n", "# RFD 1: T\n\n- **Status**: Draft\n\n## Summary\n"),
        ("# RFD 1: T", "# RFD 1: T\n\n- **Status**: Draft"),
        ("# RFD 1: T\n", "# RFD 1: T\n\n- **Status**: Draft\n"),
    ],
)
def test_set_field_on_a_document_without_fields(text: str, expected: str) -> None:
    assert set_status(text, Status.DRAFT) == expected


def test_set_field_without_trailing_newline() -> None:
    text = "# RFD 1: T\n\n- **Status**: Draft"
    assert set_field(text, "Date", "2026-01-01") == text + "\n- **Date**: 2026-01-01"
    assert set_status(text, Status.ABANDONED) == "# RFD 1: T\n\n- **Status**: Abandoned"


@pytest.mark.parametrize(("key", "value"), [("", "x"), ("A**B", "x"), ("Key", "two\nlines")])
def test_set_field_rejects_bad_input(key: str, value: str) -> None:
    with pytest.raises(ValidationError):
        set_field(BASIC, key, value)


def test_edits_need_a_heading() -> None:
    with pytest.raises(InvalidStructure, match="heading"):
        set_status("no heading\n", Status.DRAFT)


def test_remove_field() -> None:
    new = remove_field(BASIC, "date")
    assert diff(BASIC, new) == (["- **Date**: 2026-01-05\n"], [])
    assert remove_field(BASIC, "Absent") == BASIC
    assert remove_field("# R\n\n- **Status**: x\n- **A**: b", "A") == "# R\n\n- **Status**: x"


def test_replace_section_body() -> None:
    new = replace_section(BASIC, "summary", "New summary.\nTwo lines.\n\n\n")
    assert doc(new).section_body("Summary") == "\nNew summary.\nTwo lines.\n\n"
    assert new.replace("New summary.\nTwo lines.", "Handlers stack.") == BASIC


def test_replace_section_includes_subsections() -> None:
    new = replace_section(BASIC, "Design", "Short.")
    assert "### Layers" not in new and "Not A Section" not in new
    assert new.index("Short.") < new.index("## Implementation Plan")


def test_replace_last_section_keeps_missing_final_newline() -> None:
    text = "# RFD 1: T\n\n- **Status**: Draft\n\n## Summary\n\nOld"
    assert replace_section(text, "Summary", "New\n") == text.replace("Old", "New")


def test_replace_section_crlf() -> None:
    text = BASIC.replace("\n", "\r\n")
    new = replace_section(text, "Summary", "A\nB")
    assert "\r\nA\r\nB\r\n\r\n## Design" in new
    assert "\n" not in new.replace("\r\n", "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# R\n\n- **Status**: x\n", "# R\n\n- **Status**: x\n\n## Notes\n\nBody.\n"),
        ("# R\n\n- **Status**: x\n\n", "# R\n\n- **Status**: x\n\n## Notes\n\nBody.\n"),
        ("# R\n\n- **Status**: x", "# R\n\n- **Status**: x\n\n## Notes\n\nBody."),
    ],
)
def test_replace_missing_section_appends(text: str, expected: str) -> None:
    assert replace_section(text, "Notes", "Body.") == expected


@pytest.mark.parametrize(
    ("heading", "rfd_id", "title", "expected"),
    [
        ("# RFD D32: Tracing", "046", None, "# RFD 046: Tracing"),
        ("# RFD D32 — Tracing", "046", None, "# RFD 046 — Tracing"),
        ("# RFD D32: Tracing", "046", "Better", "# RFD 046: Better"),
        ("# Tracing", "D3", None, "# RFD D3: Tracing"),
        ("# RFD 12", "013", None, "# RFD 013"),
    ],
)
def test_set_heading(heading: str, rfd_id: str, title: str | None, expected: str) -> None:
    text = f"<!-- c -->\n{heading}\r\n\r\n- **Status**: Draft\r\n"
    new = set_heading(text, RfdId.parse(rfd_id), title)
    assert new == f"<!-- c -->\n{expected}\r\n\r\n- **Status**: Draft\r\n"
