"""``rfd init --github``: the bot's workflow, written into a repository pinned to a release.

The workflow is this project's own ``.github/workflows/rfd.yml`` (kept equal to the
template by a test) with two things filled in: the action, pinned
(``OWNER/rfd-bot/.github/actions/rfd@<ref>``), and the repository's default branch
(for the push trigger).  Where rfd-bot came from is read from how it was installed
(PEP 610's ``direct_url.json``: ``pip install git+https://github.com/OWNER/rfd-bot@…``
records the repository and the exact commit, the strongest pin), else it must be
given.  An existing workflow is never overwritten.  With a token (``RFD_GITHUB_TOKEN`` or
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

from bot.config.load import Config
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
LABEL_CREATED = "created label {name} on {repo}"
LABEL_KEPT = "label {name} exists on {repo} already"
TOKEN_ENV = ("RFD_GITHUB_TOKEN", "GITHUB_TOKEN")
LABELS = (
    ("review", "1d76db", "rfd-bot: review the RFDs this pull request changes"),
    ("accept", "0e8a16", "rfd-bot: accept the RFDs this pull request changes"),
)
"""The trigger labels: attribute of ``[labels]``, colour, description."""
KEPT = "kept {path}: it exists already (compare it with `rfd init --github` in an empty repo)"


class LabelForge(Protocol):
    def create_label(self, name: str, color: str, description: str) -> bool: ...


@dataclass(frozen=True)
class Source:
    """Where the action is taken from: ``OWNER/NAME`` and the ref it is pinned to."""

    repo: str
    ref: str

    @property
    def action(self) -> str:
        return ACTION.format(repo=self.repo, ref=self.ref)


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


def source(repo: str | None, ref: str | None, version: str) -> Source:
    """The action's source: as given, else as installed; ConfigError when unknown."""
    installed = installed_source()
    if repo is None:
        if installed is None:
            raise ConfigError(NO_SOURCE, hint=NO_SOURCE_HINT)
        return Source(installed.repo, ref or installed.ref)
    _check(repo, REPO_SHAPE, "--action-repo", "OWNER/NAME")
    chosen = ref or f"v{version}"
    _check(chosen, REF_SHAPE, "--action-ref", "a tag, branch or commit sha")
    return Source(repo, chosen)


def default_branch(root: Path, fallback: str) -> str:
    """The branch ``origin/HEAD`` points at (the hosting repository's default), else
    ``fallback`` (``rfd.main_branch``)."""
    done = subprocess.run(
        ["git", "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    name = done.stdout.strip().removeprefix("origin/") if done.returncode == 0 else ""
    return name if name and BRANCH_SHAPE.fullmatch(name) else fallback


def write_workflow(root: Path, src: Source, branch: str) -> str:
    """Write the workflow unless one exists; the line saying what happened."""
    target = root / WORKFLOW_PATH
    if target.exists():
        return KEPT.format(path=WORKFLOW_PATH)
    target.parent.mkdir(parents=True, exist_ok=True)
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
    done = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root,
                          capture_output=True, text=True, check=False)  # fmt: skip
    return repository_of(done.stdout.strip()) if done.returncode == 0 else None


def create_labels(forge: LabelForge, cfg: Config, repository: str) -> list[str]:
    """Create the trigger labels ``[labels]`` names; a line for each."""
    lines = []
    for attr, color, description in LABELS:
        name = getattr(cfg.labels, attr)
        made = forge.create_label(name, color, description)
        lines.append((LABEL_CREATED if made else LABEL_KEPT).format(name=name, repo=repository))
    return lines


def _check(value: str, shape: re.Pattern[str], what: str, described: str) -> None:
    if not shape.fullmatch(value):
        raise ConfigError(BAD_VALUE.format(what=what, value=value, shape=described))
