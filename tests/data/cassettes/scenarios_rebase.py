"""Cassettes of the rebase tests (``tests/test_github_rebase.py``): sign-offs made as in
``scenarios_consensus``, then the PR's author rewrites the branch and a later run reads it.

After a rebase the bot's commits on the branch are copies no comment names: the run asks
GitHub's activity record who pushed them (the bot's own pushes are the old shas), and
fetches the old commits by sha (git, not the API).
"""

from __future__ import annotations

from typing import Any

from scenarios_consensus import (
    HUBOT_APPROVAL,
    PR_HEAD,
    Thread,
    files,
    listed,
    pushes,
    signed,
)

R = "test_github_rebase/"
MONA_APPROVAL = (
    "2f5c1e4557b64f3c4fbfa5a2cc082ab4125f124f",
    "36bee8492c67d8cfc5671ac5376e5e122d1d941c",
)  # as in two_reviewers

Interaction = dict[str, Any]


def two_approvals(pr: Thread) -> list[Interaction]:
    """hubot approves, then mona (through her team): the first two runs of two_reviewers."""
    return [
        *signed(
            pr,
            (1001, "hubot", "/rfd approve"),
            "maintain",
            team=False,
            made=HUBOT_APPROVAL,
            status="consensus-status-hubot",
        ),
        *signed(
            pr,
            (1002, "mona", "/rfd approve"),
            "write",
            team=True,
            made=MONA_APPROVAL,
            status="consensus-status-mona",
        ),
    ]


def rebased() -> list[Interaction]:
    """Two approvals; the author rebases onto a newer main and force-pushes: ``synchronize``
    refreshes the status comment, both approvals counted."""
    pr = Thread()
    signs = two_approvals(pr)
    bot_pushes = pushes((PR_HEAD, HUBOT_APPROVAL[0]), (HUBOT_APPROVAL[0], MONA_APPROVAL[0]))
    return [*signs, files(pr.ledger), listed(*pr.comments), bot_pushes, *pr.dashboard("rebase-kept")]


CASSETTES = {
    R + "test_a_pr_rebased_onto_a_newer_main_keeps_its_sign_offs": rebased(),
}
