"""How the bot reaches one GitHub repository: token, API URL (GHE), pacing and retries.

PyGithub is imported inside :meth:`Connection.client`: importing this module is free.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import ConfigError
from bot.forge.pacing import DEFAULT_BURST, DEFAULT_INTERVAL, WritePacer

if TYPE_CHECKING:
    from github import Github

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
    """Pause between writes once ``write_burst`` writes were made (see :mod:`.pacing`)."""
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
        only on a rate limit (see :mod:`bot.forge.github_retry`).
        """
        from github import Auth, Github

        from bot.forge.github_retry import BotRetry

        retry = BotRetry(
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
