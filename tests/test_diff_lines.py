"""The lines of a PR's diff a review comment can sit on, from the file's ``patch``."""

from __future__ import annotations

import pytest

from bot.core.diff_lines import commentable, right_lines

# Lines 3-9 of the new file are shown: 3-5 and 7-9 as context, 6 changed.
ONE_HUNK = "\n".join(
    [
        "@@ -3,7 +3,7 @@",
        " - **Status**: Discussion",
        " - **Category**: Design",
        " - **Authors**: @octocat",
        "-- **Date**: 2026-11-01",
        "+- **Date**: 2026-11-31",
        " ",  # a blank context line keeps its space
        " ## Summary",
        " ",
    ]
)
# Two hunks; one adds two lines, one removes a line; the last line has no newline at its end.
TWO_HUNKS = """\
@@ -1,2 +1,4 @@
 # Title
+new one
+new two
 kept
@@ -40,3 +42,2 @@ ## Design
 before
-gone
 after
\\ No newline at end of file"""


@pytest.mark.parametrize(
    ("patch", "lines"),
    [
        (ONE_HUNK, {3, 4, 5, 6, 7, 8, 9}),
        (TWO_HUNKS, {1, 2, 3, 4, 42, 43}),
        ("", set()),
        ("@@ -0,0 +1 @@\n+only line", {1}),
    ],
    ids=["one hunk", "two hunks", "no patch", "hunk without counts"],
)
def test_right_lines(patch: str, lines: set[int]) -> None:
    assert right_lines(patch) == lines


def test_an_added_file_takes_a_comment_on_any_line_even_without_its_patch() -> None:
    assert commentable(36, "added", "")


def test_a_changed_file_takes_comments_only_on_the_lines_its_diff_shows() -> None:
    assert commentable(6, "modified", ONE_HUNK)
    assert not commentable(36, "modified", ONE_HUNK)
    assert not commentable(6, "modified", "")  # a diff too large for GitHub to list
