"""What the bot needs from GitHub beyond the :class:`~bot.forge.base.Forge` protocol.

Pull-request facts, the files a PR changes, file contents at a ref (fork content is
read here, as data, never checked out), collaborator permissions and reactions.
Requests go through PyGithub's requester so they share its retries and pacing.
"""

from __future__ import annotations

import base64
import time
import urllib.parse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.core.authors import CommitBy
from bot.core.errors import ForgeError, ForgeGone
from bot.core.redact import redact
from bot.forge.comments import fit
from bot.forge.github_connection import PER_PAGE
from bot.forge.github_errors import translated
from bot.forge.pacing import WritePacer
from bot.github.records import ChangedFile, Permission, PullRequest, Reaction, changed_file

if TYPE_CHECKING:
    from github.Repository import Repository

REACTION_RETRIES = (1.0, 2.0)
"""Seconds waited before each retry of a reaction that met a 5xx."""


class RepoApi:
    """Reads (and reactions) on one repository."""

    def __init__(self, repo: Repository, pacer: WritePacer | None = None) -> None:
        self.repo = repo
        self.pacer = pacer or WritePacer(interval=0)
        """The forge's: writes made here are paced with the forge's."""
        self.requester = repo.requester
        self.url = repo.url
        self._files: dict[int, list[ChangedFile]] = {}
        self._pushes: dict[tuple[str, str], frozenset[str]] = {}
        self.sleep: Callable[[float], None] = time.sleep
        """Waits between the retries of a reaction (replaced in tests)."""

    def _get(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        _headers, data = self.requester.requestJsonAndCheck(
            "GET", f"{self.url}{path}", parameters=dict(params or {})
        )
        return data

    def paged(self, path: str, pages: int, params: Mapping[str, Any] | None = None) -> list[Any]:
        """Every item of a listing, page by page (at most ``pages`` of 100), stopping at the
        first short page."""
        items: list[Any] = []
        for page in range(1, pages + 1):
            batch = self._get(path, {**(params or {}), "per_page": PER_PAGE, "page": page})
            items.extend(batch)
            if len(batch) < PER_PAGE:
                break
        return items

    def permission(self, login: str) -> Permission:
        """The user's role; ``none`` for non-collaborators (404 or ``none``)."""
        from github import GithubException

        user = urllib.parse.quote(login, safe="")
        with translated(f"read {login}'s permission"):
            try:
                data = self._get(f"/collaborators/{user}/permission")
            except GithubException as exc:
                if exc.status == 404:
                    return Permission.NONE
                raise
        return Permission.of_collaborator(data)

    def in_team(self, org: str, team: str, login: str) -> bool:
        """Is ``login`` an active member of ``@org/team``?  (404: not a member, or a team
        the token cannot see: either way no.)"""
        from github import GithubException

        parts = (urllib.parse.quote(p, safe="") for p in (org, team, login))
        path = "/orgs/{}/teams/{}/memberships/{}".format(*parts)
        with translated(f"read {login}'s membership of @{org}/{team}"):
            try:
                _headers, data = self.requester.requestJsonAndCheck(
                    "GET", f"{self.requester.base_url}{path}"
                )
            except GithubException as exc:
                if exc.status == 404:
                    return False
                raise
        return isinstance(data, dict) and data.get("state") == "active"

    def react(self, comment_id: int, reaction: Reaction) -> bool:
        """React to a comment; False when the comment is gone (deleted meanwhile).

        Reacting twice adds one reaction, so the POST is retried on a 5xx like the
        idempotent writes (:mod:`bot.forge.github_retry` retries no POST by itself).
        """
        for wait in REACTION_RETRIES:
            try:
                return self._react(comment_id, reaction)
            except ForgeError as err:
                if not _server_error(err):
                    raise
            self.sleep(wait)
        return self._react(comment_id, reaction)

    def _react(self, comment_id: int, reaction: Reaction) -> bool:
        try:
            with self.pacer.write(), translated("react to a comment"):
                self.requester.requestJsonAndCheck(
                    "POST",
                    f"{self.url}/issues/comments/{comment_id}/reactions",
                    input={"content": reaction.value},
                )
        except ForgeGone:
            return False
        return True

    def reacted(self, comment_id: int, reaction: Reaction, by: Callable[[str], bool]) -> bool:
        """Has an account ``by`` accepts (the bot's own) given a comment ``reaction``?"""
        with translated("read a comment's reactions"):
            found = self._get(
                f"/issues/comments/{comment_id}/reactions",
                {"content": reaction.value, "per_page": 100},
            )
        return any(by(str((r.get("user") or {}).get("login", ""))) for r in found)

    def pushed(self, branch: str, actor: str) -> frozenset[str]:
        """The commits ``actor``'s pushes to ``branch`` left it at, as GitHub's record of the
        repository's activity says (the latest 100; read once per run): who pushed is the
        account that authenticated, which no commit's text can change, and nobody can
        delete it."""
        if (branch, actor) not in self._pushes:
            self._pushes[branch, actor] = self._pushed(branch, actor)
        return self._pushes[branch, actor]

    def _pushed(self, branch: str, actor: str) -> frozenset[str]:
        with translated(f"read who pushed to {branch}"):
            query = {"ref": f"refs/heads/{branch}", "actor": actor, "activity_type": "push"}
            found = self._get("/activity", {**query, "per_page": PER_PAGE})
        return frozenset(
            str(a.get("after", ""))
            for a in found
            if str((a.get("actor") or {}).get("login", "")).lower() == actor.lower()
            and a.get("activity_type") == "push"
        )

    def add_labels(self, number: int, names: tuple[str, ...]) -> list[str]:
        """Label #``number``; the names GitHub had to create for it (they come back grey)."""
        from bot.model.lifecycle_labels import AUTO_COLOR

        with self.pacer.write(), translated(f"label #{number}"):
            _h, data = self.requester.requestJsonAndCheck(
                "POST", f"{self.url}/issues/{number}/labels", input={"labels": list(names)}
            )
        return [
            str(label["name"])
            for label in data
            if label["name"] in names
            and label.get("color") == AUTO_COLOR
            and not label.get("description")
        ]

    def style_label(self, name: str, color: str, description: str) -> None:
        with self.pacer.write(), translated(f"give label {name!r} its colour"):
            self.requester.requestJsonAndCheck(
                "PATCH",
                f"{self.url}/labels/{urllib.parse.quote(name, safe='')}",
                input={"color": color, "description": description},
            )

    def pull(self, number: int) -> PullRequest:
        with translated(f"read pull request #{number}"):
            return PullRequest.from_payload(self._get(f"/pulls/{number}"))

    def pull_files(self, number: int) -> list[ChangedFile]:
        """Files changed by a PR (first 3,000, GitHub's own cap), read once per run."""
        if number not in self._files:
            self._files[number] = self._pull_files(number)
        return self._files[number]

    def _pull_files(self, number: int) -> list[ChangedFile]:
        with translated(f"list the files of #{number}"):
            return [changed_file(f) for f in self.paged(f"/pulls/{number}/files", 30)]

    def pull_commits(self, number: int) -> list[CommitBy]:
        """The PR's commits (first 250, GitHub's cap) and the user GitHub says wrote each."""
        with translated(f"list the commits of #{number}"):
            return [_commit_by(c) for c in self.paged(f"/pulls/{number}/commits", 3)]

    def open_pulls(self, pages: int = 10) -> list[PullRequest]:
        """Open pull requests, labels included (first ``pages`` × 100)."""
        with translated("list the open pull requests"):
            found = self.paged("/pulls", pages, {"state": "open"})
        return [PullRequest.from_payload(item) for item in found]

    def find_pull(self, head: str) -> tuple[int, str] | None:
        """``(number, url)`` of the PR (any state) from branch ``head`` of this repository."""
        owner = self.repo.full_name.split("/")[0]
        with translated(f"look for a PR from {head}"):
            found = self._get("/pulls", {"state": "all", "head": f"{owner}:{head}"})
        return (int(found[0]["number"]), str(found[0]["html_url"])) if found else None

    def create_pull(self, title: str, head: str, base: str, body: str) -> tuple[int, str]:
        with self.pacer.write(), translated(f"open a PR from {head}"):
            sent = {"title": redact(title), "head": head, "base": base, "body": fit(redact(body))}
            _h, data = self.requester.requestJsonAndCheck("POST", f"{self.url}/pulls", input=sent)
        return int(data["number"]), str(data["html_url"])

    def file_text(self, path: str, ref: str, *, repo: str | None = None) -> str | None:
        """A file's text at ``ref`` (of ``repo``, a fork for instance); None if absent."""
        from github import GithubException

        base = f"{self.url.rsplit('/repos/', 1)[0]}/repos/{repo}" if repo else self.url
        quoted = urllib.parse.quote(path)
        with translated(f"read {path} at {ref[:12]}"):
            try:
                _h, data = self.requester.requestJsonAndCheck(
                    "GET", f"{base}/contents/{quoted}", parameters={"ref": ref}
                )
            except GithubException as exc:
                if exc.status == 404:
                    return None
                raise
        if not isinstance(data, dict) or data.get("type") != "file":
            raise ForgeError(f"{path} at {ref[:12]} is not a file")
        return base64.b64decode(data.get("content", "")).decode("utf-8", errors="replace")


def _commit_by(data: Mapping[str, Any]) -> CommitBy:
    login = (data.get("author") or {}).get("login")
    email = ((data.get("commit") or {}).get("author") or {}).get("email")
    return CommitBy(
        str(data["sha"]), (str(login),) if login else (), (str(email),) if email else ()
    )


def _server_error(err: ForgeError) -> bool:
    cause = err.__cause__
    return int(getattr(cause, "status", 0) or 0) >= 500
