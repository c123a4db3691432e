"""Who may do what: one decision per command or label, with a reason for every refusal.

Mutating commands need a repository role of at least ``accept.min_permission``
(write by default), read from the collaborator-permission API — not from the
payload's ``author_association``, which says nothing about write access.  The
permission is fetched only when the command needs it, so ``/rfd status`` costs no
request.  Bots are honoured only from ``bot.allowed_bots``; the bot ignores itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.config.load import Config
from bot.forge.base import Permission
from bot.github.commands import Verb, VerbSpec

NOT_ALLOWED = "@{login} {what} needs {need} access to this repository; you have {have}."
BOT_NOT_ALLOWED = (
    "{what} from the bot account `{login}` is ignored: add it to `bot.allowed_bots` "
    "in `.github/rfd.toml` to let it run commands."
)
AUTHOR_MAY_NOT_ACCEPT = (
    "@{login} an RFD's author cannot accept it: ask another maintainer, or set "
    "`accept.allow_author = true` in `.github/rfd.toml`."
)


@dataclass(frozen=True)
class Actor:
    """Who sent the event (``sender`` of the payload)."""

    login: str
    is_bot: bool = False

    @classmethod
    def from_sender(cls, sender: dict[str, object]) -> Actor:
        login = str(sender.get("login", ""))
        return cls(login, sender.get("type") == "Bot" or login.endswith("[bot]"))


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str = ""


ALLOW = Decision(True)


def is_own(actor: Actor, bot_login: str) -> bool:
    """Is this the bot's own comment?  By its author only: anyone can write a marker."""
    return actor.login.lower() == bot_login.lower()


def authorize(
    spec: VerbSpec,
    actor: Actor,
    cfg: Config,
    permission: Callable[[str], Permission],
    *,
    authors: tuple[str, ...] = (),
    what: str | None = None,
) -> Decision:
    """May ``actor`` run ``spec``?  ``authors``: logins of the RFD's authors (for accept)."""
    what = what or f"`/rfd {spec.verb.value}`"
    if not spec.mutating:
        return ALLOW
    if actor.is_bot and actor.login not in cfg.bot.allowed_bots:
        return Decision(False, BOT_NOT_ALLOWED.format(what=what, login=actor.login))
    if spec.verb is Verb.ACCEPT and not cfg.accept.allow_author and _is_author(actor, authors):
        return Decision(False, AUTHOR_MAY_NOT_ACCEPT.format(login=actor.login))
    if actor.is_bot:  # explicitly allowed by the repository's configuration
        return ALLOW
    need = Permission.parse(cfg.accept.min_permission)
    have = permission(actor.login)
    if have < need:
        return Decision(
            False,
            NOT_ALLOWED.format(
                login=actor.login, what=what, need=need.name.lower(), have=_words(have)
            ),
        )
    return ALLOW


def _is_author(actor: Actor, authors: tuple[str, ...]) -> bool:
    login = actor.login.lower()
    return any(a.strip().lstrip("@").lower() == login for a in authors)


def _words(permission: Permission) -> str:
    if permission is Permission.NONE:
        return "no access"
    return f"{permission.name.lower()} access"
