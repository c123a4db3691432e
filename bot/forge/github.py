"""The one door to GitHub: every request the bot sends to GitHub's API leaves from here.

No other module imports PyGithub or sends a request (``tests/test_one_door.py`` checks).
In the order of this file:

- **Errors** — :func:`translated` turns PyGithub's exceptions, and a network that cannot be
  reached, into one :class:`bot.core.errors.ForgeError` saying what the bot was doing and
  how to fix it.
- **Pacing** — :class:`WritePacer` spaces one run's writes for GitHub's secondary rate
  limits: the first ``burst`` writes go out at once, and only past them is each write
  spaced ``interval`` seconds after the previous one (never before the first, never after
  the last), so a long run (``reconcile``) stays under 60 writes a minute.
  ``Retry-After`` on a secondary limit is honoured apart from this, by the retries.
- **Connection** — token, API URL (GHE), pacing and retries.  PyGithub's ``GithubRetry``
  retries 5xx answers for urllib3's default methods plus GET and POST: a POST that met a
  502 was sent again although GitHub may already have made the object.  Here every
  idempotent method (GET, PUT, PATCH, DELETE …) is retried on 5xx, honouring
  ``Retry-After``; a POST only when GitHub refused it for a rate limit (403 or 429).
- **Releases** — tags and releases of the action's repository (``GET …/git/ref/tags/{tag}``
  names a commit, or a tag object naming one; ``GET …/releases/latest``).
- **The forge** — :class:`GitHubForge`, the :class:`bot.forge.base.Forge` protocol over
  PyGithub: issues, comments, labels.  Objects are lazy, so a write costs one request.
  The bot finds its own issues and comments by their hidden marker *and* their author
  (``bot.login``, by default ``github-actions[bot]``) — never by asking who it is:
  ``GET /user`` answers 403 with the Actions ``GITHUB_TOKEN``.
- **The repository API** — :class:`RepoApi`, what the bot needs beyond the protocol:
  pull-request facts, the files a PR changes, file contents at a ref (fork content is read
  here, as data, never checked out), permissions, reactions, labels with their colours,
  pull requests opened, and pull-request reviews (listed, submitted).  Requests go through
  PyGithub's requester so they share its retries, and writes through the forge's pacer;
  every body written is redacted and fitted to GitHub's limit.

PyGithub is imported inside functions: importing this module is free.
"""

from __future__ import annotations

import base64
import functools
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.config.load import ACTIONS_BOT_LOGIN
from bot.core.errors import ConfigError, ForgeError, ForgeGone, ForgeUnreachable
from bot.core.redact import redact
from bot.forge.base import (
    ChangedFile,
    Comment,
    Issue,
    LineComment,
    Permission,
    PullRequest,
    Reaction,
    carries,
    changed_file,
    fit,
)

if TYPE_CHECKING:
    from github import Github, GithubRetry
    from github.Issue import Issue as GhIssue
    from github.IssueComment import IssueComment as GhComment
    from github.Repository import Repository

    from bot.config.action_pin import Release
    from bot.core.authors import CommitBy


@contextmanager
def translated(doing: str) -> Iterator[None]:
    """Turn PyGithub's exceptions into one :class:`ForgeError` saying what failed."""
    from github import GithubException

    try:
        yield
    except GithubException as exc:
        data = exc.data if isinstance(exc.data, dict) else {}
        message = data.get("message") or exc.message or ""
        error = ForgeGone if exc.status == 404 else ForgeError
        raise error(
            f"GitHub refused to {doing}: {exc.status} {message}".rstrip(),
            hint=_HINTS.get(exc.status, "re-run the job; GitHub may be having trouble"),
        ) from exc
    except OSError as exc:  # requests' ConnectionError and timeouts are OSErrors
        raise ForgeUnreachable(
            f"could not reach GitHub to {doing}: {type(exc).__name__}",
            hint="check the network (and GITHUB_API_URL), then try again",
        ) from exc


_HINTS = {
    401: "the token is missing or expired",
    403: "give the workflow job the permission it needs (`rfd help bot`: each job's permissions)",
    404: "check the repository name and that the token can see it",
    422: "GitHub rejected the data; this is a bug in rfd-bot, please report it",
}


DEFAULT_INTERVAL = 1.0
DEFAULT_BURST = 4


@dataclass
class WritePacer:
    interval: float = DEFAULT_INTERVAL
    """Seconds between two writes once the burst is spent (0: no pause at all)."""
    burst: int = DEFAULT_BURST
    """Writes of a run sent without pausing."""
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] | None = None
    """``time.sleep`` unless given (looked up when pausing)."""
    writes: int = field(default=0, init=False)
    slept: float = field(default=0.0, init=False)
    """Seconds paused so far (reported in the job summary)."""
    _last_end: float | None = field(default=None, init=False)

    def wait_before_write(self) -> float:
        """How long the next write must wait (0 within the burst)."""
        if self.interval <= 0 or self._last_end is None or self.writes < self.burst:
            return 0.0
        return max(self._last_end + self.interval - self.clock(), 0.0)

    @contextmanager
    def write(self) -> Iterator[None]:
        """Wrap one write request: pause if needed, then record when it ended."""
        pause = self.wait_before_write()
        if pause > 0:
            (self.sleep or time.sleep)(pause)
            self.slept += pause
        try:
            yield
        finally:
            self.writes += 1
            self._last_end = self.clock()


IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "PATCH", "DELETE"})
RATE_LIMITED = frozenset({403, 429})
"""Answers to a POST that mean GitHub did nothing (and may be asked again)."""


@functools.cache
def _retry_class() -> type[GithubRetry]:
    """``GithubRetry`` that retries idempotent writes on 5xx, and a POST only when refused
    (built on first use: defining it imports PyGithub)."""
    from github import GithubRetry

    class BotRetry(GithubRetry):
        def __init__(self, **kwargs: Any) -> None:
            kwargs.setdefault("allowed_methods", IDEMPOTENT)
            super().__init__(**kwargs)

        def is_retry(self, method: str, status_code: int, has_retry_after: bool = False) -> bool:
            if method.upper() == "POST":
                if status_code not in RATE_LIMITED:
                    return False
                method = "GET"  # same rules as an idempotent request from here on
            return bool(super().is_retry(method, status_code, has_retry_after))

    return BotRetry


DEFAULT_API_URL = "https://api.github.com"
PER_PAGE = 100


@dataclass(frozen=True)
class Connection:
    """How to reach one repository."""

    repository: str
    """``owner/name``."""
    token: str
    api_url: str = DEFAULT_API_URL
    seconds_between_writes: float | None = DEFAULT_INTERVAL
    """Pause between writes once ``write_burst`` writes were made (see :class:`WritePacer`)."""
    retries: int = 3
    secondary_rate_wait: float = 60.0
    write_burst: int = DEFAULT_BURST

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str],
        *,
        seconds_between_writes: float | None = DEFAULT_INTERVAL,
        write_burst: int = DEFAULT_BURST,
    ) -> Connection:
        """Read ``GITHUB_REPOSITORY``, ``GITHUB_TOKEN`` and ``GITHUB_API_URL`` (GHE)."""
        repository = environ.get("GITHUB_REPOSITORY", "")
        token = environ.get("GITHUB_TOKEN", "")
        if "/" not in repository:
            raise ConfigError(
                "GITHUB_REPOSITORY is not set to owner/name",
                hint="run inside GitHub Actions or export GITHUB_REPOSITORY",
            )
        if not token:
            raise ConfigError("GITHUB_TOKEN is not set", hint="pass `github.token` in `env:`")
        api_url = environ.get("GITHUB_API_URL") or DEFAULT_API_URL
        return cls(
            repository, token, api_url.rstrip("/"), seconds_between_writes, write_burst=write_burst
        )

    def pacer(self) -> WritePacer:
        return WritePacer(self.seconds_between_writes or 0.0, self.write_burst)

    def client(self) -> Github:
        """A lazy PyGithub client with retries for 5xx and (secondary) rate limits.

        Idempotent requests (PATCH, PUT and DELETE too) are retried on 5xx; a POST
        only on a rate limit (see :func:`_retry_class`).
        """
        from github import Auth, Github

        retry = _retry_class()(
            total=self.retries,
            backoff_factor=0.5 if self.seconds_between_writes else 0,
            secondary_rate_wait=self.secondary_rate_wait,
        )
        return Github(
            auth=Auth.Token(self.token),
            base_url=self.api_url,
            retry=retry,
            per_page=PER_PAGE,
            seconds_between_requests=None,
            seconds_between_writes=None,  # paced by WritePacer: only past the burst
            lazy=True,
        )


class GitHubReleases:
    """:class:`bot.config.action_pin.Releases` over GitHub's API."""

    def __init__(self, client: Github) -> None:
        self._client = client

    def _repo(self, repo: str) -> Repository:
        return self._client.get_repo(repo)  # the client is lazy: no request

    def commit_of(self, repo: str, tag: str) -> str | None:
        from github import GithubException

        found = self._repo(repo)
        with translated(f"read tag {tag!r} of {repo}"):
            try:
                target = found.get_git_ref(f"tags/{tag}").object
            except GithubException as exc:
                if exc.status == 404:
                    return None
                raise
            if target.type == "tag":  # annotated: the tag object names the commit
                return str(found.get_git_tag(target.sha).object.sha)
            return str(target.sha)

    def latest(self, repo: str) -> Release | None:
        from github import GithubException

        with translated(f"read the latest release of {repo}"):
            try:
                newest = self._repo(repo).get_latest_release()
            except GithubException as exc:
                if exc.status == 404:
                    return None
                raise
        sha = self.commit_of(repo, newest.tag_name)
        from bot.config.action_pin import Release

        return Release(newest.tag_name, sha, newest.html_url) if sha else None


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


def post_labels(
    repo: Repository, pacer: WritePacer, number: int, names: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Add ``names`` to issue or PR #``number`` (the one way both the forge and the run's API
    label anything); the labels it carries now, as GitHub answers."""
    with pacer.write(), translated(f"label #{number}"):
        _h, data = repo.requester.requestJsonAndCheck(
            "POST", f"{repo.url}/issues/{number}/labels", input={"labels": list(names)}
        )
    return list(data)


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
        """Shared with :class:`RepoApi`: every write of the run goes through it."""
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
            post_labels(self.repo, self.pacer, number, labels)

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


REVIEW_PAGES = 3
"""Reviews listed at most (× 100): a PR with more is beyond what the bot looks through."""

REACTION_RETRIES = (1.0, 2.0)
"""Seconds waited before each retry of a reaction that met a 5xx."""


COLLABORATOR_QUERY = {
    Permission.NONE: "pull",
    Permission.READ: "pull",
    Permission.TRIAGE: "triage",
    Permission.WRITE: "push",
    Permission.MAINTAIN: "maintain",
    Permission.ADMIN: "admin",
}
"""The collaborators API's ``permission`` filter for each role (at least that role)."""


def _role(collaborator: Mapping[str, Any]) -> Permission:
    """A listed collaborator's role: ``role_name`` when it is a base role, else the highest
    of its ``permissions`` (an organization's custom role counts as its base level)."""
    role = Permission.parse(str(collaborator.get("role_name") or ""))
    if role is not Permission.NONE:
        return role
    granted = collaborator.get("permissions") or {}
    levels = {"admin": 5, "maintain": 4, "push": 3, "triage": 2, "pull": 1}
    return Permission(max((n for k, n in levels.items() if granted.get(k)), default=0))


class RepoApi:
    """Reads (and reactions) on one repository."""

    def __init__(self, repo: Repository, pacer: WritePacer | None = None) -> None:
        self.repo = repo
        self.pacer = pacer or WritePacer(interval=0)
        """The forge's: writes made here are paced with the forge's."""
        self.requester = repo.requester
        self.url = repo.url
        self._files: dict[int, list[ChangedFile]] = {}
        self._pushes: dict[tuple[str, str, tuple[str, ...]], frozenset[str]] = {}
        self._collaborators: dict[Permission, list[tuple[str, Permission]] | None] = {}
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

    def collaborators(self, at_least: Permission) -> list[tuple[str, Permission]] | None:
        """Who holds ``at_least`` this role on the repository, each with their role, as
        GitHub reports them (the first 100); None when GitHub does not tell this token
        (403, 404): who they are is then unknown.  Read once per run."""
        if at_least not in self._collaborators:
            self._collaborators[at_least] = self._read_collaborators(at_least)
        return self._collaborators[at_least]

    def _read_collaborators(self, at_least: Permission) -> list[tuple[str, Permission]] | None:
        from github import GithubException

        query = {"permission": COLLABORATOR_QUERY[at_least], "per_page": PER_PAGE}
        with translated("list the repository's collaborators"):
            try:
                found = self._get("/collaborators", query)
            except GithubException as exc:
                if exc.status in (403, 404):
                    return None
                raise
        return [(str(c["login"]), _role(c)) for c in found]

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
        idempotent writes (:func:`_retry_class` retries no POST by itself).
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

    def pushed(self, branch: str, actor: str, kinds: tuple[str, ...] = ("push",)) -> frozenset[str]:
        """The commits ``actor``'s pushes to ``branch`` left it at, as GitHub's record of the
        repository's activity says (the latest 100; read once per run): who pushed is the
        account that authenticated, which no commit's text can change, and nobody can
        delete it.  ``kinds``: the activity types that count (a new branch's first push is a
        ``branch_creation``, a forced one a ``force_push``)."""
        if (branch, actor, kinds) not in self._pushes:
            self._pushes[branch, actor, kinds] = self._pushed(branch, actor, kinds)
        return self._pushes[branch, actor, kinds]

    def _pushed(self, branch: str, actor: str, kinds: tuple[str, ...]) -> frozenset[str]:
        with translated(f"read who pushed to {branch}"):
            query = {"ref": f"refs/heads/{branch}", "actor": actor}
            if len(kinds) == 1:  # else every type is listed and filtered here
                query["activity_type"] = kinds[0]
            found = self._get("/activity", {**query, "per_page": PER_PAGE})
        return frozenset(
            str(a.get("after", ""))
            for a in found
            if str((a.get("actor") or {}).get("login", "")).lower() == actor.lower()
            and a.get("activity_type") in kinds
        )

    def run_status(self, run_id: int) -> str | None:
        """Workflow run ``run_id``'s ``status`` as GitHub reports it (``queued``,
        ``in_progress``, ``completed`` …); None when GitHub no longer knows the run (404)."""
        try:
            with translated(f"read the status of workflow run {run_id}"):
                data = self._get(f"/actions/runs/{run_id}")
        except ForgeGone:
            return None
        return str(data.get("status") or "") if isinstance(data, dict) else ""

    def add_labels(self, number: int, names: tuple[str, ...]) -> list[str]:
        """Label #``number``; the names GitHub had to create for it (they come back grey)."""
        from bot.model.status import AUTO_COLOR

        data = post_labels(self.repo, self.pacer, number, names)
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

    def find_pull(self, head: str, state: str = "all") -> tuple[int, str] | None:
        """``(number, url)`` of the PR from branch ``head`` of this repository (``state``:
        ``all``, ``open`` or ``closed``)."""
        owner = self.repo.full_name.split("/")[0]
        with translated(f"look for a PR from {head}"):
            found = self._get("/pulls", {"state": state, "head": f"{owner}:{head}"})
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

    def reviews(self, number: int) -> list[Comment]:
        """The reviews of #``number`` (oldest first) as comments: id, body, url, author."""
        with translated(f"list the reviews of #{number}"):
            return [_review(r) for r in self.paged(f"/pulls/{number}/reviews", REVIEW_PAGES)]

    def submit_review(
        self, number: int, commit: str, body: str, comments: Sequence[LineComment]
    ) -> str:
        """Submit one review (``COMMENT``) of ``commit`` with ``comments``; its URL."""
        sent = {
            "commit_id": commit,
            "body": fit(redact(body)),
            "event": "COMMENT",
            "comments": [_line_comment(c) for c in comments],
        }
        with self.pacer.write(), translated(f"submit a review of #{number}"):
            _h, data = self.requester.requestJsonAndCheck(
                "POST", f"{self.url}/pulls/{number}/reviews", input=sent
            )
        return str(data["html_url"])


def _commit_by(data: Mapping[str, Any]) -> CommitBy:
    from bot.core.authors import CommitBy

    login = (data.get("author") or {}).get("login")
    email = ((data.get("commit") or {}).get("author") or {}).get("email")
    return CommitBy(
        str(data["sha"]), (str(login),) if login else (), (str(email),) if email else ()
    )


def _server_error(err: ForgeError) -> bool:
    cause = err.__cause__
    return int(getattr(cause, "status", 0) or 0) >= 500


def _line_comment(comment: LineComment) -> dict[str, object]:
    return {
        "path": comment.path,
        "line": comment.line,
        "side": "RIGHT",
        "body": fit(redact(comment.body)),
    }


def _review(data: Mapping[str, Any]) -> Comment:
    login = str((data.get("user") or {}).get("login") or "")  # a deleted user: null
    return Comment(int(data["id"]), str(data.get("body") or ""), str(data["html_url"]), login)
