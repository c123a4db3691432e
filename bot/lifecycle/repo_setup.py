"""``rfd init``: what a repository needs to run RFDs (idempotent; never overwrites)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from bot.config.load import CONFIG_PATH, Config, load_config, parse
from bot.core.atomic import make_dir
from bot.model.ids import split_file_name
from bot.site import DEFAULT_OUT
from bot.state import atomic_write

CONFIG_TEMPLATE = """\
# rfd-bot configuration. Every key, its default and meaning: `rfd help configuration`.
# Unknown keys and bad values are errors, so typos do not go unnoticed.

[rfd]
dir = "docs/rfd"          # where RFD files live
# state_dir = ".state"    # workflow state, committed with the RFDs

[labels]
review = "rfd:review"     # PR label: AI review of the changed RFDs
accept = "rfd:accept"     # PR label: accept (promote) the changed RFDs

[steps.review]
model = "sonnet"          # alias from [models] or a model id
"""


@dataclass(frozen=True)
class InitOutcome:
    changed: list[str]
    """A line per change."""
    kept: list[str]
    """A line per example that was there already (and why it was not added)."""


DETECTED = "created {path} from the conventions of the RFDs in {rfd_dir}/ (each setting says why)"
KEPT_CONFIG = (
    "kept {path} as it is; `rfd init --overwrite` replaces it with the conventions detected "
    "in {rfd_dir}/ (the current file is kept as {backup})"
)
BACKUP_SUFFIX = ".orig"


def init(root: Path, *, example: bool = False, overwrite: bool = False) -> InitOutcome:
    """Create what is missing; say what changed and which examples were kept.  In a
    repository that has RFDs already the configuration is detected from them (an existing
    configuration is replaced only with ``overwrite``, and kept beside as a backup)."""
    changes: list[str] = []
    kept: list[str] = []
    _write_config(root, overwrite, changes, kept)
    cfg = load_config(root)
    rfd_dir = root / cfg.rfd_dir
    if not rfd_dir.is_dir():
        make_dir(rfd_dir)
        changes.append(f"created {cfg.rfd_dir}/")
    changes += _state_committed(root, cfg.state_root)
    changes += _site_ignored(root)
    if example:
        changes += _examples(root, cfg, kept)
    return InitOutcome(changes, kept)


def _write_config(root: Path, overwrite: bool, changes: list[str], kept: list[str]) -> None:
    from bot.lifecycle.adoption import detected_config, find_rfd_dir

    config_file = root / CONFIG_PATH
    exists = config_file.exists()
    found = find_rfd_dir(root)
    text = detected_config(root) if found is not None else None
    if exists and (found is None or not overwrite):
        if found is not None and text is not None and _differs(load_config(root), parse(text)):
            backup = CONFIG_PATH + BACKUP_SUFFIX
            kept.append(KEPT_CONFIG.format(path=CONFIG_PATH, rfd_dir=found[0], backup=backup))
        return
    if exists:
        atomic_write(root / (CONFIG_PATH + BACKUP_SUFFIX), config_file.read_text(encoding="utf-8"))
        changes.append(f"kept the previous {CONFIG_PATH} as {CONFIG_PATH}{BACKUP_SUFFIX}")
    atomic_write(config_file, text or CONFIG_TEMPLATE)
    if found is None:
        changes.append(f"created {CONFIG_PATH}")
    else:
        changes.append(DETECTED.format(path=CONFIG_PATH, rfd_dir=found[0]))


def _differs(current: Config, detected: Config) -> bool:
    """Would the detected conventions change what the current configuration says?"""
    return (current.rfd, current.conventions, dict(current.statuses)) != (
        detected.rfd,
        detected.conventions,
        dict(detected.statuses),
    )


def _state_committed(root: Path, state_root: str) -> list[str]:
    """The state directory must be committed: un-ignore it, mark it generated for diffs."""
    changes = []
    ignore = root / ".gitignore"
    rules = [f"!{state_root}/", f"!{state_root}/**"]
    samples = [f"{state_root}/{sample}" for sample in SAMPLE_STATE_FILES]
    if _ignored(root, samples) and not set(rules) <= set(_lines(ignore)):
        _append(ignore, ["# rfd-bot state is committed", *rules])
        changes.append(f".gitignore: un-ignored {state_root}/ (the bot reads it from the repo)")
    attrs = root / ".gitattributes"
    rule = f"{state_root}/** linguist-generated=true"
    if rule not in _lines(attrs):
        _append(attrs, [rule])
        changes.append(f".gitattributes: {state_root}/ collapsed in GitHub diffs")
    return changes


def _lines(path: Path) -> list[str]:
    """The lines of a file the user owns (none when it does not exist)."""
    return path.read_bytes().decode("utf-8").splitlines() if path.exists() else []


def _append(path: Path, lines: list[str]) -> None:
    """Add ``lines`` at the end of a file the user owns, its bytes kept as they are (its
    line endings used for ours, a missing last newline supplied)."""
    text = path.read_bytes().decode("utf-8") if path.exists() else ""
    eol = "\r\n" if "\r\n" in text else "\n"
    joint = eol if text and not text.endswith("\n") else ""
    atomic_write(path, text + joint + "".join(line + eol for line in lines))


SAMPLE_STATE_FILES = ("001/plan.json", "001/reviews/1700000000.md", "001/phases/1.md")
SITE_RULE = f"/{DEFAULT_OUT}/"
SITE_COMMENT = "# `rfd site` builds here: the site is built, never committed"


def _site_ignored(root: Path) -> list[str]:
    """Ignore ``rfd site``'s default output, once: appended to ``.gitignore``, whose bytes
    stay as they are (nothing when git ignores it already or the rule is there)."""
    ignore = root / ".gitignore"
    if SITE_RULE in _lines(ignore) or _ignored(root, [f"{DEFAULT_OUT}/index.html"]):
        return []
    _append(ignore, [SITE_COMMENT, SITE_RULE])
    return [f".gitignore: ignored {DEFAULT_OUT}/ (what `rfd site` builds is not committed)"]


TRACKED_OUTPUT = (
    "{out}/ is committed: the built site goes into every commit — "
    "`git rm -r --cached {out}` and add `/{out}/` to .gitignore"
)
UNIGNORED_OUTPUT = (
    "{out}/ is not ignored by git: `git add -A` would commit the built site — "
    "add `/{out}/` to .gitignore"
)


def exposed_output(root: Path, out: Path) -> str | None:
    """A warning when ``rfd site``'s output inside the repository is committed or would be
    by ``git add -A``; None when git ignores it or it lies outside."""
    try:
        rel = out.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
    if rel == ".":
        return None
    if _git(root, "ls-files", "--", rel):
        return TRACKED_OUTPUT.format(out=rel)
    if not _ignored(root, [f"{rel}/index.html"]):
        return UNIGNORED_OUTPUT.format(out=rel)
    return None


def _ignored(root: Path, paths: list[str]) -> bool:
    """Would git ignore any of ``paths`` (``.state/``, ``*.json`` …)?  Asks git itself."""
    return bool(_git(root, "check-ignore", "--no-index", "--", *paths))


def _git(root: Path, *argv: str) -> str:
    """What ``git argv`` prints in ``root`` ("" when git cannot run there)."""
    import subprocess

    try:
        found = subprocess.run(
            ["git", *argv], cwd=root, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return found.stdout.strip()


def _examples(root: Path, cfg: Config, kept: list[str]) -> list[str]:
    """Add each shipped example unless it (or another RFD with its id) is there already —
    under any number: a promoted example D1 is still the example."""
    from bot.config import discovery
    from bot.state import StateStore
    from bot.state import drafts as state_drafts

    files = discovery.scan(root, cfg)
    used_drafts = state_drafts.highest_used(StateStore(root, cfg))
    changes = []
    for entry in sorted(resources.files("bot.examples").iterdir(), key=lambda e: e.name):
        parts = split_file_name(entry.name)
        if parts is None:
            continue
        rid, slug = parts
        same = next((f for f in files if f.slug == slug), None)
        taken = next((f for f in files if f.rfd_id == rid), None)
        if same is not None:
            kept.append(f"example {entry.name} is there already: {same.path}")
        elif taken is not None:
            kept.append(f"example {entry.name} not added: RFD {rid} is {taken.path}")
        elif rid.draft and rid.number <= used_drafts:
            kept.append(f"example {entry.name} not added: draft number {rid} was used before")
        else:
            atomic_write(root / cfg.rfd_dir / entry.name, entry.read_text(encoding="utf-8"))
            changes.append(f"added example {cfg.rfd_dir}/{entry.name}")
    return changes
