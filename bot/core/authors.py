"""Who an RFD's authors are, as GitHub logins: "an RFD's author may not accept it".

An RFD's authors are the pull request's author, the GitHub users behind the
commits that wrote the file, and whoever its ``Authors`` field names — in any of
the forms people write: ``Name <email>``, ``Name (@login)``,
``[@login](https://github.com/login)``, ``@login`` or a plain login.  An email
counts through the commits that carry it (GitHub knows which user made each) or
through GitHub's own ``<id>+<login>@users.noreply.github.com`` form.  Logins are
compared case-insensitively, as GitHub does.  Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_LOGIN = r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}"
_MENTION = re.compile(rf"(?<![\w.+-])@({_LOGIN})(?![\w-])")
_PROFILE = re.compile(rf"https?://(?:www\.)?github\.com/({_LOGIN})(?![\w-])", re.IGNORECASE)
_EMAIL = re.compile(r"[^\s<>()\[\],;]+@[^\s<>()\[\],;]+\.[^\s<>()\[\],;]+")
_PLAIN = re.compile(rf"{_LOGIN}")
_NOREPLY = re.compile(rf"^(?:\d+\+)?({_LOGIN})@users\.noreply\.github\.com$", re.IGNORECASE)


@dataclass(frozen=True)
class Named:
    """The logins and emails an ``Authors`` field names (lowercase)."""

    logins: frozenset[str]
    emails: frozenset[str]


@dataclass(frozen=True)
class CommitBy:
    """One commit and who wrote it: its author's login (when GitHub knows it) and email."""

    sha: str
    logins: tuple[str, ...]
    emails: tuple[str, ...]


def named(entries: Iterable[str]) -> Named:
    """The identities an ``Authors`` field's entries name, in every supported form."""
    logins: set[str] = set()
    emails: set[str] = set()
    for entry in entries:
        text = entry.strip()
        found = {m.lower() for m in _MENTION.findall(text) + _PROFILE.findall(text)}
        mails = {m.lower() for m in _EMAIL.findall(text)}
        if not found and not mails and _PLAIN.fullmatch(text):
            found.add(text.lower())
        logins |= found
        emails |= mails
    return Named(frozenset(logins), frozenset(emails))


def login_of(email: str) -> str | None:
    """The login a GitHub no-reply email stands for, if it is one."""
    match = _NOREPLY.match(email.strip())
    return match[1].lower() if match else None


def author_logins(
    pr_author: str, names: Named, commits: Iterable[CommitBy], writers: Iterable[CommitBy]
) -> frozenset[str]:
    """Every login that is an author of the RFD.

    ``commits``: the pull request's commits, with the users GitHub says authored them;
    ``writers``: the commits that wrote the file (from git: shas and author emails).
    """
    writers = list(writers)
    wrote = {w.sha for w in writers}
    logins = {pr_author.lower(), *names.logins}
    emails = set(names.emails) | {e.lower() for w in writers for e in w.emails}
    logins |= {login for e in emails if (login := login_of(e))}
    for commit in commits:
        if commit.sha in wrote or {e.lower() for e in commit.emails} & names.emails:
            logins |= {login.lower() for login in commit.logins}
    return frozenset(login for login in logins if login)
