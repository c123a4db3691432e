"""Which lines of a file a pull request's diff shows: the lines a review comment can sit on.

GitHub takes a pull-request review comment only on a line of the diff (422 otherwise):
on the new side (``RIGHT``) those are the added lines and the context lines of each hunk
of the file's ``patch`` (the PR's files listing).  An added file is in the diff whole.
Pure functions.
"""

from __future__ import annotations

import re

_HUNK = re.compile(
    r"""^@@\ -\d+(?:,\d+)?          # the old side, not needed
        \ \+(?P<start>\d+)(?:,\d+)?  # where the hunk starts on the new side
        \ @@""",
    re.VERBOSE,
)


def right_lines(patch: str) -> frozenset[int]:
    """The new side's line numbers that ``patch`` (a unified diff without file headers) shows."""
    shown: set[int] = set()
    line = 0
    for text in patch.splitlines():
        hunk = _HUNK.match(text)
        if hunk:
            line = int(hunk["start"])
        elif line and text.startswith(("+", " ")):
            shown.add(line)
            line += 1
    return frozenset(shown)


def commentable(line: int, status: str, patch: str) -> bool:
    """Can a review comment sit on ``line`` of a file the PR changed (``status``, ``patch``)?"""
    if status == "added":
        return line >= 1
    return line in right_lines(patch)
