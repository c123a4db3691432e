"""The pull request's files: which RFDs it changes, its branch on disk (symbolic links
refused), and the bot's commit going back to it.

Which RFDs a pull request changes comes from its file list (:func:`changed_rfds`: no file
is read; for a file of a numbered directory other than its document, a diagram, the default
branch's checkout says which document the directory has).

The workflow checks out the default branch only (never PR code next to secrets) with
``persist-credentials: false``.  For a PR from this repository the bot fetches its
branch into a separate worktree, lets the lifecycle operation write there, commits the
files it reports and pushes.  For a fork, the worktree is the default branch with the
PR's RFD files laid over it, read through the API as data; nothing is pushed.  Git
runs without hooks; the token travels in an environment-only header, never in a URL,
a file or an argument.

PR branch content is data: a symbolic link in it is refused, never followed.  A link
committed on a same-repository PR (a state file pointing at the job's environment, a
``reviews`` directory pointing outside the checkout) would make the bot send what it
points at to the model, or write outside its worktree.  So before anything is read, the
RFD directory of the checkout (RFDs, drafts, state) is walked without following links;
any link there stops the operation with an error naming it (:func:`refuse_links`).
"""

from __future__ import annotations

import base64
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config.discovery import RfdFile, folder_rfd
from bot.config.load import Config, is_branch
from bot.config.repo_templates import is_template
from bot.core.errors import ForgeError, InvalidStructure
from bot.forge.base import ChangedFile, PullRequest
from bot.forge.github import RepoApi
from bot.model.ids import numbered_folder, split_entry

LINKED = (
    "is a symbolic link on the pull request's branch: the bot reads PR files as data and "
    "never follows a link"
)
LINKED_HINT = "replace the link by the file (or directory) itself, push, then retry"
MORE = " (and {n} more: {others})"


def links_in(root: Path, folders: Iterable[str]) -> list[str]:
    """Repository-relative paths of the symbolic links under ``folders`` of ``root``."""
    found: list[str] = []
    for folder in folders:
        top = root / folder
        if top.is_symlink():
            found.append(folder)
            continue
        for where, dirs, files in os.walk(top, followlinks=False):
            for name in (*dirs, *files):
                if os.path.islink(os.path.join(where, name)):
                    found.append(Path(where, name).relative_to(root).as_posix())
    return sorted(found)


def refuse_links(root: Path, folders: Iterable[str]) -> None:
    """InvalidStructure naming the first link under ``folders`` (the others counted)."""
    found = [repr(p)[1:-1] for p in links_in(root, folders)]  # control characters shown
    if found:
        more = MORE.format(n=len(found) - 1, others=", ".join(found[1:4])) if found[1:] else ""
        raise InvalidStructure(LINKED + more, path=found[0], hint=LINKED_HINT)


@dataclass(frozen=True)
class ChangedRfd:
    file: RfdFile
    status: str
    """GitHub's file status: ``added``, ``modified``, ``removed``, ``renamed``…"""
    blob: str = ""
    """The RFD's content in the PR, as a git blob sha (empty when unknown)."""
    patch: str = ""
    """Its diff hunks in the PR (empty when GitHub leaves them out)."""

    @property
    def removed(self) -> bool:
        return self.status == "removed"


def rfd_dirs(cfg: Config) -> tuple[str, ...]:
    drafts = cfg.rfd.drafts_dir.strip("/")
    extra = (f"{cfg.rfd_dir}/{drafts}",) if drafts not in ("", ".") else ()
    return (cfg.rfd_dir, *extra)


def _inside(path: str, cfg: Config) -> Iterable[str]:
    """``path`` relative to each RFD directory holding it (the drafts directory, inside
    the RFD directory, too)."""
    return (path[len(d) + 1 :] for d in rfd_dirs(cfg) if path.startswith(f"{d}/"))


def as_rfd(path: str, cfg: Config) -> RfdFile | None:
    """The RFD at ``path`` (``045-slug.md`` in an RFD directory, or the document of a
    numbered directory there, ``0015/README.adoc``); None for any other file (the
    repository's templates included)."""
    parts = next((p for p in map(split_entry, _inside(path, cfg)) if p is not None), None)
    if parts is None or is_template(path[len(cfg.rfd_dir) + 1 :], cfg.rfd.templates):
        return None
    return RfdFile(parts[0], parts[1], path)


def rfd_folder(path: str, cfg: Config) -> str | None:
    """The numbered RFD directory (``rfd/0015``) holding ``path`` (a diagram, an image)."""
    for relative in _inside(path, cfg):
        folder = numbered_folder(relative)
        if folder is not None:
            return path[: len(path) - len(relative)] + folder
    return None


def changed_rfds(files: Iterable[ChangedFile], cfg: Config, root: Path) -> list[ChangedRfd]:
    """RFD files the PR adds, changes or removes, sorted by id.

    A PR that changes only another file of a numbered directory (a diagram) changes that
    RFD: its document is the one the default branch's checkout ``root`` has there (the
    PR leaves it as it is), listed as ``modified`` with no blob or patch of its own."""
    found: dict[str, ChangedRfd] = {}
    folders: set[str] = set()
    for changed in files:
        rfd = as_rfd(changed.path, cfg)
        if rfd is not None:
            found[rfd.path] = ChangedRfd(rfd, changed.status, changed.blob, changed.patch)
        elif (folder := rfd_folder(changed.path, cfg)) is not None:
            folders.add(folder)
    for folder in sorted(folders):
        document = folder_rfd(root, folder)
        rfd = None if document is None else as_rfd(document.path, cfg)
        if rfd is not None and not any(p.startswith(f"{folder}/") for p in found):
            found[rfd.path] = ChangedRfd(rfd, "modified")
    return sorted(found.values(), key=lambda c: c.file)


if TYPE_CHECKING:
    import git

    from bot.core.authors import CommitBy

BOT_NAME = "rfd-bot"
BOT_EMAIL = "41898282+github-actions[bot]@users.noreply.github.com"
FORK_NOTE = "This PR comes from a fork, which the bot cannot push to: nothing was committed."


@dataclass(frozen=True)
class Checkout:
    root: Path
    branch: str
    writable: bool
    note: str = ""
    """Why the branch is not writable (said in the bot's reply)."""


def git_env(environ: Mapping[str, str]) -> dict[str, str]:
    """Identity of bot commits and, when a token is set, an auth header for the server."""
    env = {
        "GIT_AUTHOR_NAME": BOT_NAME,
        "GIT_AUTHOR_EMAIL": BOT_EMAIL,
        "GIT_COMMITTER_NAME": BOT_NAME,
        "GIT_COMMITTER_EMAIL": BOT_EMAIL,
        "GIT_TERMINAL_PROMPT": "0",
    }
    token = environ.get("GITHUB_TOKEN", "")
    if token:
        server = environ.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        env |= {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": f"http.{server}/.extraheader",
            "GIT_CONFIG_VALUE_0": f"AUTHORIZATION: basic {basic}",
        }
    return env


def _repo(path: Path) -> git.Repo:
    import git

    try:
        return git.Repo(path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise ForgeError(f"{path} is not a git checkout", hint="add actions/checkout") from exc


def _run(repo: git.Repo, env: Mapping[str, str], *args: str) -> str:
    import git

    try:
        return str(repo.git.execute(["git", *args], env=dict(env)))
    except git.GitCommandError as exc:
        doing = " ".join(args[:2])
        raise ForgeError(f"`git {doing}` failed: {exc.stderr.strip()}") from exc


def open_pull(
    base: Path,
    pr: PullRequest,
    api: RepoApi,
    environ: Mapping[str, str],
    *,
    paths: Iterable[str] = (),
    guarded: Iterable[str] = (),
) -> Checkout:
    """A worktree with the PR's content; ``paths`` are read through the API for forks.

    A same-repository PR's branch is checked out as it is: a symbolic link under
    ``guarded`` (the RFD directory) is refused before anything reads it
    (:func:`refuse_links`)."""
    repo = _repo(base)
    env = git_env(environ)
    dest = Path(tempfile.mkdtemp(prefix=f"rfd-pr{pr.number}-", dir=environ.get("RUNNER_TEMP")))
    if pr.is_fork or not pr.head_repo:
        _run(repo, env, "worktree", "add", "--detach", "--end-of-options", str(dest), "HEAD")
        for path in paths:
            _overlay(dest, path, api.file_text(path, pr.head_sha, repo=pr.head_repo))
        return Checkout(dest, pr.head_ref, writable=False, note=FORK_NOTE)
    if not is_branch(pr.head_ref):  # from the event: never a refspec or an option
        raise ForgeError(f"the PR's branch name {pr.head_ref!r} is not one git accepts")
    remote = f"refs/remotes/origin/{pr.head_ref}"
    _run(
        repo,
        env,
        "fetch",
        "--no-tags",
        "--end-of-options",
        "origin",
        f"+refs/heads/{pr.head_ref}:{remote}",
    )
    _run(repo, env, "worktree", "add", "--detach", "--end-of-options", str(dest), remote)
    checkout = Checkout(dest, pr.head_ref, writable=True)
    try:
        refuse_links(dest, guarded)
    except InvalidStructure:
        close(base, checkout)
        raise
    return checkout


def _overlay(root: Path, path: str, text: str | None) -> None:
    target = root / path
    if not target.resolve().is_relative_to(root.resolve()):
        raise ForgeError(f"refusing a path outside the repository: {path}")
    if text is None:
        target.unlink(missing_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def commit_and_push(
    checkout: Checkout, paths: Iterable[Path | str], message: str, environ: Mapping[str, str]
) -> str | None:
    """Commit ``paths`` (if anything changed) and push; the new commit's sha, or None."""
    sha = commit_only(checkout, paths, message, environ)
    if sha is not None:
        push(checkout.root, sha, checkout.branch, environ)
    return sha


def commit_only(
    checkout: Checkout, paths: Iterable[Path | str], message: str, environ: Mapping[str, str]
) -> str | None:
    """Commit ``paths`` (if anything changed), pushing nothing; the new commit's sha, or None."""
    if not checkout.writable:
        return None
    repo = _repo(checkout.root)
    env = git_env(environ)
    relative = [_relative(checkout.root, Path(p)) for p in paths]
    if not relative:
        return None
    _run(repo, env, "add", "--all", "--", *relative)
    if not _run(repo, env, "diff", "--cached", "--name-only"):
        return None
    _run(repo, env, "commit", "--no-verify", "--quiet", "-m", message)
    return _run(repo, env, "rev-parse", "HEAD")


def push(root: Path, sha: str, branch: str, environ: Mapping[str, str]) -> None:
    """Push commit ``sha`` of ``root``'s repository to origin's ``branch`` (never forced)."""
    if not is_branch(branch):
        raise ForgeError(f"{branch!r} is no branch name git accepts")
    _run(
        _repo(root),
        git_env(environ),
        "push",
        "--no-verify",
        "--end-of-options",
        "origin",
        f"{sha}:refs/heads/{branch}",
    )


def delivery_commit(checkout: Checkout, key: str) -> str | None:
    """The branch's bot commit of the event ``key`` (an earlier run of it), if any."""
    if not checkout.writable:
        return None
    trailer = f"Rfd-Bot-Event: {key}"
    out = _run(
        _repo(checkout.root),
        {},
        "log",
        "--format=%H%x1f%B%x1e",
        "--fixed-strings",
        f"--grep={trailer}",
        "--end-of-options",
        "HEAD",
    )
    for entry in out.split("\x1e"):
        sha, _, body = entry.strip().partition("\x1f")
        if trailer in body.splitlines():
            return sha
    return None


def head_of(checkout: Checkout, pr: PullRequest) -> str:
    """The PR's head as the checkout has it now (after the bot's commit, if it made one)."""
    if not checkout.writable:
        return pr.head_sha
    return _run(_repo(checkout.root), {}, "rev-parse", "--verify", "--end-of-options", "HEAD")


def committed_paths(checkout: Checkout, sha: str) -> list[str]:
    """The files ``sha`` changed, relative to the repository."""
    out = _run(
        _repo(checkout.root), {}, "show", "--name-only", "--format=", "--end-of-options", sha
    )
    return [line for line in out.splitlines() if line]


def writers(checkout: Checkout, path: str) -> list[CommitBy]:
    """The commits on the checkout's branch that wrote ``path``, with their authors' emails."""
    if not checkout.writable:  # a fork's files laid over the default branch: no history
        return []
    args = ("log", "--format=%H%x1f%ae", "--end-of-options", "HEAD", "--", path)
    out = _run(_repo(checkout.root), {}, *args)
    found = (line.split("\x1f", 1) for line in out.splitlines() if "\x1f" in line)
    from bot.core.authors import CommitBy

    return [CommitBy(sha, (), (email,)) for sha, email in found]


def blob_at(checkout: Checkout, sha: str, path: str) -> str:
    """The git blob of ``path`` at commit ``sha`` (its content's sha); empty when absent."""
    try:
        return _run(
            _repo(checkout.root), {}, "rev-parse", "--verify", "--end-of-options", f"{sha}:{path}"
        )
    except ForgeError:
        return ""


def parent_of(checkout: Checkout, sha: str) -> str:
    return _run(_repo(checkout.root), {}, "rev-parse", "--verify", "--end-of-options", f"{sha}^")


def _relative(root: Path, path: Path) -> str:
    full = path if path.is_absolute() else root / path
    return full.resolve().relative_to(root.resolve()).as_posix()


def close(base: Path, checkout: Checkout) -> None:
    """Remove the worktree (the job's runner is thrown away anyway; tests are not)."""
    _run(_repo(base), {}, "worktree", "remove", "--force", "--", str(checkout.root))


def open_branch(base: Path, branch: str, environ: Mapping[str, str], at: str = "HEAD") -> Checkout:
    """A worktree of the default branch's checkout (or of commit ``at`` of its repository)
    for ``branch`` (pushed on commit)."""
    repo = _repo(base)
    dest = Path(tempfile.mkdtemp(prefix="rfd-branch-", dir=environ.get("RUNNER_TEMP")))
    _run(repo, git_env(environ), "worktree", "add", "--detach", "--end-of-options", str(dest), at)
    return Checkout(dest, branch, writable=True)


def pushed_branch(base: Path, branch: str, environ: Mapping[str, str]) -> str | None:
    """``branch`` fetched from origin as a remote-tracking ref; None when origin has none."""
    repo, env = _repo(base), git_env(environ)
    if not _run(
        repo, env, "ls-remote", "--heads", "--end-of-options", "origin", f"refs/heads/{branch}"
    ):
        return None
    remote = f"refs/remotes/origin/{branch}"
    _run(
        repo,
        env,
        "fetch",
        "--no-tags",
        "--end-of-options",
        "origin",
        f"+refs/heads/{branch}:{remote}",
    )
    return remote


def pull_head(base: Path, number: int, environ: Mapping[str, str]) -> str | None:
    """Pull request ``number``'s own commits fetched (``refs/pull/<n>/head``, which GitHub
    keeps after the merge and after its branch is deleted) as a local ref; None when origin
    has no such ref.  A squash or rebase merge leaves these commits off the default branch:
    the bot's accept and sign-off commits are still theirs, and their pages still open."""
    import git

    ref = f"refs/remotes/origin/pull/{int(number)}"
    try:
        _repo(base).git.execute(
            [
                "git",
                "fetch",
                "--no-tags",
                "--end-of-options",
                "origin",
                f"+refs/pull/{int(number)}/head:{ref}",
            ],
            env=git_env(environ),
        )
    except (git.GitCommandError, ForgeError):
        return None
    return ref


def file_at(base: Path, ref: str, path: str) -> str | None:
    """The text of ``path`` at ``ref`` of the checkout's repository; None if it has none."""
    import git

    try:
        return str(_repo(base).git.execute(["git", "show", "--end-of-options", f"{ref}:{path}"]))
    except git.GitCommandError:
        return None
