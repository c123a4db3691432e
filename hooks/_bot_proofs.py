"""The commits the bot's own comments on the pull request name: its proof that it made them.

The bot names each commit it makes in the leading markers of the comments it writes
(``<!-- rfd-bot:commit:<sha> -->``, :mod:`bot.github.bot_records`).  In GitHub Actions
with a token (``GITHUB_TOKEN``) on a pull request's run, the hook reads the pull request's
comments once and keeps the markers of those the bot's account (``[bot] login``) wrote, and
the commits GitHub's activity record says that account pushed to the branch
(``GITHUB_HEAD_REF``): a deleted status comment loses no proof here either.
Without a token, outside a pull request, or when GitHub cannot be asked, nothing is
proven: an entry only such a commit added is then reported as unverified.  Standard
library only (no GitHub client): the hooks stay light.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

COMMIT_MARK = "<!-- rfd-bot:commit:"
PAGE = 100


def load(login: str, environ: Mapping[str, str] = os.environ) -> frozenset[str]:
    """The shas named by ``login``'s comments on the run's pull request (empty offline)."""
    token, repo = environ.get("GITHUB_TOKEN", ""), environ.get("GITHUB_REPOSITORY", "")
    number = _pull_number(environ.get("GITHUB_EVENT_PATH", ""))
    if not token or not repo or number is None:
        return frozenset()
    api = environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    found: set[str] = set()
    for page in range(1, 101):
        url = f"{api}/repos/{repo}/issues/{number}/comments?per_page={PAGE}&page={page}"
        comments = _get(url, token)
        found.update(_named(comments, login))
        if len(comments) < PAGE:
            break
    branch = environ.get("GITHUB_HEAD_REF", "")
    if branch:  # the bot's pushes, as GitHub recorded them: a deleted comment loses no proof
        query = urlencode(
            {
                "ref": f"refs/heads/{branch}",
                "actor": login,
                "activity_type": "push",
                "per_page": PAGE,
            }
        )
        found.update(_pushed(_get(f"{api}/repos/{repo}/activity?{query}", token), login))
    return frozenset(found)


def _pushed(activity: list[Any], login: str) -> set[str]:
    return {
        str(a.get("after", ""))
        for a in activity
        if isinstance(a, dict)
        and str((a.get("actor") or {}).get("login", "")).lower() == login.lower()
        and a.get("activity_type") == "push"
    }


def _pull_number(event_path: str) -> int | None:
    if not event_path:
        return None
    try:
        with open(event_path, encoding="utf-8") as file:
            event = json.load(file)
    except (OSError, ValueError):
        return None
    pull = event.get("pull_request") if isinstance(event, dict) else None
    number = pull.get("number") if isinstance(pull, dict) else None
    return number if isinstance(number, int) else None


def _get(url: str, token: str) -> list[Any]:
    from urllib.request import Request, urlopen

    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "rfd-status",
    }
    try:
        with urlopen(Request(url, headers=headers), timeout=30) as answer:
            data = json.load(answer)
    except (OSError, ValueError):
        return []  # not asked: nothing proven, the entries are reported as unverified
    return data if isinstance(data, list) else []


def _named(comments: list[Any], login: str) -> set[str]:
    from bot.forge.comments import leading_markers

    shas: set[str] = set()
    for comment in comments:
        if not isinstance(comment, dict):
            continue
        author = str((comment.get("user") or {}).get("login", ""))
        if author.lower() != login.lower():
            continue
        for mark in leading_markers(str(comment.get("body") or "")):
            if mark.startswith(COMMIT_MARK):
                shas.add(mark[len(COMMIT_MARK) : -len(" -->")])
    return shas
