"""The pin of rfd-bot's action in a repository's workflows: read, judged, moved.

A workflow names the action as ``uses: OWNER/NAME/.github/actions/rfd@<ref>``.  A tag
(``@v1.2.0``) can be moved to other code by whoever controls the repository, and zizmor
reports every such line (``unpinned-uses``); a full commit sha cannot move.  The release a
sha stands for is kept in the line's comment (``@<sha> # v1.2.0``), as Dependabot and
zizmor read it.  This module is pure: where a tag's commit comes from (the installed
package, GitHub's API) is a :class:`Releases` passed in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

SHA = re.compile(r"[0-9a-f]{40}")
USES = re.compile(
    r"""^(?P<lead>\s*(?:-\s*)?uses:\s*)          # `uses:` or `- uses:`
        (?P<repo>[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]+)
        (?P<path>/\.github/actions/rfd)@
        (?P<ref>[^\s#]+)
        (?:\s+\#\s*(?P<tag>v?\d[\w.+-]*)(?=\s|$))?  # the release a sha stands for: `# v1.2.0`
        (?P<rest>.*?)$""",
    re.VERBOSE,
)
SITE_INSTALL = re.compile(
    r"""^(?P<lead>.*"rfd-bot\[site\]\s*@\s*git\+https://github\.com/)  # rfd init --site
        (?P<repo>[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]+?)(?P<git>\.git)?@
        (?P<ref>[^\s"'#]+)
        (?P<rest>".*)$""",
    re.VERBOSE,
)
"""The site workflow's ``pip install "rfd-bot[site] @ git+https://github.com/OWNER/NAME@ref"``:
moved with the action, so the site is built by the same release as the bot runs."""
WHY = (
    "a tag can be moved to other code by whoever controls {repo}, and the bot's jobs hold "
    "your secrets and write access (zizmor reports it: unpinned-uses)"
)
TAG_PIN = "rfd-bot's action is pinned to {ref!r}, not to a commit: " + WHY
USE_SHA = "pin the commit {ref} points at: `uses: {repo}/.github/actions/rfd@{sha} # {ref}`"
LS_REMOTE = (
    "`git ls-remote https://github.com/{repo} refs/tags/{ref}` shows it (or set "
    "RFD_GITHUB_TOKEN and run this again to have it looked up)"
)
FIND_SHA = "pin the commit {ref} points at: " + LS_REMOTE
REFUSED = "will not pin rfd-bot's action to {ref!r}: " + WHY
GIVE_SHA = "give the commit {ref} points at: `--action-ref <full sha>`; " + LS_REMOTE
RELEASE_NOTES = "https://github.com/{repo}/releases/tag/{tag}"
COMPARE = "https://github.com/{repo}/compare/{old}...{new}"


@dataclass(frozen=True)
class Release:
    """A release of rfd-bot: its tag, the commit the tag points at, its page."""

    tag: str
    sha: str
    url: str


class Releases(Protocol):
    """Where tags and releases of the action's repository are looked up."""

    def commit_of(self, repo: str, tag: str) -> str | None:
        """The commit ``tag`` points at, None when unknown."""
        ...

    def latest(self, repo: str) -> Release | None:
        """The newest release, None when it cannot be known."""
        ...


@dataclass(frozen=True)
class Pin:
    """One ``uses:`` line of the action in a workflow."""

    path: str
    line: int
    repo: str
    ref: str
    tag: str | None
    uses: bool = True
    """A ``uses:`` of the action (False: the site workflow's ``pip install`` of rfd-bot)."""

    @property
    def pinned(self) -> bool:
        return bool(SHA.fullmatch(self.ref))

    def stale(self, release: Release) -> bool:
        """Not on ``release`` (a ``uses:`` line also names its tag)."""
        return self.ref != release.sha or (self.uses and self.tag != release.tag)

    @property
    def release(self) -> str:
        """The release the line names: its tag comment, else the ref itself."""
        return self.tag or self.ref


def pins(path: str, text: str) -> list[Pin]:
    """Every ``uses:`` of rfd-bot's action in a workflow's text, and the site workflow's
    install of rfd-bot."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = USES.match(line)
        site = None if m else SITE_INSTALL.match(line)
        if m:
            found.append(Pin(path, number, m["repo"], m["ref"], m["tag"]))
        elif site:
            found.append(Pin(path, number, site["repo"], site["ref"], None, uses=False))
    return found


@dataclass(frozen=True)
class Advice:
    """What to say about a pin that is not a commit."""

    pin: Pin
    message: str
    hint: str


def advise(found: Iterable[Pin], releases: Releases) -> list[Advice]:
    """A message for each pin that is not a full commit sha, with the sha to use when the
    tag's commit can be known."""
    advice = []
    for pin in found:
        if pin.pinned or not pin.uses:
            continue
        sha = releases.commit_of(pin.repo, pin.ref)
        fmt = {"ref": pin.ref, "repo": pin.repo, "sha": sha}
        hint = USE_SHA.format(**fmt) if sha else FIND_SHA.format(**fmt)
        advice.append(Advice(pin, TAG_PIN.format(**fmt), hint))
    return advice


def repin(text: str, release: Release) -> str:
    """``text`` with every action line pointing at ``release`` (``@<sha> # <tag>``); every
    other byte — the line's indent, what follows the pin, line endings — as it was."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        body = line.rstrip("\r\n")
        end = line[len(body) :]
        m = USES.match(body)
        site = None if m else SITE_INSTALL.match(body)
        if m:
            lines[i] = f"{m['lead']}{m['repo']}{m['path']}@{release.sha} # {release.tag}"
            lines[i] += f"{m['rest']}{end}"
        elif site:
            source = site["repo"] + (site["git"] or "")
            lines[i] = f"{site['lead']}{source}@{release.sha}{site['rest']}{end}"
    return "".join(lines)


def compare_url(repo: str, old: str, new: str) -> str:
    return COMPARE.format(repo=repo, old=old, new=new)
