"""The status changes an RFD corpus's git history shows: which word moved to which, how often.

``rfd init`` writes them as evidence beside ``[statuses]`` and as ``[transitions]``.  One
``git log -p`` of the RFD directory, read for removed and added status lines.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

from bot.config.dialect import status_word_in_line


def status_changes(root: Path, rfd_dir: str) -> Counter[tuple[str, str]]:
    """How often the history changed an RFD's status word from one word to another (a
    removed and an added status line in one file of one commit)."""
    command = ["git", "log", "--format=@%h", "-p", "--unified=0", "--no-renames", "--no-color"]
    try:
        done = subprocess.run(
            [*command, "--", rfd_dir],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
            errors="replace",
        )
    except OSError:
        return Counter()
    changes: Counter[tuple[str, str]] = Counter()
    old: str | None = None
    for line in done.stdout.splitlines() if done.returncode == 0 else ():
        if line.startswith(("@", "diff --git")):
            old = None
        elif line.startswith("-") and not line.startswith("---"):
            old = _word_of(line[1:]) or old
        elif line.startswith("+") and not line.startswith("+++") and old is not None:
            new = _word_of(line[1:])
            if new is not None and new != old:
                changes[(old, new)] += 1
                old = None
    return changes


def _word_of(line: str) -> str | None:
    return status_word_in_line(line)
