"""Which lines of a file a pull request's diff shows: the lines a review comment can sit on.

GitHub takes a pull-request review comment only on a line of the diff (422 otherwise):
on the new side (``RIGHT``) those are the added lines and the context lines of each hunk
of the file's ``patch`` (the PR's files listing).  An added file is in the diff whole.
The file before a change, rebuilt from its text after and the hunks.  Pure functions.
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


_BOTH_SIDES = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<new>\d+)(?:,(?P<count>\d+))? @@")


def old_side(new: str, patch: str) -> str | None:
    """The file before ``patch`` (a unified diff without file headers), given its text after
    (``new``); None when the patch is empty or does not fit ``new`` (the file changed since,
    or GitHub left the hunks out of a large diff)."""
    after = new.split("\n")
    before: list[str] = []
    at = 0  # the next line of ``after`` not copied yet (0-based)
    hunks = 0
    for text in patch.removesuffix("\n").split("\n"):
        hunk = _BOTH_SIDES.match(text)
        if hunk:
            empty = hunk["count"] == "0"  # then "new" is the line before the hunk
            start = int(hunk["new"]) - (0 if empty else 1)
            if start < at or start > len(after) or start < 0:
                return None
            before += after[at:start]
            at, hunks = start, hunks + 1
        elif not hunks or text.startswith("\\"):
            continue  # "\ No newline at end of file"
        elif text.startswith("-"):
            before.append(text[1:])
        elif text.startswith(("+", " ")) or text == "":
            if at >= len(after) or after[at] != text[1:]:
                return None
            before += [] if text.startswith("+") else [after[at]]
            at += 1
        else:
            return None
    return "\n".join(before + after[at:]) if hunks else None
