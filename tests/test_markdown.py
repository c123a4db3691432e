from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.model.markdown import (
    LineKind,
    content,
    ending,
    eol_of,
    headings,
    headings_of,
    kinds_of,
    line_kinds,
    parse_heading,
    section_end,
    section_ends,
    split_lines,
)


@settings(max_examples=100, database=None)
@given(st.text(st.sampled_from(list("ab \r\n#"))))
def test_split_lines_round_trips(text: str) -> None:
    lines = split_lines(text)
    assert "".join(lines) == text
    assert all(content(line) + ending(line) == line for line in lines)
    assert all("\n" not in line[:-1] for line in lines)


@pytest.mark.parametrize(
    ("text", "eol"), [("a\r\nb\n", "\r\n"), ("a\nb\r\n", "\n"), ("a", "\n"), ("\r\n", "\r\n")]
)
def test_eol_of(text: str, eol: str) -> None:
    assert eol_of(text) == eol


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("# Title", (1, "Title")),
        ("###   Spaced  ", (3, "Spaced")),
        ("## Closed ##", (2, "Closed")),
        ("##", (2, "")),
        ("   ## Indented", (2, "Indented")),
        ("    ## Code", None),
        ("#hashtag", None),
        ("####### seven", None),
        ("\ufeff# With BOM", (1, "With BOM")),
    ],
)
def test_parse_heading(line: str, expected: tuple[int, str] | None) -> None:
    assert parse_heading(line + "\r\n") == expected


T, C, M = LineKind.TEXT, LineKind.CODE, LineKind.COMMENT


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("a\n```py\n# x\n```\nb\n", [T, C, C, C, T]),
        ("~~~~\n~~~\n```\n~~~~\n# h\n", [C, C, C, C, T]),
        ("````\n```\n````\n", [C, C, C]),
        ("<!-- one -->\n# h\n", [M, T]),
        ("<!--\n# h\n-->\ntext\n", [M, M, M, T]),
        ("text <!--\n# h\n", [T, T]),
        ("---\n# yaml comment\nx: 1\n---\n# h\n", [M, M, M, M, T]),
        ("a\n---\n# h\n---\n", [T, T, T, T]),
    ],
)
def test_line_kinds(text: str, kinds: list[LineKind]) -> None:
    assert line_kinds(split_lines(text)) == kinds


def test_headings_skip_code_and_comments() -> None:
    text = "# A\n```\n## B\n```\n<!--\n## C\n-->\n## D\n"
    assert [(h.level, h.title, h.index) for h in headings(split_lines(text))] == [
        (1, "A", 0),
        (2, "D", 7),
    ]


_LINES = st.sampled_from(
    [
        "# T\n",
        "## A\n",
        "### B\n",
        "  ## C ##\n",
        "#\n",
        "#x\n",
        "\ufeff# D\n",
        "text\n",
        "```\n",
        "~~~~\n",
        "<!-- a\n",
        "-->\n",
        "<!-- b -->\n",
        "---\n",
        "\n",
        "\r\n",
        "## E\r\n",
        "    # code\n",
        "  ```py\n",
        "## F",
    ]
)


@settings(max_examples=300, database=None)
@given(st.lists(_LINES, max_size=14))
def test_the_whole_text_shortcuts_find_what_the_line_walk_finds(parts: list[str]) -> None:
    """lint works out kinds, headings and section ends from the whole text at once; a
    document with code blocks, comments or front matter gets the same as line by line."""
    text = "".join(parts)
    lines = split_lines(text)
    kinds = kinds_of(text, lines)
    assert list(kinds) == line_kinds(lines)
    found = headings_of(text, lines, kinds)
    assert found == headings(lines)
    assert section_ends(found, len(lines)) == [
        section_end(found, pos, len(lines)) for pos in range(len(found))
    ]
