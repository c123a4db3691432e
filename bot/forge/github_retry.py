"""Which GitHub requests are sent again, and when.

PyGithub's ``GithubRetry`` retries 5xx answers for urllib3's default methods
plus GET and POST: a PATCH (editing a comment, ticking a tracking issue) that met
a 502 failed the run, while a POST (a new comment, issue or PR) that met one was
sent again — and a 502 can come *after* GitHub made the object, so the retry
duplicated it.  Here every idempotent method (GET, PUT, PATCH, DELETE …) is
retried on 5xx, honouring ``Retry-After``; a POST only when GitHub refused it
for a rate limit (403 or 429), when nothing was made.

Imported only when a client is built: importing it imports PyGithub.
"""

from __future__ import annotations

from typing import Any

from github import GithubRetry

IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "PATCH", "DELETE"})
RATE_LIMITED = frozenset({403, 429})
"""Answers to a POST that mean GitHub did nothing (and may be asked again)."""


class BotRetry(GithubRetry):
    """``GithubRetry`` that retries idempotent writes on 5xx, and a POST only when refused."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allowed_methods", IDEMPOTENT)
        super().__init__(**kwargs)

    def is_retry(self, method: str, status_code: int, has_retry_after: bool = False) -> bool:
        if method.upper() == "POST":
            if status_code not in RATE_LIMITED:
                return False
            method = "GET"  # same rules as an idempotent request from here on
        return bool(super().is_retry(method, status_code, has_retry_after))
