"""The copy the model works in, and what it changed there, validated as data and taken
into the checkout: the model's tools and commands never touch the checkout itself.

:func:`opened` copies the repository's files (tracked and untracked-but-not-ignored, as
``git ls-files`` lists them; every file outside ``.git`` when there is no git) into a
temporary directory outside the checkout, remembering each one's digest.  The model's
file tools and every command (isolated, :mod:`bot.agent.implementation.isolation`) act
on that copy; the bot's own state — items, results, summaries, locks — stays in the
checkout, where nothing the model drives can write.

Afterwards the copy is walked without following anything (:func:`collect`); each path
that differs from how the copy was made is a change, and a change is taken only when it
is a regular file (or a deletion) on the allow-list:

- never a symbolic link, a hard-linked file, a device, a FIFO or a socket;
- never a protected path: :data:`ALWAYS_PROTECTED` (git's and CI's and hooks'
  configuration), every file of the RFD directory and its state (only the bot writes
  those), ``implement.protected_paths``; only ``implement.allowed_paths``;
- never a file over :data:`MAX_FILE_BYTES` or past :data:`MAX_PHASE_BYTES` in all (GitHub
  refuses files over 100 MB), never a file holding the value of a secret the process has.

Every refusal is kept with its reason: the reply, the PR body and the terminal list them.
Writing into the checkout follows no link either (:func:`apply`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.agent.implementation.commit_guard import shown
from bot.agent.toolbox.sandbox import LINK, SPECIAL, Refused, matches_any, read_bounded, refusal_of
from bot.config.load import Config
from bot.core.errors import ValidationError
from bot.core.redact import SecretValues, held

Entry = tuple[str, str]
"""``("file", sha256)``, ``("exec", sha256)`` or ``("link", target)``."""
SKIP_DIRS = frozenset({".git", ".venv", "node_modules", "__pycache__", ".mypy_cache"})
"""Not copied from a directory without git (git's own ignore rules decide otherwise)."""
LIST_FAILED = "listing the files of {root}: `git ls-files` failed: {error}"
CHUNK = 1 << 20


@dataclass(frozen=True)
class WorkCopy:
    path: Path
    """The copy's root (a fresh temporary directory)."""
    entries: Mapping[str, Entry]
    """What the copy held when it was made, by posix path."""


@contextmanager
def opened(root: Path) -> Iterator[WorkCopy]:
    """A fresh copy of the files of ``root``, removed afterwards."""
    place = Path(tempfile.mkdtemp(prefix="rfd-work-")).resolve()
    try:
        copy = place / "repo"
        copy.mkdir()
        yield WorkCopy(copy, _fill(root.resolve(), copy))
    finally:
        shutil.rmtree(place, ignore_errors=True)


def _fill(root: Path, copy: Path) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for rel in _listed(root):
        source, target = root / rel, copy / rel
        info = os.lstat(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        if stat.S_ISLNK(info.st_mode):
            link = os.readlink(source)
            target.symlink_to(link)
            entries[rel] = ("link", link)
        elif stat.S_ISREG(info.st_mode):
            shutil.copyfile(source, target, follow_symlinks=False)
            executable = bool(info.st_mode & 0o111)
            if executable:
                target.chmod(0o755)
            entries[rel] = ("exec" if executable else "file", digest(target))
    return entries


def _listed(root: Path) -> list[str]:
    """The files to copy: git's tracked and untracked-not-ignored ones, else every file."""
    if not (root / ".git").exists():
        return _walked(root)
    argv = [
        "git",
        "-c",
        "core.hooksPath=/dev/null",
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
    ]
    done = subprocess.run(argv, cwd=root, capture_output=True, check=False)
    if done.returncode:
        error = done.stderr.decode(errors="replace").strip()
        raise ValidationError(LIST_FAILED.format(root=root, error=error))
    names = {os.fsdecode(n) for n in done.stdout.split(b"\0") if n}
    return sorted(n for n in names if os.path.lexists(root / n) and not _under_link(root, n))


def _under_link(root: Path, rel: str) -> bool:
    parent = (root / rel).parent
    return os.path.realpath(parent) != str(parent)


def _walked(root: Path) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        here = Path(dirpath)
        found += [(here / n).relative_to(root).as_posix() for n in filenames]
        found += [
            (here / d).relative_to(root).as_posix() for d in dirnames if (here / d).is_symlink()
        ]
    return sorted(found)


def digest(path: Path) -> str:
    """The sha256 of a regular file, read in chunks without following a link."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    sha = hashlib.sha256()
    with os.fdopen(fd, "rb") as fh:
        while chunk := fh.read(CHUNK):
            sha.update(chunk)
    return sha.hexdigest()


MAX_FILE_BYTES = 10_000_000
"""Largest file taken from the copy."""
MAX_PHASE_BYTES = 50_000_000
"""Largest sum of the files a phase changes (GitHub refuses any file over 100 MB)."""
ALWAYS_PROTECTED = (
    ".git/**",
    "**/.git/**",
    ".git*",
    "**/.git*",
    ".github/**",
    ".pre-commit-config.yaml",
    ".pre-commit-hooks.yaml",
    ".gitlab-ci.yml",
    ".gitlab/**",
    ".circleci/**",
    ".travis.yml",
    "azure-pipelines.yml",
    ".azure-pipelines/**",
    "Jenkinsfile",
    ".buildkite/**",
    ".drone.yml",
    ".woodpecker.yml",
    ".woodpecker/**",
    "bitbucket-pipelines.yml",
    ".husky/**",
    "lefthook.yml",
    ".lefthook.yml",
)
"""Git's, CI's and hooks' configuration: whatever ``implement.protected_paths`` says."""
CACHES = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
"""Tools' caches the commands leave behind: never changes."""
PROTECTED = "is protected (git, CI or hook configuration, or implement.protected_paths)"
RFD_FILE = "is an RFD or RFD state, which only the bot writes"
NOT_ALLOWED = "is not in implement.allowed_paths"
PHASE_FULL = "would take the phase's changes over {cap:,} bytes"
SECRET = "holds {kind}"
GIT_DIR = "is a git directory"
COPY_OF = "is a copy of `{path}`, which the model may not write"
NOT_A_DIRECTORY = "would be written through something in the checkout that is not a directory"
REFUSED_LINE = "not taken: `{path}` {reason}"
MIN_COPY = 64
"""Bytes a file needs before being the same as a protected one says it is a copy of it (an
empty ``__init__.py`` is no copy of an empty ``.gitkeep``)."""


@dataclass(frozen=True)
class Bounds:
    """What may come out of the copy."""

    allowed: tuple[str, ...] = ("**",)
    protected: tuple[str, ...] = ()
    bot_only: tuple[str, ...] = ()
    """The RFD directory and the state's (``docs/rfd/**``)."""
    own: tuple[str, ...] = ()
    """The bot's own files of the phase (its summary, its items), which the publish job
    takes from the work job's commit: no other file of ``bot_only``."""
    max_file: int = MAX_FILE_BYTES
    max_phase: int = MAX_PHASE_BYTES

    def refusal(self, rel: str) -> str:
        if matches_any(rel, self.own):
            return ""
        if matches_any(rel, self.bot_only):
            return RFD_FILE
        if matches_any(rel, (*ALWAYS_PROTECTED, *self.protected)):
            return PROTECTED
        if not matches_any(rel, self.allowed):
            return NOT_ALLOWED
        return ""


@dataclass(frozen=True)
class Change:
    path: str
    data: bytes | None
    """None: the file was deleted."""
    executable: bool = False


@dataclass(frozen=True)
class Taken:
    changes: tuple[Change, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    """(path, reason) of each change left out."""

    def lines(self) -> list[str]:
        return [REFUSED_LINE.format(path=shown(p), reason=why) for p, why in self.refused]


@dataclass(frozen=True)
class Candidate:
    """A changed path offered for the phase: from the model's copy, or from the work job's
    phase commit when the publish job checks it again (:mod:`bot.github.implement.artifact`)."""

    path: str
    problem: str = ""
    """``""`` for a regular file; else why it is none (a link, a special file, a gitlink)."""
    read: Callable[[int], bytes] | None = None
    """Its bytes, at most the cap (:class:`bot.agent.toolbox.sandbox.Refused` past it)."""
    executable: bool = False
    deleted: bool = False


def collect(
    copy: WorkCopy, bounds: Bounds, values: SecretValues, checkout: Path | None = None
) -> Taken:
    """The changes of ``copy`` that may be taken, and every refused one with its reason;
    what ``checkout``'s git ignores (by the checkout's rules, never the copy's) is no change."""
    walked = list(_walk(copy.path))
    found = [(rel, why) for rel, why in walked if not _unchanged(copy, rel, why, bounds)]
    deleted = sorted(set(copy.entries) - {rel for rel, _ in walked})
    ignored = _ignored(checkout, [rel for rel, _ in found]) if checkout is not None else set()
    guarded = {was[1]: rel for rel, was in copy.entries.items() if bounds.refusal(rel)}
    offered = [_from_copy(copy.path, rel, why) for rel, why in found if rel not in ignored]
    offered += [Candidate(rel, deleted=True) for rel in deleted]
    return check(offered, bounds, values, guarded)


def check(
    offered: Sequence[Candidate],
    bounds: Bounds,
    values: SecretValues,
    guarded: Mapping[str, str] | None = None,
) -> Taken:
    """The one check of what a phase may change — run on the model's copy (local and the
    work job) and again by the publish job on the work job's commit: regular files only,
    allowed and unprotected paths, within the caps, no secret value, no copy of a protected
    file (``guarded``: sha256 of each protected file's content → its path)."""
    changes: list[Change] = []
    refused: list[tuple[str, str]] = []
    total = 0
    for offer in offered:
        rel = offer.path
        if offer.deleted:
            why = bounds.refusal(rel)
            refused += [(rel, f"(deleted) {why}")] if why else []
            changes += [] if why else [Change(rel, None)]
            continue
        why = bounds.refusal(rel) or offer.problem
        if not why:
            change, why = _read(offer, bounds.max_file, values, guarded or {})
            total += len(change.data or b"") if change is not None else 0
            if change is not None and total > bounds.max_phase:
                change, why = None, PHASE_FULL.format(cap=bounds.max_phase)
            changes += [change] if change is not None else []
        refused += [(rel, why)] if why else []
    return Taken(tuple(changes), tuple(refused))


def _from_copy(root: Path, rel: str, problem: str) -> Candidate:
    path = root / rel
    if problem:
        return Candidate(rel, problem)
    executable = bool(os.lstat(path).st_mode & 0o111)
    return Candidate(rel, read=lambda cap: read_bounded(path, cap, rel), executable=executable)


def _unchanged(copy: WorkCopy, rel: str, problem: str, bounds: Bounds) -> bool:
    was = copy.entries.get(rel)
    if was is None:
        return False
    if was[0] == "link":
        return problem == LINK and os.readlink(copy.path / rel) == was[1]
    return not problem and _same(copy.path / rel, was, bounds.max_file)


def _ignored(checkout: Path, paths: Sequence[str]) -> set[str]:
    """The ``paths`` git ignores in ``checkout`` (its own ignore rules)."""
    if not paths or not (checkout / ".git").exists():
        return set()
    argv = ["git", "-c", "core.hooksPath=/dev/null", "check-ignore", "-z", "--stdin"]
    given = b"\0".join(os.fsencode(p) for p in paths) + b"\0"
    done = subprocess.run(argv, cwd=checkout, input=given, capture_output=True, check=False)
    return {os.fsdecode(p) for p in done.stdout.split(b"\0") if p}


def _walk(root: Path) -> Iterator[tuple[str, str]]:
    """``(path, problem)`` of every non-directory under ``root``, links never followed;
    ``problem`` is ``""`` for a regular file, else why it is no file to take."""
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        kept = []
        for name in sorted(dirnames):
            rel = (here / name).relative_to(root).as_posix()
            if (here / name).is_symlink():
                yield rel, LINK
            elif name == ".git":
                if rel != ".git":
                    yield rel, GIT_DIR
            elif name in CACHES:
                continue
            else:
                kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            rel = (here / name).relative_to(root).as_posix()
            if rel == ".git":
                continue
            info = os.lstat(here / name)
            if stat.S_ISLNK(info.st_mode):
                yield rel, LINK
            elif not stat.S_ISREG(info.st_mode):
                yield rel, SPECIAL
            else:
                yield rel, ""


def _same(path: Path, was: Entry, cap: int) -> bool:
    """Whether the regular file ``path`` is as it was (a changed mode counts as a change)."""
    info = os.lstat(path)
    executable = bool(info.st_mode & 0o111)
    if was[0] not in ("file", "exec") or executable != (was[0] == "exec"):
        return False
    if refusal_of(path, max(cap, info.st_size)):  # a hard link, say: never "the same"
        return False
    return digest(path) == was[1]


def _read(
    offer: Candidate, cap: int, values: SecretValues, guarded: Mapping[str, str]
) -> tuple[Change | None, str]:
    assert offer.read is not None
    try:
        data = offer.read(cap)
    except Refused as exc:
        return None, exc.reason
    original = guarded.get(hashlib.sha256(data).hexdigest()) if len(data) >= MIN_COPY else None
    if original is not None:
        return None, COPY_OF.format(path=shown(original))
    found = values.find_bytes(data) if values else []
    if found:
        kinds = ", ".join(sorted({kind for _, _, kind in found}))
        return None, SECRET.format(kind=kinds)
    return Change(offer.path, data, offer.executable), ""


def apply(root: Path, taken: Taken) -> Taken:
    """Write ``taken``'s changes into the checkout ``root`` (atomically, through no link);
    ``taken`` with the changes that could not be written moved to the refused ones."""
    root = root.resolve()
    done: list[Change] = []
    refused = list(taken.refused)
    for change in taken.changes:
        target = root / change.path
        if not _plain_parents(root, target):
            refused.append((change.path, NOT_A_DIRECTORY))
            continue
        if change.data is None:
            if (os.path.lexists(target) and not target.is_dir()) or target.is_symlink():
                target.unlink()
            done.append(change)
            continue
        if target.is_dir() and not target.is_symlink():
            refused.append((change.path, NOT_A_DIRECTORY))
            continue
        _write(target, change.data, change.executable)
        done.append(change)
    return Taken(tuple(done), tuple(refused))


def _plain_parents(root: Path, target: Path) -> bool:
    """Make ``target``'s missing parents; False when one that exists is not a real directory."""
    current = root
    for part in target.relative_to(root).parts[:-1]:
        current = current / part
        if os.path.lexists(current):
            if current.is_symlink() or not current.is_dir():
                return False
        else:
            current.mkdir()
    return True


def _write(target: Path, data: bytes, executable: bool) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o755 if executable else 0o644)
        os.replace(tmp, target)  # replaces a link itself, never what it points to
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def bounds_for(config: Config, extra_protected: Sequence[str] = ()) -> Bounds:
    """The bounds ``[implement]`` and the RFD directory of ``config`` set (RFDs kept at the
    root: every Markdown file there counts as one)."""
    impl = config.implement
    rfds = config.rfd_dir.removeprefix("./")
    own = f"{rfds}/**" if rfds not in ("", ".") else "*.md"
    bot_only = (own, f"{config.state_root.removeprefix('./')}/**")
    protected = (*impl.protected_paths, *extra_protected)
    return Bounds(tuple(impl.allowed_paths), protected, bot_only)


def held_values(config: Config, environ: Mapping[str, str]) -> SecretValues:
    """The secret values of ``environ`` (and the configured names) no taken file may hold."""
    impl = config.implement
    return held(environ, (*impl.redacted_env, config.provider.api_key_env))
