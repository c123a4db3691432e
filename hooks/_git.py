"""The little git the hooks need, as git processes (~10 ms a call, started with ``os.posix_spawnp``;
GitPython costs ~100 ms just to import).

Every function takes the repository root and returns text; blobs are read in one
``git cat-file --batch`` process however many there are.  Revisions follow
``--end-of-options`` and paths follow ``--``: a ref from the environment (pre-push's
``PRE_COMMIT_FROM_REF``) or a file name can never become an option of git.

Starting git: ``os.posix_spawnp`` and pipes, not the ``subprocess`` module.  Measured on the
project's machine, a fresh interpreter that imports ``subprocess`` and runs
one ``git --version`` spends ~8 ms more CPU than one that spawns it with
``os.posix_spawnp`` — an eighth of a hook's budget.  Where ``posix_spawnp`` is missing
(Windows) ``subprocess`` does the same job.

git's stderr is read after its stdout: git writes a line or two there, far less than a
pipe holds, so neither side waits on the other.

The pre-push hooks read the commits of a push here too: each commit of ``old..new``
with its first parent, and how a message names the commit that changed a path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import IO, TYPE_CHECKING, BinaryIO, NamedTuple

from hooks._files import MAX_BYTES, too_large

if TYPE_CHECKING:
    from hooks._files import Root

INDEX = ""
"""The revision prefix of the staged version (``:path``), as in ``hooks._tree.INDEX``."""

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
"""git's empty tree: the "parent" of a root commit."""

ZERO = "0" * 40


class GitFailed(RuntimeError):
    """git exited non-zero (the message is git's own stderr)."""


class Change(NamedTuple):
    """One changed path: ``kind`` is git's letter (A, M, D, R, C, T), ``old`` the path before."""

    kind: str
    path: str
    old: str
    blob: str = ZERO
    """The object id of the new content (zeros when deleted)."""
    old_blob: str = ZERO
    """The object id of the content before (zeros when added)."""


def run(root: Root, *args: str, ok: tuple[int, ...] = (0,)) -> bytes:
    """git's output; GitFailed when it exits with a code not in ``ok`` (``git grep`` says
    "nothing found" with 1)."""
    return start(root, *args, ok=ok)()


def start(root: Root, *args: str, ok: tuple[int, ...] = (0,)) -> Callable[[], bytes]:
    """Start git now; calling the result waits for its output (as :func:`run` returns it),
    so git works while the hook goes on with something else."""
    proc = spawn(root, args)

    def output() -> bytes:
        code, out, err = proc.output()
        return _checked(args, code, out, err, ok)

    return output


def _checked(
    args: tuple[str, ...], code: int, out: bytes, err: bytes, ok: tuple[int, ...]
) -> bytes:
    if code not in ok:
        raise GitFailed(err.decode("utf-8", "replace").strip() or f"git {args[0]} failed")
    return out


def staged_changes(root: Root) -> Callable[[], tuple[str, list[Change]]]:
    """What ``git commit`` would record: the index against HEAD (renames detected), and
    the revision compared with (the empty tree before the first commit).

    git starts at once and the answer is waited for when asked: reading the index (~10 ms
    in a 20,000-file repository) overlaps with loading the checks.  It is the one time a
    hook reads the index: the staged blobs are named in the output, and whatever is not
    listed is as in HEAD.
    """
    output = start(root, *_DIFF_CACHED, "HEAD", "--")

    def changes() -> tuple[str, list[Change]]:
        try:
            return "HEAD", _raw(output())
        except GitFailed:
            if has_head(root):
                raise
            return EMPTY_TREE, _raw(run(root, *_DIFF_CACHED, EMPTY_TREE, "--"))

    return changes


_DIFF_CACHED = ("diff", "--cached", "--raw", "-M", "-z", "--abbrev=40", "--end-of-options")


def staged_in(root: Root, *folders: str) -> list[tuple[str, str]]:
    """``(git's letter, path)`` of each path directly in ``folders`` that the index changes
    (renames as a deletion and an addition): the cheap question rfd-status asks of a
    commit that stages no file it recognises as an RFD (a removal, or a name no RFD
    pattern matches because it holds a control character)."""
    specs = [f":(glob){folder}/*" for folder in folders]
    try:
        out = run(
            root,
            "diff",
            "--cached",
            "--name-status",
            "-z",
            "--no-renames",
            "--end-of-options",
            "HEAD",
            "--",
            *specs,
        )
    except GitFailed:
        if has_head(root):
            raise
        out = run(
            root,
            "diff",
            "--cached",
            "--name-status",
            "-z",
            "--end-of-options",
            EMPTY_TREE,
            "--",
            *specs,
        )
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    return list(zip(fields[0:-1:2], fields[1::2], strict=False))


def diff_changes(root: Root, old: str, new: str) -> list[Change]:
    """The changes between two commits (renames detected)."""
    return _raw(
        run(root, "diff", "--raw", "-M", "-z", "--abbrev=40", "--end-of-options", old, new, "--")
    )


def commit_changes(root: Root, commit: str) -> Callable[[], list[Change]]:
    """The changes one commit made to its first parent (everything for a root commit).

    git starts at once (comparing two versions of a 2,000-entry folder takes it ~8 ms);
    the answer is waited for when asked."""
    output = start(
        root,
        "diff-tree",
        "-r",
        "-M",
        "--root",
        "--no-commit-id",
        "--raw",
        "-z",
        "--abbrev=40",
        "--end-of-options",
        commit,
    )
    return lambda: _raw(output())


def _raw(out: bytes) -> list[Change]:
    """Parse ``--raw -z``: ``:oldmode newmode oldblob newblob X\\0path\\0[newpath\\0]``."""
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    changes: list[Change] = []
    i = 0
    while i + 1 < len(fields):
        meta = fields[i].split()
        kind, old_blob, blob = meta[4][:1], meta[2], meta[3]
        if kind in ("R", "C"):
            changes.append(Change(kind, fields[i + 2], fields[i + 1], blob, old_blob))
            i += 3
        else:
            changes.append(Change(kind, fields[i + 1], fields[i + 1], blob, old_blob))
            i += 2
    return changes


def origin_repository(root: Root) -> str | None:
    """``owner/name`` of the ``origin`` remote, None without one."""
    try:
        url = run(root, "remote", "get-url", "origin").decode().strip()
    except GitFailed:
        return None
    from bot.core.remotes import repository_of

    return repository_of(url)


def on_github(root: Root, environ: Mapping[str, str] = os.environ) -> bool:
    """Are sign-offs given on GitHub here: in GitHub Actions, or ``origin`` on GitHub (or on
    ``$GITHUB_SERVER_URL``'s host)?"""
    return github_probe(root, environ)()


def github_probe(root: Root, environ: Mapping[str, str] = os.environ) -> Callable[[], bool]:
    """:func:`on_github` with git started now; calling the result waits for the answer
    (rfd-status asks it while it reads the plan and the required RFDs), and gives it again
    when called again."""
    if environ.get("GITHUB_ACTIONS") == "true":
        return lambda: True
    output = start(root, "remote", "get-url", "origin")

    def answer() -> bool:
        try:
            url = output().decode().strip()
        except GitFailed:
            return False
        return _github_url(url, environ)

    return cache(answer)


def _github_url(url: str, environ: Mapping[str, str]) -> bool:
    server = environ.get("GITHUB_SERVER_URL", "https://github.com").split("://")[-1].rstrip("/")
    return any(
        f"{sep}{host}{end}" in url
        for host in {"github.com", server}
        for sep in ("@", "//")
        for end in (":", "/")
    )


def base_refs(environ: Mapping[str, str] = os.environ) -> list[str]:
    """Where the default branch is as fetched: ``origin/$GITHUB_BASE_REF`` (on a pull
    request in Actions), then ``origin/HEAD``."""
    wanted = environ.get("GITHUB_BASE_REF", "")
    return ([f"refs/remotes/origin/{wanted}"] if wanted else []) + ["refs/remotes/origin/HEAD"]


def has_head(root: Root) -> bool:
    try:
        run(root, "rev-parse", "-q", "--verify", "HEAD^{commit}")
    except GitFailed:
        return False
    return True


def _skip(stream: IO[bytes], count: int) -> None:
    """Read past ``count`` bytes in chunks (a blob too large to hold)."""
    while count > 0:
        chunk = stream.read(min(count, 1 << 16))
        if not chunk:
            return
        count -= len(chunk)


class BlobReader:
    """One ``git cat-file --batch`` process answering every read of a hook run.

    Reads depend on each other (a document names the RFDs it requires), so the process
    stays open and answers one request at a time: one process start, however many reads.
    """

    def __init__(self, root: Root) -> None:
        self.root = root
        self._proc: Process | None = None

    def read(self, spec: str, shown: str = "") -> bytes | None:
        """The blob ``rev:path`` (``:path`` is the staged version), None when there is none;
        ParseError naming ``shown`` (the blob's path) past :data:`hooks._common.MAX_BYTES`
        (the blob is skipped, not held)."""
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) != 3 or not header[2].isdigit():  # "<spec> missing" / "ambiguous"
            return None
        size = int(header[2])
        if size > MAX_BYTES:
            _skip(proc.stdout, size + 1)
            raise too_large(shown or spec.partition(":")[2] or spec)
        data = proc.stdout.read(size + 1)[:-1]
        return data if header[1] == b"blob" else None

    def has_commit(self, ref: str) -> bool:
        """Does ``ref`` name a commit (a fetched ``refs/remotes/origin/HEAD``)?  Asked of the
        same git, in the same conversation as the blobs: no process of its own."""
        if not ref.isprintable():
            return False  # a newline would be a second request
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{ref}^{{commit}}\n".encode("utf-8", "surrogateescape"))
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) != 3 or not header[2].isdigit():  # "<ref> missing"
            return False
        _skip(proc.stdout, int(header[2]) + 1)
        return header[1] == b"commit"

    def start(self) -> BlobReader:
        """Start git now (it then loads while the hook does something else)."""
        self._start()
        return self

    def _start(self) -> Process:
        if self._proc is None:
            self._proc = spawn(self.root, ("cat-file", "--batch"), stdin=True, stderr=False)
        return self._proc

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._proc is not None:
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.close()
            self._proc.wait()
            self._proc.stdout.close()
            self._proc = None


class Process:
    """A running git: its pipes (``stdin``/``stderr`` None when not asked for) and exit code."""

    def __init__(
        self,
        stdin: BinaryIO | None,
        stdout: BinaryIO,
        stderr: BinaryIO | None,
        wait: Callable[[], int],
    ) -> None:
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.wait = wait
        """Wait for git to exit; its exit code."""

    def output(self) -> tuple[int, bytes, bytes]:
        """Exit code, stdout and stderr, once git is done."""
        if self.stdin is not None:
            self.stdin.close()
        with self.stdout:
            out = self.stdout.read()
        err = b""
        if self.stderr is not None:
            with self.stderr:
                err = self.stderr.read()
        return self.wait(), out, err


def spawn(root: Root, args: Sequence[str], *, stdin: bool = False, stderr: bool = True) -> Process:
    """Start ``git args`` in ``root`` with a pipe for stdout, and for stdin and stderr when
    asked (else they are the null device)."""
    if not hasattr(os, "posix_spawnp"):
        return _popen(root, args, stdin=stdin, stderr=stderr)
    actions: list[tuple[int, ...] | tuple[int, int, str, int, int]] = []
    child_ends: list[int] = []

    def pipe(fd: int, *, to_child: bool) -> BinaryIO:
        read, write = os.pipe()  # not inherited: git gets only the end dup2'ed to ``fd``
        child, parent = (read, write) if to_child else (write, read)
        actions.append((os.POSIX_SPAWN_DUP2, child, fd))
        child_ends.append(child)
        return open(parent, "wb" if to_child else "rb")  # closed by Process

    in_pipe = err_pipe = None
    if stdin:
        in_pipe = pipe(0, to_child=True)
    else:
        actions.append((os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0))
    out_pipe = pipe(1, to_child=False)
    if stderr:
        err_pipe = pipe(2, to_child=False)
    else:
        actions.append((os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0))
    try:
        pid = os.posix_spawnp(
            "git", ["git", "-C", str(root), *args], os.environ, file_actions=actions
        )
    finally:
        for fd in child_ends:
            os.close(fd)
    return Process(
        in_pipe, out_pipe, err_pipe, lambda: os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    )


def _popen(root: Root, args: Sequence[str], *, stdin: bool, stderr: bool) -> Process:
    import subprocess

    pipe, null = subprocess.PIPE, subprocess.DEVNULL
    proc = subprocess.Popen(
        ["git", *args],
        cwd=root,
        stdin=pipe if stdin else null,
        stdout=pipe,
        stderr=pipe if stderr else null,
    )
    assert proc.stdout is not None
    return Process(proc.stdin, proc.stdout, proc.stderr, proc.wait)  # type: ignore[arg-type]


def commits(root: Root, old: str, new: str) -> list[tuple[str, str]]:
    """``(first parent, commit)`` of each commit in ``old..new`` (all of ``new`` when ``old``
    is empty or zeros: a new branch), oldest first."""
    spec = new if old in ("", ZERO) else f"{old}..{new}"
    out = run(root, "rev-list", "--parents", "--end-of-options", spec, "--").decode()
    pairs = []
    for line in reversed(out.splitlines()):
        shas = line.split()
        pairs.append((shas[1] if len(shas) > 1 else EMPTY_TREE, shas[0]))
    return pairs


def describe_commit(root: Root, commit: str) -> str:
    """``in commit 1a2b3c4 "subject"``: how a pre-push message names a commit."""
    out = run(root, "log", "-1", "--format=%h%x00%s", "--end-of-options", commit, "--")
    short, _, subject = out.decode("utf-8", "replace").strip().partition("\0")
    return f'in commit {short} "{subject}"'


def last_commit(root: Root, old: str, new: str, path: str) -> str:
    """``describe_commit`` of the last commit in ``old..new`` that changed ``path`` ("" when
    none did, or git cannot tell)."""
    spec = new if old in ("", ZERO) else f"{old}..{new}"
    try:
        out = run(root, "log", "-1", "--format=%H", "--end-of-options", spec, "--", path)
        sha = out.decode().strip()
        return describe_commit(root, sha) if sha else ""
    except GitFailed:
        return ""
