"""The GitHub forge: :class:`bot.forge.base.Forge` over PyGithub.

Every write the bot makes to GitHub goes through here (or through the small
:mod:`bot.github.api` adapter for what the Forge protocol does not cover).
Objects are lazy, so a write costs one request and nothing is fetched to build
it.  The bot finds its own issues and comments by their hidden marker *and*
their author, the login it is configured to write as (``bot.login``, by default
``github-actions[bot]``) — never by asking who it is: ``GET /user`` answers 403
with the Actions ``GITHUB_TOKEN``.  A marker planted by anyone else is ignored.

PyGithub is imported inside functions: importing this module is free.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from bot.config.load import ACTIONS_BOT_LOGIN
from bot.core.redact import redact
from bot.forge.base import Comment, Issue
from bot.forge.comments import carries, fit
from bot.forge.github_connection import Connection
from bot.forge.github_errors import translated
from bot.forge.pacing import DEFAULT_BURST, DEFAULT_INTERVAL, WritePacer

if TYPE_CHECKING:
    from github.Issue import Issue as GhIssue
    from github.IssueComment import IssueComment as GhComment
    from github.Repository import Repository

ISSUE_SCAN_LIMIT = 1000
"""Issues scanned for a marker before giving up (newest first)."""


def to_issue(gh: GhIssue) -> Issue:
    return Issue(
        number=gh.number,
        title=gh.title,
        body=gh.body or "",
        state=gh.state,
        url=gh.html_url,
        labels=tuple(label.name for label in gh.labels),
        author=gh.user.login if gh.user else "",
    )


def to_comment(gh: GhComment) -> Comment:
    login = gh.user.login if gh.user else ""
    updated = gh.updated_at.isoformat() if gh.updated_at else ""
    return Comment(id=gh.id, body=gh.body or "", url=gh.html_url, author=login, updated=updated)


class GitHubForge:
    """Issues, comments and labels of one repository."""

    name = "github"

    def __init__(
        self,
        repo: Repository,
        *,
        web_url: str = "",
        branch: str = "main",
        pacer: WritePacer | None = None,
        login: str = ACTIONS_BOT_LOGIN,
    ) -> None:
        self.repo = repo
        self.pacer = pacer or WritePacer(interval=0)
        """Shared with :class:`bot.github.api.RepoApi`: every write of the run goes through it."""
        self.login = login
        """The account our token writes as: only what it wrote is ours."""
        self.web_url = web_url.rstrip("/")
        """``https://github.com/owner/repo``: links in issue bodies (no request to learn it)."""
        self.branch = branch
        self.files_at = ""
        """Where :meth:`file_url` links while a pull request's files are not merged yet
        (``https://github.com/owner/repo/blob/<head branch>``); empty: the default branch."""
        self.discussion = ""
        """The pull request an issue written now belongs to (its web address), or empty."""
        self._comments: dict[int, list[Comment]] = {}
        """Comment lists read during this run (one event), kept in step with our writes."""

    @classmethod
    def connect(
        cls,
        connection: Connection,
        *,
        web_url: str = "",
        branch: str = "main",
        login: str = ACTIONS_BOT_LOGIN,
    ) -> GitHubForge:
        repo = connection.client().get_repo(connection.repository)
        return cls(repo, web_url=web_url, branch=branch, pacer=connection.pacer(), login=login)

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str],
        *,
        seconds_between_writes: float | None = DEFAULT_INTERVAL,
        write_burst: int = DEFAULT_BURST,
        branch: str = "main",
        login: str = ACTIONS_BOT_LOGIN,
    ) -> GitHubForge:
        """From the Actions environment; ``GITHUB_SERVER_URL`` gives the web address."""
        conn = Connection.from_env(
            environ, seconds_between_writes=seconds_between_writes, write_burst=write_burst
        )
        server = environ.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
        web_url = f"{server}/{conn.repository}"
        return cls.connect(conn, web_url=web_url, branch=branch, login=login)

    def is_mine(self, author: str) -> bool:
        """Did the bot's own account write this (logins are case-insensitive)?"""
        return author.lower() == self.login.lower()

    def file_url(self, path: str) -> str:
        """``…/blob/<default branch>/<path>``: a repository-relative link breaks in an issue."""
        from urllib.parse import quote

        if not self.web_url:
            return path
        base = self.files_at or f"{self.web_url}/blob/{quote(self.branch)}"
        return f"{base}/{quote(path)}"

    @contextmanager
    def on_pull(self, files_at: str, discussion: str) -> Iterator[None]:
        """Links written meanwhile point at the pull request's head (its files are on no
        other branch before the merge) and name the pull request as the discussion."""
        before = (self.files_at, self.discussion)
        self.files_at, self.discussion = files_at, discussion
        try:
            yield
        finally:
            self.files_at, self.discussion = before

    # ------------------------------------------------------------------ issues

    def find_issue(self, marker: str) -> Issue | None:
        with translated("find an issue"):
            pages = self.repo.get_issues(state="all", sort="created", direction="desc")
            for count, gh in enumerate(pages):
                if count >= ISSUE_SCAN_LIMIT:
                    return None
                if "/pull/" not in gh.html_url and carries(gh.body or "", marker):
                    found = to_issue(gh)
                    if self.is_mine(found.author):
                        return found
        return None

    def get_issue(self, number: int) -> Issue:
        with translated(f"read issue #{number}"):
            gh = self.repo.get_issue(number)
            gh.body  # noqa: B018 - completes the lazy object (one GET)
            return to_issue(gh)

    def create_issue(self, title: str, body: str, labels: tuple[str, ...] = ()) -> Issue:
        with self.pacer.write(), translated("create an issue"):
            made = self.repo.create_issue(
                title=redact(title), body=fit(redact(body)), labels=list(labels)
            )
            return to_issue(made)

    def edit_issue(
        self,
        number: int,
        *,
        title: str | None = None,
        body: str | None = None,
        state: str | None = None,
        state_reason: str | None = None,
    ) -> Issue:
        fields = {"title": title, "body": body, "state": state, "state_reason": state_reason}
        changes: dict[str, Any] = {
            key: fit(redact(value)) if key == "body" else redact(value) if key == "title" else value
            for key, value in fields.items()
            if value is not None
        }
        with self.pacer.write(), translated(f"edit issue #{number}"):
            gh = self.repo.get_issue(number)
            gh.edit(**changes)
            return to_issue(gh)

    # ---------------------------------------------------------------- comments

    def all_comments(self, number: int) -> list[Comment]:
        """Every comment of issue/PR ``number``, whoever wrote it, read once per run."""
        if number not in self._comments:
            with translated(f"list the comments of #{number}"):
                pages = self.repo.get_issue(number).get_comments()
                self._comments[number] = [to_comment(gh) for gh in pages]
        return self._comments[number]

    def read_comments(self, number: int) -> list[Comment] | None:
        """The bot's comments on ``number`` if this run already listed them (no request)."""
        return self.comments(number) if number in self._comments else None

    def comments(self, number: int) -> list[Comment]:
        """The bot's own comments on ``number``: the only ones searched for markers.

        A marker in anyone else's comment is text, not a claim that the bot wrote it.
        """
        return [c for c in self.all_comments(number) if self.is_mine(c.author)]

    def find_comment(self, number: int, marker: str) -> Comment | None:
        return next((c for c in self.comments(number) if carries(c.body, marker)), None)

    def create_comment(self, number: int, body: str) -> Comment:
        with self.pacer.write(), translated(f"comment on #{number}"):
            made = to_comment(self.repo.get_issue(number).create_comment(fit(redact(body))))
        if number in self._comments:
            self._comments[number].append(made)
        return made

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment:
        with self.pacer.write(), translated(f"edit a comment on #{number}"):
            gh = self.repo.get_issue(number).get_comment(comment_id)
            gh.edit(fit(redact(body)))
            edited = to_comment(gh)
        known = self._comments.get(number, [])
        self._comments[number] = [edited if c.id == comment_id else c for c in known]
        return edited

    # ------------------------------------------------------------------ labels

    def add_labels(self, number: int, labels: tuple[str, ...]) -> None:
        if labels:
            with self.pacer.write(), translated(f"label #{number}"):
                self.repo.get_issue(number).add_to_labels(*labels)

    def create_label(self, name: str, color: str, description: str) -> bool:
        """Create the repository label ``name``; False when it exists already (422)."""
        from github import GithubException

        with self.pacer.write(), translated(f"create label {name!r}"):
            try:
                self.repo.create_label(name, color, description)
            except GithubException as exc:
                if exc.status == 422 and "already_exists" in str(exc.data):
                    return False
                raise
        return True

    def label_exists(self, name: str) -> bool:
        """Whether the repository has the label ``name`` (404: it has not)."""
        from github import GithubException

        with translated(f"read label {name!r}"):
            try:
                self.repo.get_label(name).color  # noqa: B018 - a lazy object: this is the GET
            except GithubException as exc:
                if exc.status == 404:
                    return False
                raise
        return True

    def remove_label(self, number: int, label: str) -> None:
        """Remove ``label``; a label that is not there (404) is not an error."""
        from github import GithubException

        with self.pacer.write(), translated(f"remove label {label!r} from #{number}"):
            try:
                self.repo.get_issue(number).remove_from_labels(label)
            except GithubException as exc:
                if exc.status != 404:
                    raise
