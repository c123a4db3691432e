"""The commit a sign-off is of, for the PR's posts.

A sign-off records the RFD's content it agreed with (a git blob: it stays true through a
rebase), but no GitHub page shows a blob.  The status comment shows the commit of the PR's
branch that brought that content instead, found in the checkout's history; a content the
history does not hold (a fork's overlay) shows no revision rather than a blob.
"""

from __future__ import annotations

from pathlib import Path

_RAW_FIELDS = 5  # ":100644 100644 <old> <new> M"


def commits_of(root: Path, path: str, rev: str = "HEAD") -> dict[str, str]:
    """Each content ``path`` had in the history of ``rev`` (the checkout's HEAD unless
    named: a pull request's own commits, :func:`bot.github.checkout.pull_head`) as a blob
    sha, and the oldest commit that gave it that content; empty when there is no such
    history."""
    import git

    try:
        log = git.Repo(root).git.log(
            "--format=%x00%H",
            "--raw",
            "--no-abbrev",
            "--no-renames",
            "--end-of-options",
            rev,
            "--",
            path,
        )
    except (git.GitCommandError, git.InvalidGitRepositoryError, git.NoSuchPathError):
        return {}
    found: dict[str, str] = {}
    for entry in str(log).split("\0")[1:]:  # newest first: the oldest is written last
        commit, *lines = entry.strip().splitlines()
        for line in lines:
            fields = line.split("\t", 1)[0].split()
            if line.startswith(":") and len(fields) == _RAW_FIELDS:
                found[fields[3]] = commit.strip()
    return found
