"""The git edge (GitPython), behind a small protocol so the core never shells out to git."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bot.errors import RfdError

if TYPE_CHECKING:
    import git


class Vcs(Protocol):
    root: Path

    def rename(self, old: Path, new: Path) -> None: ...

    def commit(self, message: str, paths: Sequence[Path]) -> str: ...

    def diff_since(self, rev: str, paths: Sequence[str] = ()) -> str: ...

    def head(self) -> str: ...

    def branch(self) -> str: ...


class GitVcs:
    """A working tree, through GitPython (imported only when a repository is opened)."""

    def __init__(self, repo: git.Repo) -> None:
        self._repo = repo
        self.root = Path(repo.working_tree_dir or ".")

    @classmethod
    def discover(cls, path: Path) -> GitVcs | None:
        """The repository containing ``path``, or None outside one."""
        if not _inside_git(path):
            return None
        import git

        try:
            return cls(git.Repo(path, search_parent_directories=True))
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            return None

    def rename(self, old: Path, new: Path) -> None:
        """``git mv`` when the file is tracked, a plain rename otherwise."""
        rel_old = str(old.resolve().relative_to(self.root.resolve()))
        tracked = bool(self._repo.git.ls_files("--", rel_old))
        if tracked:
            self._repo.git.mv(str(old), str(new))
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
        return str(self._repo.git.diff(rev, "--", *paths))

    def head(self) -> str:
        return str(self._repo.head.commit.hexsha)

    def branch(self) -> str:
        try:
            return str(self._repo.active_branch.name)
        except TypeError:  # detached HEAD
            return self.head()[:12]


def _inside_git(path: Path) -> bool:
    return any((p / ".git").exists() for p in (path.resolve(), *path.resolve().parents))
