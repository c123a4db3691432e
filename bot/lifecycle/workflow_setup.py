"""``rfd init --github``: the bot's workflow, written into a repository pinned to a release.

The workflow is this project's own ``.github/workflows/rfd.yml`` (kept equal to the
template by a test) with two things filled in: the action, pinned
(``OWNER/rfd-bot/.github/actions/rfd@<ref>``), and the repository's default branch
(for the push trigger).  Where rfd-bot came from is read from how it was installed
(PEP 610's ``direct_url.json``: ``pip install git+https://github.com/OWNER/rfd-bot@…``
records the repository and the exact commit, the strongest pin), else it must be
given.  A tag or branch given as the ref is written as the commit it points at, the tag
kept as the line's comment (``@<sha> # v1.2.0``): known offline for the release that was
installed from git, asked of GitHub's API with a token; unknown, it is refused with the
reason and how to find the commit (see :mod:`bot.config.action_pin`).  An existing
workflow is never overwritten.  With a token (``RFD_GITHUB_TOKEN`` or
``GITHUB_TOKEN``) and a github ``origin``, the trigger labels are created too.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Protocol

from bot.config import action_pin
from bot.config.load import Config
from bot.config.schema import LabelsSection
from bot.core.errors import ConfigError
from bot.core.remotes import repository_of
from bot.state import atomic_write

WORKFLOW_PATH = ".github/workflows/rfd.yml"
TEMPLATE = Path(__file__).resolve().parent.parent / "github" / "workflow_template.yml"
ACTION = "{repo}/.github/actions/rfd@{ref}"
REPO_SHAPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/(?!\.\.?$)[A-Za-z0-9_.-]{1,100}")
REF_SHAPE = re.compile(r"(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9_./-]{0,99}")  # no `..`, no option
BRANCH_SHAPE = re.compile(r"[A-Za-z0-9_./-]{1,200}")
GITHUB_URL = re.compile(r"https://github\.com/(?P<repo>[^/]+/[^/]+?)(?:\.git)?/?$")
NO_SOURCE = (
    "cannot tell which repository rfd-bot's action comes from (it was not installed from "
    "a github.com URL)"
)
NO_SOURCE_HINT = "say it: `rfd init --github --action-repo OWNER/rfd-bot [--action-ref vX.Y.Z]`"
BAD_VALUE = "{what} {value!r} does not look like {shape}"
WROTE = "created {path} (action {action}, push trigger on `{branch}`)"
PINNED_TAG = (
    "pinned the action to {sha}, the commit {tag} points at, not to the tag itself: "
    + action_pin.WHY
)
LABEL_CREATED = "created label {name} on {repo}"
LABEL_KEPT = "label {name} exists on {repo} already"
TOKEN_ENV = ("RFD_GITHUB_TOKEN", "GITHUB_TOKEN")
LABELS = (
    ("review", "1d76db", "rfd-bot: review the RFDs this pull request changes"),
    ("accept", "0e8a16", "rfd-bot: accept the RFDs this pull request changes"),
)
"""The trigger labels: attribute of ``[labels]``, colour, description."""
OLD_LABEL = (
    'label {old} is still on {repo}, but [labels] {attr} = "{name}" in .github/rfd.toml: '
    "applying {old} no longer triggers anything — delete it, or rename it to {name} instead "
    "(Settings → Labels) to keep it on the pull requests that have it"
)
KEPT = "kept {path}: it exists already (compare it with `rfd init --github` in an empty repo)"


class LabelForge(Protocol):
    def create_label(self, name: str, color: str, description: str) -> bool: ...

    def label_exists(self, name: str) -> bool: ...


@dataclass(frozen=True)
class Source:
    """Where the action is taken from: ``OWNER/NAME``, the commit it is pinned to and the
    release tag that commit stands for (when it was given as a tag)."""

    repo: str
    ref: str
    tag: str | None = None

    @property
    def action(self) -> str:
        pinned = ACTION.format(repo=self.repo, ref=self.ref)
        return f"{pinned} # {self.tag}" if self.tag else pinned


class InstalledReleases:
    """Offline: the commit pip recorded when this rfd-bot was installed from git (PEP 610)
    is the commit of its own release tag ``v<version>``."""

    def __init__(self, version: str) -> None:
        self._version = version

    def commit_of(self, repo: str, tag: str) -> str | None:
        installed = installed_source()
        if installed is None or installed.repo.lower() != repo.lower():
            return None
        if tag != f"v{self._version}" or not action_pin.SHA.fullmatch(installed.ref):
            return None
        return installed.ref

    def latest(self, repo: str) -> action_pin.Release | None:
        return None  # only GitHub knows of newer releases


class FirstKnown:
    """Ask each source in turn: the offline record first, GitHub's API after."""

    def __init__(self, *sources: action_pin.Releases) -> None:
        self._sources = sources

    def commit_of(self, repo: str, tag: str) -> str | None:
        return next((s for s in (x.commit_of(repo, tag) for x in self._sources) if s), None)

    def latest(self, repo: str) -> action_pin.Release | None:
        return next((r for r in (x.latest(repo) for x in self._sources) if r), None)


def has_token(environ: Mapping[str, str]) -> bool:
    return any(environ.get(name) for name in TOKEN_ENV)


def releases(version: str, environ: Mapping[str, str]) -> action_pin.Releases:
    """The installed release's record, and GitHub's API when a token is set."""
    token = next((environ[name] for name in TOKEN_ENV if environ.get(name)), "")
    if not token:
        return InstalledReleases(version)
    from bot.forge.github import DEFAULT_API_URL, Connection, GitHubReleases

    api = (environ.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")
    client = Connection("-/-", token, api, seconds_between_writes=None).client()
    return FirstKnown(InstalledReleases(version), GitHubReleases(client))


def render(action: str, branch: str) -> str:
    """The workflow with ``action`` in every ``uses:`` of the bot and ``branch`` for pushes."""
    text = TEMPLATE.read_text(encoding="utf-8")
    return text.replace("__ACTION__", action).replace("__DEFAULT_BRANCH__", branch)


def installed_source(dist: str = "rfd-bot") -> Source | None:
    """The github.com repository and commit rfd-bot was installed from, if pip recorded it."""
    try:
        raw = metadata.distribution(dist).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    data = json.loads(raw) if raw else {}
    found = GITHUB_URL.match(str(data.get("url", "")))
    commit = str((data.get("vcs_info") or {}).get("commit_id", ""))
    return Source(found["repo"], commit) if found and commit else None


def source(
    repo: str | None, ref: str | None, version: str, known: action_pin.Releases | None = None
) -> Source:
    """The action's source, pinned to a commit: as given, else as installed; ConfigError
    when the repository is unknown or a tag's commit cannot be found."""
    installed = installed_source()
    if repo is None:
        if installed is None:
            raise ConfigError(NO_SOURCE, hint=NO_SOURCE_HINT)
        repo, ref = installed.repo, ref or installed.ref
    _check(repo, REPO_SHAPE, "--action-repo", "OWNER/NAME")
    chosen = ref or f"v{version}"
    _check(chosen, REF_SHAPE, "--action-ref", "a tag, branch or commit sha")
    if action_pin.SHA.fullmatch(chosen):
        return Source(repo, chosen)
    sha = (known or InstalledReleases(version)).commit_of(repo, chosen)
    if sha is None:
        fmt = {"ref": chosen, "repo": repo}
        raise ConfigError(action_pin.REFUSED.format(**fmt), hint=action_pin.GIVE_SHA.format(**fmt))
    return Source(repo, sha, tag=chosen)


def default_branch(root: Path, fallback: str) -> str:
    """The branch ``origin/HEAD`` points at (the hosting repository's default), else
    ``fallback`` (``rfd.main_branch``)."""
    done = subprocess.run(
        ["git", "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    name = done.stdout.strip().removeprefix("origin/") if done.returncode == 0 else ""
    return name if name and BRANCH_SHAPE.fullmatch(name) else fallback


def write_workflow(root: Path, src: Source, branch: str) -> str:
    """Write the workflow unless one exists; the line saying what happened."""
    target = root / WORKFLOW_PATH
    if target.exists():
        return KEPT.format(path=WORKFLOW_PATH)
    atomic_write(target, render(src.action, branch))
    return WROTE.format(path=WORKFLOW_PATH, action=src.action, branch=branch)


def github_environ(root: Path, environ: Mapping[str, str]) -> dict[str, str] | None:
    """What the GitHub forge needs (token, ``owner/name`` of ``origin``), None without a
    token or a github remote: the labels are then created by hand."""
    token = next((environ[name] for name in TOKEN_ENV if environ.get(name)), "")
    repository = origin_repository(root)
    if not token or not repository:
        return None
    return {**environ, "GITHUB_TOKEN": token, "GITHUB_REPOSITORY": repository}


def origin_repository(root: Path) -> str | None:
    """``owner/name`` of the ``origin`` remote, None without one."""
    done = subprocess.run(
        ["git", "remote", "get-url", "origin"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    return repository_of(done.stdout.strip()) if done.returncode == 0 else None


def create_labels(forge: LabelForge, cfg: Config, repository: str) -> list[str]:
    """Create the trigger labels ``[labels]`` names; a line for each.  A label renamed in
    the configuration whose old default is still on the repository is reported: applying
    the old one would silently trigger nothing."""
    lines = []
    for attr, color, description in LABELS:
        name = getattr(cfg.labels, attr)
        made = forge.create_label(name, color, description)
        lines.append((LABEL_CREATED if made else LABEL_KEPT).format(name=name, repo=repository))
        old = getattr(LabelsSection(), attr)
        if made and name != old and forge.label_exists(old):
            lines.append(OLD_LABEL.format(old=old, repo=repository, attr=attr, name=name))
    return lines


def renamed_labels(forge: LabelForge, cfg: Config, repository: str) -> list[tuple[str, bool]]:
    """The bot's run after a trigger label was renamed in ``[labels]``: the new label
    created when it is missing, the old default reported when still on the repository.
    Each line with whether it is a warning; one read a label when nothing is renamed."""
    lines = []
    for attr, color, description in LABELS:
        name, old = getattr(cfg.labels, attr), getattr(LabelsSection(), attr)
        if name == old or forge.label_exists(name):
            continue
        made = forge.create_label(name, color, description)
        lines.append(
            ((LABEL_CREATED if made else LABEL_KEPT).format(name=name, repo=repository), False)
        )
        if forge.label_exists(old):
            lines.append((OLD_LABEL.format(old=old, repo=repository, attr=attr, name=name), True))
    return lines


LABEL_MAX = 50
"""GitHub refuses a longer label name (422)."""


def check_labels(cfg: Config) -> None:
    """The trigger labels ``[labels]`` names can work: named, distinct, within GitHub's
    length, and none a lifecycle label (``rfd: accepted`` …) that the bot sets and removes."""
    from bot.config.load import CONFIG_PATH
    from bot.model.status import status_of

    names = {attr: getattr(cfg.labels, attr) for attr, _, _ in LABELS}
    for attr, name in names.items():
        hint = f'name it, e.g. {attr} = "rfd:{attr}"'
        if not name.strip():
            raise ConfigError(
                f"[labels] {attr} is empty: no label would trigger it", path=CONFIG_PATH, hint=hint
            )
        if len(name) > LABEL_MAX:
            raise ConfigError(
                f"[labels] {attr} is {len(name)} characters long: GitHub takes at most {LABEL_MAX}",
                path=CONFIG_PATH,
                hint=hint,
            )
        if status_of(name) is not None:
            said = f'[labels] {attr} = "{name}"'
            raise ConfigError(
                f"{said} is a lifecycle label, which the bot sets and removes by itself",
                path=CONFIG_PATH,
                hint=hint,
            )
    if names["review"].strip().lower() == names["accept"].strip().lower():
        raise ConfigError(
            f'[labels] review and accept are both "{names["review"]}": one label '
            "cannot ask for a review and for acceptance",
            path=CONFIG_PATH,
            hint='name them apart, e.g. "rfd:review" and "rfd:accept"',
        )


def _check(value: str, shape: re.Pattern[str], what: str, described: str) -> None:
    if not shape.fullmatch(value):
        raise ConfigError(BAD_VALUE.format(what=what, value=value, shape=described))
