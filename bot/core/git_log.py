"""Reading a repository's history in bulk (the git edge; it knows nothing of RFDs):
``git log`` records split into commits, and many file versions read with one
``git cat-file --batch``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

RECORD, UNIT = "\x1e", "\x1f"
FORMAT = f"--format={RECORD}%H{UNIT}%aI{UNIT}%an{UNIT}%s"
"""The ``git log`` format :func:`commits` reads."""


@dataclass(frozen=True)
class Commit:
    sha: str
    date: str
    author: str
    subject: str


def commits(text: str) -> Iterator[tuple[Commit, list[str]]]:
    """Each commit of ``git log`` output written in :data:`FORMAT`, with the lines below it."""
    for record in text.split(RECORD)[1:]:
        head, _, body = record.partition("\n")
        sha, date, author, subject = [*head.split(UNIT), "", "", ""][:4]
        yield Commit(sha, date, author, subject), body.splitlines()


def git_output(root: Path, *args: str) -> str:
    """What ``git ARGS`` prints in ``root`` ("" when it fails: outside git, no commit yet)."""
    try:
        done = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args],
            cwd=root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            check=False,
        )
    except OSError:
        return ""
    return done.stdout if done.returncode == 0 else ""


def read_blobs(root: Path, blobs: Iterable[str]) -> dict[str, str]:
    """Blob → text, read by one ``git cat-file --batch`` however many there are."""
    wanted = list(dict.fromkeys(blobs))
    if not wanted:
        return {}
    try:
        done = subprocess.run(
            ["git", "cat-file", "--batch"],
            cwd=root,
            input="\n".join(wanted).encode("ascii") + b"\n",
            capture_output=True,
            check=False,
        )
    except OSError:
        return {}
    return dict(parse_batch(done.stdout))


def parse_batch(data: bytes) -> Iterator[tuple[str, str]]:
    """``(blob, text)`` from ``git cat-file --batch`` output (a missing blob is left out)."""
    pos = 0
    while (end := data.find(b"\n", pos)) != -1:
        header = data[pos:end].split()
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():  # "<blob> missing"
            continue
        size = int(header[2])
        yield header[0].decode("ascii"), data[pos : pos + size].decode("utf-8", "replace")
        pos += size + 1
