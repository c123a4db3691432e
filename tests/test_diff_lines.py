"""The lines of a PR's diff a review comment can sit on, from the file's ``patch``."""

from __future__ import annotations

import pytest

from bot.core.diff_lines import commentable, old_side, right_lines

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


# The file after ONE_HUNK and TWO_HUNKS' first hunk: the header of an RFD.
AFTER = [
    "# RFD 045: Streaming exports",
    "",
    "- **Status**: Discussion",
    "- **Category**: Design",
    "- **Authors**: @octocat",
    "- **Date**: 2026-11-31",
    "",
    "## Summary",
    "",
    "Text.",
]


def test_the_file_before_a_change_is_rebuilt_from_its_hunks() -> None:
    before = old_side("\n".join(AFTER), ONE_HUNK)
    assert before == "\n".join([*AFTER[:5], "- **Date**: 2026-11-01", *AFTER[6:]])
    added = "@@ -1,2 +1,4 @@\n # Title\n+new one\n+new two\n kept"
    assert old_side("# Title\nnew one\nnew two\nkept\ntail", added) == "# Title\nkept\ntail"
    emptied = "@@ -1,2 +0,0 @@\n-one\n-two"
    assert old_side("", emptied) == "one\ntwo\n"  # "" was one empty line: still there


@pytest.mark.parametrize(
    "patch",
    ["", ONE_HUNK.replace("Discussion", "Accepted"), "@@ -40,3 +42,2 @@\n before\n-gone"],
    ids=["no patch (a diff too large)", "the file changed since", "past its end"],
)
def test_a_patch_that_does_not_fit_the_file_gives_no_before(patch: str) -> None:
    assert old_side("\n".join(AFTER), patch) is None
