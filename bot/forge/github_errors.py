"""What GitHub's refusals mean to the user: PyGithub's exceptions, and a network that
cannot be reached, turned into one :class:`bot.core.errors.ForgeError` that says what the
bot was doing and how to fix it (for :mod:`bot.forge.github` and :mod:`bot.github.api`).

PyGithub is imported inside the function: importing this module is free.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.core.errors import ForgeError, ForgeGone, ForgeUnreachable


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
    403: "give the workflow job the permission it needs (see the README's `permissions:`)",
    404: "check the repository name and that the token can see it",
    422: "GitHub rejected the data; this is a bug in rfd-bot, please report it",
}
