"""The git edge (GitPython), behind a small protocol so the core never shells out to git.

Every call separates options from what a user or a file named (``--end-of-options``
before revisions, ``--`` before paths): no value can become an option of git.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bot.core.errors import RfdError

if TYPE_CHECKING:
    import git


class Vcs(Protocol):
    root: Path

    def rename(self, old: Path, new: Path) -> None: ...

    def commit(self, message: str, paths: Sequence[Path]) -> str: ...

    def diff_since(self, rev: str, paths: Sequence[str] = ()) -> str: ...

    def file_history(self, path: Path) -> list[tuple[str, str]]: ...

    def read_at(self, rev: str, path: str) -> str | None: ...

    def is_shallow(self) -> bool: ...

    def head(self) -> str: ...

    def branch(self) -> str: ...

    def author(self) -> str:
        """``Name <email>`` from the git configuration ("" when neither is set)."""


class GitVcs:
    """A working tree, through GitPython — imported on first use (≈ 150 ms), so commands
    that never touch git (``rfd status``) do not pay for it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._opened: git.Repo | None = None

    @classmethod
    def discover(cls, path: Path) -> GitVcs | None:
        """The repository containing ``path``, or None outside one."""
        top = _top_level(path)
        return cls(top) if top is not None else None

    @property
    def _repo(self) -> git.Repo:
        if self._opened is None:
            import git

            try:
                self._opened = git.Repo(self.root)
            except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
                raise RfdError(f"{self.root} is not a usable git repository: {exc}") from exc
        return self._opened

    def rename(self, old: Path, new: Path) -> None:
        """``git mv`` when the file is tracked, a plain rename otherwise."""
        rel_old = str(old.resolve().relative_to(self.root.resolve()))
        tracked = bool(self._repo.git.ls_files("--", rel_old))
        if tracked:
            self._repo.git.mv("--", str(old), str(new))
        else:
            old.rename(new)

    def commit(self, message: str, paths: Sequence[Path]) -> str:
        import git

        rels = [str(p.resolve().relative_to(self.root.resolve())) for p in paths]
        try:
            self._repo.git.add("-A", "--", *rels)
            if not self._repo.index.diff("HEAD"):
                return self.head()
            self._repo.git.commit("-m", message, "--", *rels)
        except git.GitCommandError as exc:
            raise RfdError(f"git commit failed: {exc.stderr.strip()}") from exc
        return self.head()

    def diff_since(self, rev: str, paths: Sequence[str] = ()) -> str:
        return str(self._repo.git.diff("--end-of-options", rev, "--", *paths))

    def file_history(self, path: Path) -> list[tuple[str, str]]:
        """The commits that changed ``path``, newest first (renames followed), each with the
        file's repository-relative path in that commit; empty when git knows none."""
        import git

        try:
            out = self._repo.git.log("--follow", "--format=%x00%H", "--name-only", "--", path)
        except git.GitCommandError:  # no commit yet, or a path outside the repository
            return []
        history = []
        for chunk in str(out).split("\0")[1:]:
            sha, *names = [line for line in chunk.splitlines() if line.strip()]
            if names:
                history.append((sha, names[-1]))
        return history

    def read_at(self, rev: str, path: str) -> str | None:
        """The text of ``path`` (repository-relative) in commit ``rev``, or None."""
        import git

        try:
            return str(self._repo.git.show("--end-of-options", f"{rev}:{path}"))
        except git.GitCommandError:
            return None

    def is_shallow(self) -> bool:
        """Is this a shallow clone (``--depth``), whose history stops early?"""
        return str(self._repo.git.rev_parse("--is-shallow-repository")).strip() == "true"

    def head(self) -> str:
        return str(self._repo.head.commit.hexsha)

    def branch(self) -> str:
        try:
            return str(self._repo.active_branch.name)
        except TypeError:  # detached HEAD
            return self.head()[:12]

    def author(self) -> str:
        name, email = self._config("user.name"), self._config("user.email")
        return f"{name} <{email}>" if name and email else name or (f"<{email}>" if email else "")

    def _config(self, key: str) -> str:
        """A git configuration value as git itself resolves it ("" when unset)."""
        import git

        try:
            return str(self._repo.git.config("--get", key)).strip()
        except git.GitCommandError:
            return ""


def _top_level(path: Path) -> Path | None:
    return next(
        (p for p in (path.resolve(), *path.resolve().parents) if (p / ".git").exists()), None
    )
