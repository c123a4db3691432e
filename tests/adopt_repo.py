"""The adopter's repository: a real team's RFD corpus, as `tests/data/adopt_repo/` holds it.

:func:`build_adopt_repo` copies the files into a fresh git repository and commits them the
way such a repository grew (the process first, then the published RFDs, then the drafts),
so history-aware code sees a few realistic commits.  The corpus is healthy except for the
problems in :data:`PLANTED` (also described in ``PLANTED.md`` next to the files).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

FIXTURE = Path(__file__).resolve().parent / "data" / "adopt_repo"
RFD_DIR = "docs/rfd"
DRAFTS_DIR = "docs/rfd/drafts"
TEMPLATES = tuple(
    f"{RFD_DIR}/000-{name}-template.md" for name in ("decision", "design", "guide", "process")
)
RFD_COUNT = 38
"""31 published RFDs (001–031) and 7 drafts; the four templates are not RFDs."""


class Planted(NamedTuple):
    """One deliberate problem: the file it is in, what kind it is, and the ids involved."""

    path: str
    kind: str
    ids: tuple[str, ...]


PLANTED = (
    Planted(f"{DRAFTS_DIR}/D55-inline-image-attachments.md", "heading-mismatch", ("D55", "D48")),
    Planted(f"{RFD_DIR}/021-cost-accounting.md", "requires-cycle", ("021", "022")),
)

_COMMITS = (
    (
        "RFD 001: the RFD process and templates",
        ("README.md", "crates/", f"{RFD_DIR}/000-", f"{RFD_DIR}/001-"),
    ),
    ("RFDs 002-019", tuple(f"{RFD_DIR}/{n:03d}-" for n in range(2, 20))),
    ("RFDs 020-031", tuple(f"{RFD_DIR}/{n:03d}-" for n in range(20, 32))),
    ("Drafts", tuple(f"{DRAFTS_DIR}/D{n}-" for n in (12, 18, 23, 31, 48, 55))),
    ("RFD D05: internal dev plugin", (f"{DRAFTS_DIR}/D05-", f"{RFD_DIR}/.state/")),
)
"""D05 comes last: the team reuses free draft numbers (RFD 001), and history shows it."""


def _git(repo: Path, *args: str, date: str = "") -> None:
    env = dict(os.environ)
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)


def copy_adopt_repo(dest: Path) -> Path:
    """The fixture's files (without ``PLANTED.md``) copied to ``dest``, no git."""
    shutil.copytree(FIXTURE, dest, ignore=shutil.ignore_patterns("PLANTED.md"))
    return dest


def build_adopt_repo(dest: Path) -> Path:
    """A git repository at ``dest`` holding the fixture, committed in four steps."""
    copy_adopt_repo(dest)
    _git(dest, "init", "-q", "-b", "main")
    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    files = [f for f in files if not f.startswith(".git/")]
    for month, (message, prefixes) in enumerate(_COMMITS, start=3):
        chosen = [f for f in files if f.startswith(prefixes)]
        _git(dest, "add", "--", *chosen)
        _git(dest, "commit", "-q", "-m", message, date=f"2025-{month:02d}-01T10:00:00+00:00")
    _git(dest, "add", "-A")
    if subprocess.run(["git", "diff", "--cached", "--quiet"], cwd=dest).returncode:
        raise AssertionError("the fixture has files no commit step takes")  # keep _COMMITS whole
    return dest
