"""The forge interface: the thin edge through which *every* write to GitHub goes.

It is deliberately low level (issues, comments, labels).  The idempotent logic —
find the bot's own text by its hidden marker, edit in place, merge checklists —
lives in pure modules (``bot.lifecycle.tracking``, ``bot.forge.comments``) that take a ``Forge``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


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
