"""Tags and releases of the action's repository, read from GitHub's API.

``GET /repos/{repo}/git/ref/tags/{tag}`` gives the object a tag names: a commit for a
lightweight tag, a tag object for an annotated one (``GET /repos/{repo}/git/tags/{sha}``
then names the commit).  ``GET /repos/{repo}/releases/latest`` is the newest release that
is neither a draft nor a pre-release.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.config.action_pin import Release
from bot.forge.github_errors import translated

if TYPE_CHECKING:
    from github import Github
    from github.Repository import Repository


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
        return Release(newest.tag_name, sha, newest.html_url) if sha else None
