"""Authorization of commands and labels."""

from __future__ import annotations

import pytest

from bot.config.load import Config, parse
from bot.forge.base import Permission
from bot.github.auth import Actor, authorize, is_own
from bot.github.commands import REGISTRY, Verb

ROLES = {"maint": Permission.MAINTAIN, "writer": Permission.WRITE, "reader": Permission.READ}


def lookup(asked: list[str]) -> object:
    def permission(login: str) -> Permission:
        asked.append(login)
        return ROLES.get(login, Permission.NONE)

    return permission


@pytest.mark.parametrize(
    ("verb", "login", "allowed", "says"),
    [
        (Verb.REVIEW, "writer", True, ""),
        (Verb.REVIEW, "reader", False, "needs write access to this repository; you have read"),
        (Verb.DISMISS, "stranger", False, "you have no access"),
        (Verb.ACCEPT, "writer", True, ""),
        (Verb.ACCEPT, "maint", False, "an RFD's author cannot accept it"),
        (Verb.STATUS, "stranger", True, ""),
        (Verb.HELP, "stranger", True, ""),
    ],
)
def test_people(verb: Verb, login: str, allowed: bool, says: str) -> None:
    decision = authorize(REGISTRY[verb], Actor(login), Config(), lookup([]), authors=("@maint",))
    assert decision.allowed is allowed
    assert says in decision.reason


def test_read_only_commands_cost_no_request() -> None:
    asked: list[str] = []
    authorize(REGISTRY[Verb.STATUS], Actor("stranger"), Config(), lookup(asked))
    assert asked == []


def test_author_may_accept_when_configured() -> None:
    cfg = parse("[accept]\nallow_author = true\n")
    decision = authorize(REGISTRY[Verb.ACCEPT], Actor("maint"), cfg, lookup([]), authors=("maint",))
    assert decision.allowed


def test_min_permission_maintain() -> None:
    cfg = parse('[accept]\nmin_permission = "maintain"\n')
    decision = authorize(REGISTRY[Verb.REVIEW], Actor("writer"), cfg, lookup([]))
    assert not decision.allowed and "needs maintain access" in decision.reason


@pytest.mark.parametrize(("allowed_bots", "allowed"), [((), False), (("renovate[bot]",), True)])
def test_bots_only_from_the_allow_list(allowed_bots: tuple[str, ...], allowed: bool) -> None:
    cfg = parse(f"[bot]\nallowed_bots = {list(allowed_bots)!r}\n".replace("'", '"'))
    actor = Actor.from_sender({"login": "renovate[bot]", "type": "Bot"})
    decision = authorize(REGISTRY[Verb.REVIEW], actor, cfg, lookup([]))
    assert decision.allowed is allowed
    assert allowed or "bot.allowed_bots" in decision.reason


@pytest.mark.parametrize(
    ("login", "own"),
    [("github-actions[bot]", True), ("GitHub-Actions[bot]", True), ("octocat", False)],
)
def test_own_comments_are_known_by_their_author(login: str, own: bool) -> None:
    assert is_own(Actor(login), "github-actions[bot]") is own


def test_a_marker_does_not_make_a_comment_the_bots() -> None:
    assert not is_own(Actor("octocat"), "rfd-helper[bot]")
    assert is_own(Actor("rfd-helper[bot]"), "rfd-helper[bot]")
