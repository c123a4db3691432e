"""The forge interface: the thin edge through which *every* write to GitHub goes, the records
read through it, and finding the bot's own text on it.

The interface is deliberately low level (issues, comments, labels); the records are what
the bot reads from GitHub (a pull request, a file it changes, a collaborator's permission,
a reaction).  The idempotent logic — find the bot's own comment by its hidden marker, edit
in place — is the pure functions at the end of this module, which take a ``Forge``.

A marker counts only where the bot puts it: in the run of marker lines that opens a body it
wrote (:func:`leading_markers`).  The same text anywhere else — an RFD title, a review, a
quoted comment — is just text, and :mod:`bot.core.github_markdown` keeps such text from ever
forming one.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.errors import ForgeGone
from bot.core.github_markdown import closed


@dataclass(frozen=True)
class Issue:
    number: int
    title: str
    body: str
    state: str  # "open" | "closed"
    url: str
    labels: tuple[str, ...] = ()
    author: str = ""


@dataclass(frozen=True)
class Comment:
    id: int
    body: str
    url: str
    author: str = ""
    updated: str = ""
    """When it was last written, ISO 8601 (``2026-11-22T02:00:00+00:00``); "" if unknown."""


class Forge(Protocol):
    """Issues (pull requests are issues too), their comments and labels."""

    name: str
    discussion: str
    """The pull request an issue written now belongs to (a link), or empty."""

    def find_issue(self, marker: str) -> Issue | None:
        """The issue (open or closed) whose body contains ``marker``, if any."""

    def get_issue(self, number: int) -> Issue: ...

    def create_issue(self, title: str, body: str, labels: tuple[str, ...] = ()) -> Issue: ...

    def edit_issue(
        self,
        number: int,
        *,
        title: str | None = None,
        body: str | None = None,
        state: str | None = None,
        state_reason: str | None = None,
    ) -> Issue:
        """``state_reason`` with ``state="closed"``: ``completed`` or ``not_planned``."""

    def find_comment(self, number: int, marker: str) -> Comment | None:
        """The first comment on issue/PR ``number`` whose body contains ``marker``."""

    def create_comment(self, number: int, body: str) -> Comment: ...

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment: ...

    def file_url(self, path: str) -> str:
        """A link to ``path`` (repository-relative) on the default branch, for issue bodies."""

    def add_labels(self, number: int, labels: tuple[str, ...]) -> None: ...

    def remove_label(self, number: int, label: str) -> None: ...


class Reaction(enum.Enum):
    EYES = "eyes"
    ROCKET = "rocket"
    CONFUSED = "confused"


class Permission(enum.IntEnum):
    """Repository roles, ordered (``role_name`` of the permission API)."""

    NONE = 0
    READ = 1
    TRIAGE = 2
    WRITE = 3
    MAINTAIN = 4
    ADMIN = 5

    @classmethod
    def parse(cls, text: str) -> Permission:
        return cls.__members__.get(text.strip().upper(), cls.NONE)

    @classmethod
    def of_collaborator(cls, data: Mapping[str, Any]) -> Permission:
        """From the permission API's answer: ``role_name`` when it is a base role.

        An organization's custom role (``role_name`` like ``docs-writer``) is not
        one of ours, so its base level, the legacy ``permission`` field
        (``admin``/``write``/``read``/``none``), decides.
        """
        role = str(data.get("role_name") or "").strip().upper()
        if role in cls.__members__:
            return cls[role]
        return cls.parse(str(data.get("permission") or "none"))


@dataclass(frozen=True)
class PullRequest:
    number: int
    title: str
    author: str
    head_ref: str
    head_sha: str
    head_repo: str
    """``owner/name`` of the head repository (a fork's, for fork PRs)."""
    base_ref: str
    base_repo: str
    labels: tuple[str, ...] = ()
    updated_at: str = ""
    """ISO 8601 time of the PR's last change (a label counts)."""
    open: bool = True
    """Neither merged nor closed."""
    merged: bool = False

    @property
    def is_fork(self) -> bool:
        return self.head_repo != self.base_repo

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> PullRequest:
        """From a ``pull_request`` object (webhook payload or ``GET /pulls/{n}``)."""
        head, base = data["head"], data["base"]
        head_repo = (head.get("repo") or {}).get("full_name", "")  # deleted forks: null
        return cls(
            number=data["number"],
            title=data["title"],
            author=data["user"]["login"],
            head_ref=head["ref"],
            head_sha=head["sha"],
            head_repo=head_repo,
            base_ref=base["ref"],
            base_repo=base["repo"]["full_name"],
            labels=tuple(label["name"] for label in data.get("labels", ())),
            updated_at=str(data.get("updated_at") or ""),
            open=data.get("state", "open") == "open",
            merged=bool(data.get("merged")),
        )


@dataclass(frozen=True)
class ChangedFile:
    path: str
    status: str  # added | modified | removed | renamed | ...
    previous_path: str | None = None
    blob: str = ""
    """The file's git blob sha in the PR (its content; empty when removed or unknown)."""
    patch: str = ""
    """The file's diff hunks (GitHub leaves them out of a binary or very large diff)."""


def changed_file(data: Mapping[str, Any]) -> ChangedFile:
    """From an entry of ``GET /pulls/{n}/files``."""
    previous = data.get("previous_filename")
    blob, patch = str(data.get("sha") or ""), str(data.get("patch") or "")
    return ChangedFile(data["filename"], data["status"], previous, blob, patch)


@dataclass(frozen=True)
class LineComment:
    """A review comment on one line of the new side of a file (``side: RIGHT``)."""

    path: str
    line: int
    body: str


BODY_LIMIT = 65_536
"""GitHub's limit on an issue or comment body, in characters (422 beyond)."""
CUT = (
    "\n\n> [!WARNING]\n> This text was cut to fit GitHub's limit of 65,536 characters: "
    "the last {n:,} were left out (the job summary has the run's details)."
)
MARKER_PREFIX = "<!-- rfd-bot:"
_MARKER_LINE = re.compile(r"<!-- rfd-bot:[^<>\n]*? -->")


def marker(kind: str, key: str | int) -> str:
    """The hidden marker identifying one piece of bot text, e.g. ``<!-- rfd-bot:status:12 -->``."""
    return f"{MARKER_PREFIX}{kind}:{key} -->"


def leading_markers(body: str) -> tuple[str, ...]:
    """The markers in the bot's structural position: the marker lines that open ``body``."""
    found: list[str] = []
    for line in body.split("\n"):
        if not _MARKER_LINE.fullmatch(line.rstrip("\r")):
            break
        found.append(line.rstrip("\r"))
    return tuple(found)


def carries(body: str, mark: str) -> bool:
    """Does ``body`` carry ``mark`` where the bot puts it (not merely somewhere in its text)?"""
    return mark in leading_markers(body)


def fit(body: str, limit: int = BODY_LIMIT) -> str:
    """``body`` cut (at a line, fences closed) with a note saying so when it is over ``limit``."""
    if len(body) <= limit:
        return body
    room = limit - len(CUT.format(n=len(body))) - 16  # room for closing a code fence
    kept = body[:room]
    kept = kept[: kept.rfind("\n")] if "\n" in kept else kept
    return closed(kept) + CUT.format(n=len(body) - len(kept))


def with_marker(body: str, mark: str) -> str:
    return body if carries(body, mark) else f"{mark}\n{body}"


def upsert_comment(forge: Forge, number: int, mark: str, body: str) -> tuple[Comment, bool]:
    """Create the comment carrying ``mark`` on ``number``, or edit it; unchanged text is no write.

    Returns the comment and whether it was created.
    """
    text = with_marker(body, mark)
    existing = forge.find_comment(number, mark)
    if existing is None:
        return forge.create_comment(number, text), True
    if existing.body.strip() == text.strip():
        return existing, False
    try:
        return forge.edit_comment(number, existing.id, text), False
    except ForgeGone:  # deleted since it was read: write it anew
        return forge.create_comment(number, text), True
