"""What implement leaves in the worktree is checked, not what its tools asked for.

Commands a model wrote can create, change, delete, rename, chmod or symlink anything the
isolation lets them (the worktree).  Before the bot commits — and after ``rfd implement``
— every path that differs from how the run found it is checked: one outside
``implement.allowed_paths``, inside ``implement.protected_paths``, or a symlink leading out
of the repository is put back as it was (a person's own uncommitted change included);
every changed file that holds a secret value the process has (:mod:`bot.core.redact`,
any encoding) has it redacted.  The state directory is the bot's: exempt from the path
check, never from the secret scan.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.agent.toolbox.sandbox import matches_any
from bot.config.load import Config
from bot.core.errors import ValidationError
from bot.core.redact import SecretValues, held

Entry = tuple[str, bytes, bool] | None
"""How a path was: ``("file", content, executable)``, ``("link", target, False)``, or absent."""
REDACTED = b"[redacted]"
PROTECTED = "is protected (implement.protected_paths)"
NOT_ALLOWED = "is not in implement.allowed_paths"
LINK_OUT = "is a symlink leading out of the repository"
SECRET = "held {what}: redacted"
DISCARDED = "discarded `{path}`: it {reason} (put back as it was)"
REDACTED_NOTE = "`{path}` {note}"
GIT_FAILED = "checking what implement left in {root}: `git {args}` failed: {error}"
GIT_FAILED_HINT = "nothing was committed; fix the worktree and run again"
UNSAFE = re.compile(r"[^\w./ +@=,-]")


@dataclass(frozen=True)
class Baseline:
    """The paths that differed from HEAD when the run started, as they were."""

    entries: Mapping[str, Entry] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    discarded: tuple[tuple[str, str], ...] = ()
    """(path, why) of each change put back."""
    redacted: tuple[tuple[str, str], ...] = ()
    """(path, what it held) of each file a secret was redacted from."""

    def lines(self) -> list[str]:
        """One line per change, each path made safe to show inside backticks."""
        out = [DISCARDED.format(path=shown(p), reason=why) for p, why in self.discarded]
        notes = [(shown(p), SECRET.format(what=what)) for p, what in self.redacted]
        return out + [REDACTED_NOTE.format(path=p, note=note) for p, note in notes]


def shown(path: str) -> str:
    """A file name a command chose, with anything that could end a code span or start
    markdown or HTML (backticks, ``<``, newlines...) replaced by ``?``."""
    return UNSAFE.sub("?", path)


def _git(root: Path, *args: str) -> bytes:
    argv = ["git", "-c", "core.hooksPath=/dev/null", *args]  # no hook runs for the bot
    done = subprocess.run(argv, cwd=root, capture_output=True, check=False)
    if done.returncode:
        error = done.stderr.decode(errors="replace").strip()
        message = GIT_FAILED.format(args=" ".join(args[:2]), root=root, error=error)
        raise ValidationError(message, hint=GIT_FAILED_HINT)
    return done.stdout


def changed_paths(root: Path) -> list[str]:
    """Every path that differs from HEAD: tracked or not, deleted, renamed (both sides)."""
    out = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
    return sorted(
        {item[3:].decode("utf-8", "surrogateescape") for item in out.split(b"\0") if item}
    )


def entry(path: Path) -> Entry:
    if path.is_symlink():
        return ("link", os.fsencode(os.readlink(path)), False)
    if path.is_file():
        return ("file", path.read_bytes(), os.access(path, os.X_OK))
    return None


def baseline(root: Path) -> Baseline:
    """What the person had changed before the run (kept as it was, whatever the run does)."""
    return Baseline({rel: entry(root / rel) for rel in changed_paths(root)})


def check_run(root: Path, before: Baseline, config: Config, environ: Mapping[str, str]) -> Report:
    """:func:`check` with the bounds of ``[implement]``; the state directory, which the bot
    writes (the RFD's results, usage, events; a local tracking issue), is exempt."""
    impl = config.implement
    values = held(environ, (*impl.redacted_env, config.provider.api_key_env))
    exempt = (f"{config.state_root}/**",)
    return check(
        root,
        before,
        allowed=impl.allowed_paths,
        protected=impl.protected_paths,
        exempt=exempt,
        values=values,
    )


def check(
    root: Path,
    before: Baseline,
    *,
    allowed: Sequence[str],
    protected: Sequence[str],
    exempt: Sequence[str],
    values: SecretValues,
) -> Report:
    """Put back the changes out of bounds and redact secret values; what was done."""
    discarded, redacted = [], []
    changed = changed_paths(root)
    for rel in changed + [p for p in before.entries if p not in changed]:
        now = entry(root / rel)
        if rel in before.entries and now == before.entries[rel]:
            continue
        reason = _refusal(root, rel, now, allowed, protected, exempt)
        if reason:
            _restore(root, rel, before)
            discarded.append((rel, reason))
        elif now is not None and now[0] == "file" and values:
            found = values.find_bytes(now[1])
            if found:
                _redact(root / rel, now[1], found)
                redacted.append((rel, ", ".join(sorted({kind for _, _, kind in found}))))
    return Report(tuple(discarded), tuple(redacted))


def _refusal(
    root: Path,
    rel: str,
    now: Entry,
    allowed: Sequence[str],
    protected: Sequence[str],
    exempt: Sequence[str],
) -> str | None:
    if matches_any(rel, exempt):
        return None
    if matches_any(rel, protected):
        return PROTECTED
    if not matches_any(rel, allowed):
        return NOT_ALLOWED
    if now is not None and now[0] == "link":
        target = (root / rel).parent / os.fsdecode(now[1])
        if not target.resolve().is_relative_to(root.resolve()):
            return LINK_OUT
    return None


def _restore(root: Path, rel: str, before: Baseline) -> None:
    """Put ``rel`` back as the run found it: the person's version, HEAD's, or nothing."""
    path = root / rel
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():  # a directory where the file was: the run made it
        shutil.rmtree(path)
    if rel in before.entries:
        _write(path, before.entries[rel])
    elif _git(root, "ls-tree", "--name-only", "HEAD", "--", rel):
        _git(root, "checkout", "HEAD", "--", rel)


def _write(path: Path, was: Entry) -> None:
    if was is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    kind, data, executable = was
    if kind == "link":
        path.symlink_to(os.fsdecode(data))
        return
    path.write_bytes(data)
    if executable:
        path.chmod(path.stat().st_mode | 0o111)


def _redact(path: Path, data: bytes, found: Sequence[tuple[int, int, str]]) -> None:
    out, done = bytearray(), 0
    for start, end, _ in found:
        out += data[done:start] + REDACTED
        done = end
    path.write_bytes(bytes(out + data[done:]))
