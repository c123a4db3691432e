"""The commits of a push as the pre-push hooks read them: each commit of ``old..new`` with
its first parent, and how a message names the commit that changed a path.  Plain git
processes through :mod:`hooks._git`.
"""

from __future__ import annotations

from pathlib import Path

from hooks._git import EMPTY_TREE, ZERO, GitFailed, run


def commits(root: Path, old: str, new: str) -> list[tuple[str, str]]:
    """``(first parent, commit)`` of each commit in ``old..new`` (all of ``new`` when ``old``
    is empty or zeros: a new branch), oldest first."""
    spec = new if old in ("", ZERO) else f"{old}..{new}"
    out = run(root, "rev-list", "--parents", "--end-of-options", spec, "--").decode()
    pairs = []
    for line in reversed(out.splitlines()):
        shas = line.split()
        pairs.append((shas[1] if len(shas) > 1 else EMPTY_TREE, shas[0]))
    return pairs


def describe_commit(root: Path, commit: str) -> str:
    """``in commit 1a2b3c4 "subject"``: how a pre-push message names a commit."""
    out = run(root, "log", "-1", "--format=%h%x00%s", "--end-of-options", commit, "--")
    short, _, subject = out.decode("utf-8", "replace").strip().partition("\0")
    return f'in commit {short} "{subject}"'


def last_commit(root: Path, old: str, new: str, path: str) -> str:
    """``describe_commit`` of the last commit in ``old..new`` that changed ``path`` ("" when
    none did, or git cannot tell)."""
    spec = new if old in ("", ZERO) else f"{old}..{new}"
    try:
        out = run(root, "log", "-1", "--format=%H", "--end-of-options", spec, "--", path)
        sha = out.decode().strip()
        return describe_commit(root, sha) if sha else ""
    except GitFailed:
        return ""
