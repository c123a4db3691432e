"""Cassettes of the rebase tests (``tests/test_github_rebase.py``): sign-offs made as in
``scenarios_consensus``, then the PR's author rewrites the branch and a later run reads it.

After a rebase the bot's commits on the branch are copies no comment names: the run asks
GitHub's activity record who pushed them (the bot's own pushes are the old shas), and
fetches the old commits by sha (git, not the API).
"""

from __future__ import annotations

from typing import Any

from gh_data import call, commit_item, issue
from scenarios_bot import ACCEPTED, DISCUSSION, body, labelled, unlabelled
from scenarios_consensus import (
    HUBOT_APPROVAL,
    PR_HEAD,
    Thread,
    files,
    hook_reads_the_bots_proofs,
    listed,
    perm,
    pushes,
    react,
    rockets,
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


def rebased(status: str = "rebase-kept") -> list[Interaction]:
    """Two approvals; the author rebases onto a newer main and force-pushes: ``synchronize``
    refreshes the status comment ``bodies/<status>.md``."""
    pr = Thread()
    signs = two_approvals(pr)
    bot_pushes = pushes((PR_HEAD, HUBOT_APPROVAL[0]), (HUBOT_APPROVAL[0], MONA_APPROVAL[0]))
    before = listed(*pr.comments)
    return [*signs, files(pr.ledger), before, bot_pushes, *pr.dashboard(status)]


CONCERN = (
    "aebc3a244d122afd8a0e3f47a088ef8a9c0c9502",
    "5957778410c1edd220c592df1265212a7afc2af9",
)  # as in two_reviewers
THREE_PUSHES = pushes(
    (PR_HEAD, HUBOT_APPROVAL[0]),
    (HUBOT_APPROVAL[0], MONA_APPROVAL[0]),
    (MONA_APPROVAL[0], CONCERN[0]),
)


def approved(pr: Thread) -> list[Interaction]:
    return signed(
        pr,
        (1001, "hubot", "/rfd approve"),
        "maintain",
        team=False,
        made=HUBOT_APPROVAL,
        status="consensus-status-hubot",
    )


def three(pr: Thread) -> list[Interaction]:
    """Two approvals and mona's concern: the first three runs of two_reviewers."""
    concern = (1003, "mona", "/rfd concern Proxies may buffer the chunked response")
    return [
        *two_approvals(pr),
        *signed(pr, concern, "write", team=True, made=CONCERN, status="consensus-status-concern"),
    ]


EDITED_LEDGER = "d8389324a750fb422081e4343c9e8ba1eb122de9"  # hubot's, and mona's by hand


def edited_in_the_rebase() -> list[Interaction]:
    """hubot approves; the rebase edits the bot's commit to add mona: ``synchronize``."""
    pr = Thread()
    signs = approved(pr)
    bot_pushes = pushes((PR_HEAD, HUBOT_APPROVAL[0]))
    before = listed(*pr.comments)
    return [*signs, files(EDITED_LEDGER), before, bot_pushes, *pr.dashboard("rebase-edited")]


def squashed() -> list[Interaction]:
    """Two approvals and a concern, then the whole PR squashed into one commit."""
    pr = Thread()
    signs = three(pr)
    before = listed(*pr.comments)
    return [*signs, files(pr.ledger), before, THREE_PUSHES, *pr.dashboard("rebase-squashed")]


def concern_dropped() -> list[Interaction]:
    """Two approvals and a concern, then the concern's commit dropped in a rebase."""
    pr = Thread()
    signs = three(pr)
    before = listed(*pr.comments)
    refreshed = pr.dashboard("rebase-dropped")
    return [*signs, files(MONA_APPROVAL[1]), before, THREE_PUSHES, *refreshed]


def redelivered() -> list[Interaction]:
    """hubot's approval: the run pushes its commit and is cancelled before its status comment
    and its 🚀; the author rebases; the job re-runs for comment 1001."""
    pr = Thread()
    cancelled = approved(pr)[:7]  # up to the PR's commits: then the push, then the cancel
    pr.comments = [c for c in pr.comments if c["id"] == 1001]  # no status comment
    pr.commits[0]["sha"], pr.commits[-1]["sha"] = REBASED_PR, REBASED_APPROVAL
    again = [
        listed(*pr.comments),
        rockets(1001),
        perm("hubot", "maintain"),
        react("eyes", 1001),
        pr.pull(),
        files(HUBOT_APPROVAL[1]),
        pushes((PR_HEAD, HUBOT_APPROVAL[0])),
        react("rocket", 1001),  # a quiet command: the job summary says it was done before
    ]
    return [*cancelled, *again]


REBASED_PR = "23f1d4a7d352bf44870da1a9ebcb91f670ffa9ef"  # the PR's commit on the newer main
REBASED_APPROVAL = "830d2af27e15081a7587c673e4647ab7fd999e43"  # the copy of the bot's commit


def comment_deleted() -> list[Interaction]:
    """Two approvals, hubot's comment deleted; the rebase rewrites the message of hubot's
    copy to name mona's comment."""
    pr = Thread()
    signs = two_approvals(pr)
    pr.comments = [c for c in pr.comments if c["id"] != 1001]
    bot_pushes = pushes((PR_HEAD, HUBOT_APPROVAL[0]), (HUBOT_APPROVAL[0], MONA_APPROVAL[0]))
    before = listed(*pr.comments)
    return [*signs, files(pr.ledger), before, bot_pushes, *pr.dashboard("rebase-withdrawn")]


PR_HEAD_NOFCP = "924252cd24d95472858274656e01f14465f7d023"  # the PR's commit in that world
REBASED_NOFCP = (  # its copy on the newer main, then the copies of the bot's two commits
    "451c7b6eacf480264e58c193f16214cde469982a",
    "3e0dfcfbc80dd7e92feb6da4757e2c9b75f49e64",
    "7bd8998bc17d04ed939d916774ae45e9382d65eb",
)
ACCEPT_COMMIT = "eddb00983c065ef24598534d77513fbdafa370d7"
TRACKING_12 = issue(12, "RFD 045: Streaming exports", body("rebase-tracking"), labels=(ACCEPTED,))
TRACKING = {"title": TRACKING_12["title"], "body": TRACKING_12["body"], "labels": [ACCEPTED]}
ACCEPT_HUBOT = (
    "dc8902a1063e007508f4868eeec3366b9549b592",
    HUBOT_APPROVAL[1],
)  # the bot's commits in a world asking for no FCP
ACCEPT_MONA = ("19eeaa4b567efea5bea42c1b399ddcb05734bb92", MONA_APPROVAL[1])


def rebase(pr: Thread, copies: tuple[str, ...]) -> None:
    """The author's rebase: the PR's commits as GitHub lists them from now on."""
    found = []
    for sha, old in zip(copies, pr.commits, strict=True):
        who = old["commit"]["author"]
        copy = commit_item(sha, old["author"], who["email"], who["name"])
        copy["commit"]["message"] = old["commit"]["message"]
        found.append(copy)
    pr.commits = found


def accepted_after_a_rebase() -> list[Interaction]:
    """Two approvals (no FCP asked for), a rebase, then hubot's `/rfd accept`."""
    pr = Thread()
    hubot = (1001, "hubot", "/rfd approve")
    mona = (1002, "mona", "/rfd approve")
    signs = [
        *signed(pr, hubot, "maintain", team=False, made=ACCEPT_HUBOT, status="rebase-nofcp-hubot"),
        *signed(pr, mona, "write", team=True, made=ACCEPT_MONA, status="rebase-nofcp-mona"),
    ]
    rebase(pr, REBASED_NOFCP)
    return [
        *signs,
        pr.said(1003, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1003),
        pr.pull(),
        files(MONA_APPROVAL[1]),
        pushes((PR_HEAD_NOFCP, ACCEPT_HUBOT[0]), (ACCEPT_HUBOT[0], ACCEPT_MONA[0])),
        pr.listed_commits(),
        call(
            "GET", "/issues", query="state=all&sort=created&direction=desc&per_page=100", reply=[]
        ),
        call("POST", "/issues", status=201, body=TRACKING, reply=TRACKING_12),
        *pr.dashboard("rebase-accepted", made=ACCEPT_COMMIT),
        unlabelled(2, DISCUSSION),
        *labelled(2, ACCEPTED),
        react("rocket", 1003),
        pr.replied("rebase-accept-reply", 3003, made=ACCEPT_COMMIT),
    ]


CASSETTES = {
    R + "test_a_pr_rebased_onto_a_newer_main_keeps_its_sign_offs": rebased(),
    R + "test_a_ledger_edited_during_the_rebase_is_named_and_the_bots_record_counts": (
        edited_in_the_rebase()
    ),
    R + "test_a_pr_squashed_by_its_author_keeps_its_sign_offs": squashed(),
    R + "test_a_concern_dropped_in_a_rebase_still_blocks_and_is_named": concern_dropped(),
    R + "test_a_sign_off_redelivered_after_a_rebase_is_not_recorded_again": redelivered(),
    R + "test_when_origin_no_longer_has_the_bots_commits_their_sign_offs_are_named": rebased(
        "rebase-collected"
    ),
    R + "test_a_rebased_pr_is_accepted_with_the_sign_offs_given_before_the_rebase": (
        accepted_after_a_rebase()
    ),
    R + "test_a_rebased_copy_follows_the_comment_the_bots_commit_names_not_its_own_message": (
        comment_deleted()
    ),
}

# rfd-status in PR 7's CI run after the branch was rebased: the comments as before
CASSETTES["test_hook_signoffs/test_a_rebased_copy_of_the_bots_commit_counts"] = (
    hook_reads_the_bots_proofs()
)
