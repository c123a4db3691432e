"""``rfd pin``: move the pin of rfd-bot's action in the repository's workflows to a newer
release, changing nothing else in those files (see :mod:`bot.config.action_pin`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.config import action_pin
from bot.config.action_pin import Release, Releases
from bot.core.atomic import all_or_nothing, atomic_write, read_exact
from bot.core.errors import ConfigError, FileNotFound, ForgeUnreachable

WORKFLOWS = ".github/workflows"
NO_PIN = "no workflow under {dir}/ uses rfd-bot's action"
NO_PIN_HINT = "`rfd init --github` writes one"
TWO_SOURCES = "the workflows take rfd-bot's action from more than one repository: {repos}"
TWO_SOURCES_HINT = "make every `uses:` of the action name the same OWNER/NAME, then run it again"
OFFLINE = (
    "cannot tell which release of {repo} is the newest, nor the commit a tag points at, "
    "without asking GitHub"
)
OFFLINE_HINT = (
    "set RFD_GITHUB_TOKEN (any token that can read {repo}) and run it again; nothing was changed"
)
NO_TAG = "{repo} has no tag {tag!r}"
NO_TAG_HINT = "name a release listed on https://github.com/{repo}/releases; nothing was changed"


@dataclass(frozen=True)
class Moved:
    """One workflow whose pin moved: from which release to which, on how many lines."""

    path: str
    old: str
    lines: int


@dataclass(frozen=True)
class PinUpdate:
    repo: str
    release: Release
    moved: list[Moved]
    current: list[str]
    """The workflows that were on ``release`` already."""

    @property
    def compare(self) -> list[str]:
        """A compare link for each release the workflows moved from."""
        olds = dict.fromkeys(m.old for m in self.moved)
        return [action_pin.compare_url(self.repo, old, self.release.tag) for old in olds]


def update(
    root: Path, releases: Releases, to: str | None = None, *, online: bool = True
) -> PinUpdate:
    """Re-pin every workflow to ``to`` (a release tag), else to the newest release."""
    texts = {path: read_exact(path) for path in workflow_files(root)}
    found = {path: action_pin.pins(_rel(root, path), text) for path, text in texts.items()}
    repo = _one_repo([pin for pins in found.values() for pin in pins])
    target = _target(repo, releases, to, online)
    tags = {pin.ref: pin.tag for pins in found.values() for pin in pins if pin.tag}
    moved, current = [], []
    with all_or_nothing():
        for path, pins in found.items():
            stale = [pin for pin in pins if pin.stale(target)]
            if not stale:
                current += [_rel(root, path)] if pins else []
                continue
            atomic_write(path, action_pin.repin(texts[path], target))
            moved.append(Moved(_rel(root, path), _old(stale[0], tags), len(pins)))
    return PinUpdate(repo, target, moved, current)


def workflow_files(root: Path) -> list[Path]:
    folder = root / WORKFLOWS
    return sorted(p for p in folder.glob("*") if p.suffix in (".yml", ".yaml") and p.is_file())


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _one_repo(pins: list[action_pin.Pin]) -> str:
    repos = sorted({pin.repo for pin in pins}, key=str.lower)
    if not repos:
        raise FileNotFound(NO_PIN.format(dir=WORKFLOWS), hint=NO_PIN_HINT)
    if len({r.lower() for r in repos}) > 1:
        raise ConfigError(TWO_SOURCES.format(repos=", ".join(repos)), hint=TWO_SOURCES_HINT)
    return repos[0]


def _target(repo: str, releases: Releases, to: str | None, online: bool) -> Release:
    if to is None:
        newest = releases.latest(repo)
        if newest is None and not online:
            raise ForgeUnreachable(OFFLINE.format(repo=repo), hint=OFFLINE_HINT.format(repo=repo))
        if newest is None:
            raise FileNotFound(f"{repo} has no release yet", hint="name a tag: `rfd pin --to TAG`")
        return newest
    sha = releases.commit_of(repo, to)
    if sha is None and not online:
        raise ForgeUnreachable(OFFLINE.format(repo=repo), hint=OFFLINE_HINT.format(repo=repo))
    if sha is None:
        raise FileNotFound(NO_TAG.format(repo=repo, tag=to), hint=NO_TAG_HINT.format(repo=repo))
    return Release(to, sha, action_pin.RELEASE_NOTES.format(repo=repo, tag=to))


def _old(pin: action_pin.Pin, tags: dict[str, str]) -> str:
    """The release a line was on: its tag comment (or another line's, on the same commit),
    else its ref (a sha, shortened)."""
    if pin.tag or pin.ref in tags:
        return pin.tag or tags[pin.ref]
    return pin.ref[:12] if pin.pinned else pin.ref
