"""What the work job hands the publish job: the phase's one commit as a git bundle and a
manifest (RFD, phase label, base commit, how long the run took and what it spent, for the
phase comment's "Finished in" line, and the lines of what the check of the model's changes
did) — or how the work ended without a phase — written by the job that talks to the model
and holds a read-only token, checked again by the job that holds the write token, which
writes every text it posts itself (:mod:`bot.github.implement.publish`).  When
an earlier run pushed the phase's branch but never opened its pull request, the manifest
alone says so (``recover``): nothing is implemented again, and the publish job proves the
branch is the bot's before it opens the pull request (:mod:`bot.github.implement.publish`).

The publish job trusts none of it.  It reads the manifest bounded, fetches the bundle into
its checkout of the default branch with hooks off and objects checked, and takes the commit
only when its one parent is the base both jobs checked out; every path the commit changes
goes through the same check as the model's copy did
(:func:`bot.agent.implementation.work_copy.check`:
regular files ``100644``/``100755`` only, the allow-list minus protected paths, the caps, no
secret value of the publish job), and every line of the check's report is bounded, free of
markers and secret values, and shown inline-safe.  Nothing in the
artifact is run: git only reads it as objects.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.agent.implementation.work_copy import (
    REFUSED_LINE,
    Bounds,
    Candidate,
    bounds_for,
    check,
    held_values,
)
from bot.agent.toolbox.sandbox import LINK, SPECIAL, TOO_BIG, Refused, read_bounded
from bot.config.load import Config
from bot.core.errors import ForgeError, PermissionDenied
from bot.core.redact import SecretValues

ARTIFACT_ENV = "RFD_BOT_ARTIFACT"
"""The directory the work job writes and the publish job reads (the workflow sets it)."""
MANIFEST = "manifest.json"
BUNDLE = "phase.bundle"
FORMAT = 3
MAX_MANIFEST = 1_000_000
MAX_BUNDLE = 120_000_000
RAN = {"elapsed": 86_400.0, "tokens": 1_000_000_000, "cost_usd": 1_000_000.0}
"""The run's facts the manifest hands over, and the most each may be (numbers only)."""
MAX_LINE = 2_000
MAX_LINES = 1_000
"""The most lines of the check's report taken, and the longest."""
ENDINGS = ("", "no-model", "not-isolated", "changed", "failed", "nothing")
"""How the work job ended, as the publish job words it (:mod:`bot.github.implement.publish`):
a phase handed over (``""``), or a known reason it handed none — never the work job's text."""
STAGES = ("", "RESEARCH", "PLAN", "ITEM", "SUMMARY", "PUSH")
"""Where a failed run stopped (:class:`bot.github.progress.Stage` names)."""
MOST_ITEMS = 10_000
RID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
GITLINK = "is a submodule (a gitlink), never taken"
BAD_MODE = "has mode {mode}: only regular files (100644, 100755) are taken"
WRONG_BASE = "the phase commit is based on {found}, not on `{base}` which this job checked out"
NOT_ONE = "the bundle must hold one commit on top of the base, it holds {found}"
MARKER = "the {name} holds an HTML comment (a marker is the bot's to write)"
SECRET_TEXT = "the {name} holds {kind}"
NO_FIELD = "the manifest has no valid `{field}`"


CHECKED_ENV = ("RFD_BOT_CHECKED_RFD", "RFD_BOT_CHECKED_PHASE")
"""The check job's outputs ``rfd`` and ``phase`` (the RFD and phase label of the progress
comment it posted), passed to the publish job by the workflow."""


def checked_phase(environ: Mapping[str, str]) -> tuple[str, str] | None:
    """The RFD and phase label the check job posted the progress comment of, when both are
    given in their strict formats (as the manifest's ``rid`` and ``label``); else None."""
    rid, label = (environ.get(name, "") for name in CHECKED_ENV)
    return (rid, label) if RID.fullmatch(rid) and LABEL.fullmatch(label) else None


class Tampered(PermissionDenied):
    """The artifact fails a check; ``reasons`` says each failure (one line each)."""

    def __init__(self, reasons: Sequence[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = tuple(reasons)


@dataclass(frozen=True)
class Handed:
    """The manifest: which phase, on which base, what the run spent and what its check did —
    or how the work ended without a phase."""

    rid: str
    label: str
    base: str
    failed: bool
    checked: tuple[str, ...] = ()
    """What the check of the model's changes did, one line each (``commit_guard``'s
    report): shown inline-safe in the pull request's body and the reply."""
    elapsed: float = 0.0
    """Seconds the work job's run took, its tokens and cost: the phase comment says them."""
    tokens: int = 0
    cost_usd: float = 0.0
    recover: bool = False
    """An earlier run pushed the phase's branch and never opened its pull request: no bundle,
    no texts; the publish job opens the pull request from the branch only when GitHub says
    the bot's account pushed its head, and writes every text itself."""
    ended: str = ""
    """Why no phase was handed over (one of :data:`ENDINGS`; empty: a phase, or ``recover``).
    The publish job words it; ``rid`` and ``label`` may be empty when the work job ended
    before it knew the phase."""
    stopped: str = ""
    """Where a failed run stopped (one of :data:`STAGES`), at item ``k`` of ``n``."""
    k: int = 0
    n: int = 0

    def texts(self) -> dict[str, str]:
        return {f"report's line {n}": text for n, text in enumerate(self.checked, 1)}


def write_bundle(dest: Path, checkout: Path, base: str) -> None:
    """The bundle of ``checkout``'s HEAD, one commit on ``base``, in the artifact ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    git_text(checkout, "bundle", "create", "--quiet", str(dest / BUNDLE), f"{base}..HEAD")


def write_manifest(dest: Path, handed: Handed) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    manifest = {"format": FORMAT, **handed.__dict__, "checked": list(handed.checked)}
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")


def artifact_dir(environ: Mapping[str, str]) -> Path:
    """Where the work job leaves the artifact and the publish job finds it."""
    found = environ.get(ARTIFACT_ENV) or str(Path(environ.get("RUNNER_TEMP", ".")) / "rfd-phase")
    return Path(found)


def read(src: Path) -> Handed:
    """The manifest of the artifact in ``src``, every field checked for its type and shape."""
    try:
        data = json.loads(read_bounded(src / MANIFEST, MAX_MANIFEST, MANIFEST))
    except (OSError, ValueError, Refused) as exc:
        raise Tampered([f"the manifest cannot be read: {exc}"]) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Tampered([NO_FIELD.format(field="format")])
    ended = data.get("ended")
    shapes = {"rid": RID, "label": LABEL, "base": SHA}
    bad = [
        k
        for k, p in shapes.items()
        if not isinstance(data.get(k), str)
        or not (p.fullmatch(data[k]) or (ended and k != "base" and not data[k]))
    ]
    lines = data.get("checked")
    if (
        not isinstance(lines, list)
        or len(lines) > MAX_LINES
        or not all(isinstance(line, str) and len(line) <= MAX_LINE for line in lines)
    ):
        bad.append("checked")
    bad += [k for k in ("failed", "recover") if not isinstance(data.get(k), bool)]
    bad += [k for k, most in RAN.items() if not _number(data.get(k), most, int_only=k == "tokens")]
    bad += [k for k, known in (("ended", ENDINGS), ("stopped", STAGES)) if data.get(k) not in known]
    bad += [k for k in ("k", "n") if not _number(data.get(k), MOST_ITEMS, int_only=True)]
    if bad:
        raise Tampered([NO_FIELD.format(field=k) for k in bad])
    fields = {f.name: data[f.name] for f in dataclasses.fields(Handed)}
    return Handed(**{**fields, "checked": tuple(lines or ())})


def _number(value: object, most: float, *, int_only: bool) -> bool:
    """Is ``value`` a number from 0 to ``most`` (an int where ``int_only``; never a bool)?"""
    kinds = (int,) if int_only else (int, float)
    return isinstance(value, kinds) and not isinstance(value, bool) and 0 <= value <= most


def texts_refused(handed: Handed, values: SecretValues) -> list[str]:
    """Why a line may not be shown (made inline-safe) in a post: an HTML comment (markers are
    the bot's), or a secret value of this job in any encoding."""
    out = []
    for name, text in handed.texts().items():
        if "<!--" in text or "-->" in text:
            out.append(MARKER.format(name=name))
        kinds = sorted({kind for _, _, kind in values.find(text)}) if values else []
        out += [SECRET_TEXT.format(name=name, kind=", ".join(kinds))] if kinds else []
    return out


def fetch(root: Path, src: Path, base: str) -> str:
    """The bundle's commit fetched into ``root`` (hooks off, objects checked): one commit
    whose one parent is ``base``, which must be ``root``'s HEAD."""
    head = git_text(root, "rev-parse", "--verify", "HEAD").strip()
    if head != base:
        raise Tampered([WRONG_BASE.format(found=f"`{base}`", base=head)])
    bundle = src / BUNDLE
    try:
        read_bounded(bundle, MAX_BUNDLE, BUNDLE)  # a regular file, not a link, bounded
    except (OSError, Refused) as exc:
        raise Tampered([f"the bundle cannot be read: {exc}"]) from exc
    try:
        git_text(
            root,
            "-c",
            "transfer.fsckObjects=true",
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--end-of-options",
            str(bundle),
            "+HEAD:refs/rfd-bot/phase",
        )
    except ForgeError as exc:
        raise Tampered([f"the bundle cannot be fetched: {exc}"]) from exc
    commit = git_text(root, "rev-parse", "--verify", "refs/rfd-bot/phase^{commit}").strip()
    parents = git_text(root, "rev-list", "--parents", "-n", "1", commit).split()[1:]
    if parents != [base]:
        raise Tampered([WRONG_BASE.format(found=", ".join(parents) or "nothing", base=base)])
    return commit


def offered(root: Path, base: str, commit: str) -> list[Candidate]:
    """Each path ``commit`` changes against ``base``, as the copy's check takes it."""
    raw = _git_bytes(root, "diff-tree", "-r", "-z", "--no-renames", "--raw", base, commit)
    fields = raw.split(b"\0")
    out = []
    for meta, name in zip(fields[0::2], fields[1::2], strict=False):
        if not meta.startswith(b":"):
            continue
        _, new_mode, _, blob, status = meta[1:].decode().split(" ")
        out.append(_candidate(root, os.fsdecode(name), new_mode, blob, status))
    return out


def _candidate(root: Path, path: str, mode: str, blob: str, status: str) -> Candidate:
    if status == "D":
        return Candidate(path, deleted=True)
    if mode == "120000":
        return Candidate(path, LINK)
    if mode == "160000":
        return Candidate(path, GITLINK)
    if mode not in ("100644", "100755"):
        return Candidate(path, BAD_MODE.format(mode=mode) if mode else SPECIAL)
    return Candidate(
        path, read=lambda cap: _blob(root, path, blob, cap), executable=mode == "100755"
    )


def _blob(root: Path, path: str, blob: str, cap: int) -> bytes:
    size = int(git_text(root, "cat-file", "-s", blob))
    if size > cap:
        raise Refused(path, TOO_BIG.format(size=size, cap=cap))
    return _git_bytes(root, "cat-file", "blob", blob)


def recheck(
    root: Path,
    src: Path,
    handed: Handed,
    config: Config,
    own: Sequence[str],
    environ: Mapping[str, str],
) -> str:
    """The phase commit, once every check passed (else :class:`Tampered`, every reason);
    ``own`` are the bot's files of this phase (its summary and items), which it may write."""
    values = held_values(config, environ)
    reasons = texts_refused(handed, values)
    commit = fetch(root, src, handed.base)
    bounds = bounds_for(config)
    bounds = Bounds(bounds.allowed, bounds.protected, bounds.bot_only, tuple(own))
    taken = check(offered(root, handed.base, commit), bounds, values, _guarded(root, bounds))
    reasons += [REFUSED_LINE.format(path=p, reason=why) for p, why in taken.refused]
    if reasons:
        raise Tampered(reasons)
    return commit


def _guarded(root: Path, bounds: Bounds) -> dict[str, str]:
    """sha256 of each protected file of the base (no changed file may be a copy of one)."""
    names = git_text(root, "ls-files", "-z").split("\0")
    out = {}
    for rel in names:
        path = root / rel
        if rel and bounds.refusal(rel) and path.is_file() and not path.is_symlink():
            out[hashlib.sha256(path.read_bytes()).hexdigest()] = rel
    return out


def git_text(root: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """git's output in ``root`` (hooks off); :class:`ForgeError` when it fails."""
    return _git_bytes(root, *args, env=env).decode("utf-8", "replace")


def _git_bytes(root: Path, *args: str, env: Mapping[str, str] | None = None) -> bytes:
    argv = ["git", "-c", "core.hooksPath=/dev/null", *args]
    full = {**os.environ, **env} if env else None
    done = subprocess.run(argv, cwd=root, capture_output=True, check=False, env=full)
    if done.returncode:
        err = done.stderr.decode("utf-8", "replace").strip()
        what = next(a for a in args if not a.startswith("-") and "=" not in a)
        raise ForgeError(f"`git {what}` failed: {err}")
    return done.stdout
