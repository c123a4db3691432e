"""Cassettes of an RFD pull request merged the way most repositories merge
(``tests/test_github_merge_kinds.py``): by squash (one new commit on ``main``, the PR's own
commits not on it) or by rebase (the PR's commits copied onto ``main`` with new shas).

Before the merge the runs are those of any accepted RFD: hubot and mona sign off (mona
through her team), hubot accepts (tracking issue #12 opens, the accept reply links the
bot's commit).  The merge then gets PR 2's final status comment, whose Decision block
still names who accepted with whose sign-offs and links the pull request's own commits
(``refs/pull/2/head``: GitHub keeps them), naming the commit the merge made on ``main``;
the tracking issue is relinked to ``main``.  After a squash, PR 4 (the RFD Implemented)
is merged too: PR 2's final state says so and keeps its Decision.

The bot's commit shas come from the real runs with fixed git dates; the ledgers' git blobs
are computed here as the bot writes them.
"""

from __future__ import annotations

from typing import Any

from gh_data import call, comment, diff_entry
from scenarios_bot import ACCEPTED, RFD, RFD_BLOB, blob_sha, body, labelled, with_proofs
from scenarios_consensus import STATUS, Thread, files, perm, react, signed
from scenarios_lifecycle import IMPLEMENTED, ISSUES_Q, TEAM, TRACKING, merged_2

from tests.github_world import NOW as CLOCK

M = "test_github_merge_kinds/"
Interaction = dict[str, Any]
HUBOT_SIGNED = "0b530a6fbcb0f219444f1271a51c4348dcdea9f7"  # the bot's commits on PR 2
MONA_SIGNED = "71c5bb4321ca8c1ee5b4c297e6f244910bc1ea95"
ACCEPT_COMMIT = "018fa059834a0aee81d3349cf976422e2278a1f8"
SQUASHED = "a42b267fe4a05e23f4889670a63b898d62de7886"  # the squash merge's commit on main
ACCEPTED_RFD = "94522e61cafd47f72ace15add80e343e91ac266c"  # the RFD as accept left it


def ledgers() -> tuple[str, ...]:
    """The git blobs of the sign-off ledger after each step: hubot's and mona's approvals
    of the RFD as the author opened it, then hubot's acceptance."""
    from bot.model import consensus as c

    steps = [c.approve(c.Ledger(), "045", "hubot", RFD_BLOB, CLOCK, reviewer="hubot")]
    steps.append(c.approve(steps[-1], "045", "mona", RFD_BLOB, CLOCK, reviewer=TEAM))
    steps.append(c.accept(steps[-1], "hubot", ACCEPTED_RFD, CLOCK, ("hubot", "mona")))
    return tuple(blob_sha(c.dumps(ledger)) for ledger in steps)


LEDGERS = ledgers()


def accepted(pr: Thread) -> list[Interaction]:
    """hubot and mona sign off; hubot accepts: tracking issue #12, the reply links the
    bot's accept commit."""
    opened = call(
        "POST",
        "/issues",
        status=201,
        reply=TRACKING,
        body={
            "title": "RFD 045: Streaming exports",
            "body": TRACKING["body"],
            "labels": [ACCEPTED],
        },
    )
    out = [
        *signed(
            pr,
            (1001, "hubot", "/rfd approve"),
            "maintain",
            team=False,
            made=(HUBOT_SIGNED, LEDGERS[0]),
            status="merges-status-hubot",
        ),
        *signed(
            pr,
            (1002, "mona", "/rfd approve"),
            "write",
            team=True,
            made=(MONA_SIGNED, LEDGERS[1]),
            status="merges-status-mona",
        ),
        pr.said(1006, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1006),
        pr.pull(),
        files(pr.ledger, pr.rfd),
        pr.listed_commits(),
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        opened,
        *pr.dashboard("merges-status-accepted", made=ACCEPT_COMMIT),
        call("DELETE", "/issues/2/labels/rfd%3A%20discussion", reply=[]),
        *labelled(2, ACCEPTED, new=True),
        react("rocket", 1006),
        pr.replied("merges-accepted", 3006, made=ACCEPT_COMMIT),
    ]
    pr.ledger, pr.rfd = LEDGERS[2], ACCEPTED_RFD
    return out


def merged(pr: Thread, how: str) -> list[Interaction]:
    """PR 2 merged ``how``: its status comment's final state; the tracking issue links
    ``main``."""
    final = comment(STATUS, 2, with_proofs(body(f"merges-status-{how}"), pr.proven))
    relinked = {**TRACKING, "body": body("life-tracking-merged")}
    listed = list(pr.comments)
    pr.comments = [final if c["id"] == STATUS else c for c in pr.comments]
    return [
        files(pr.ledger, pr.rfd),
        call("GET", "/issues/2/comments", query="per_page=100", reply=listed),
        call("PATCH", f"/issues/comments/{STATUS}", body={"body": final["body"]}, reply=final),
        call("GET", "/issues/12", reply=TRACKING),
        call("PATCH", "/issues/12", body={"body": relinked["body"]}, reply=relinked),
    ]


def implemented(pr: Thread) -> list[Interaction]:
    """PR 4 (the RFD Implemented) squash-merged too: its own final state, and PR 2's final
    state says the RFD went on, its Decision kept."""
    final_4 = comment(4950, 4, body("merges-status-4-merged"))
    later = comment(STATUS, 2, with_proofs(body("merges-status-implemented"), pr.proven))
    relinked = {**TRACKING, "body": body("life-tracking-merged")}
    return [
        call("GET", "/pulls/4/files", query="per_page=100&page=1", reply=[diff_entry(RFD)]),
        call("GET", "/issues/4/comments", query="per_page=100", reply=[]),
        call(
            "POST", "/issues/4/comments", status=201, body={"body": final_4["body"]}, reply=final_4
        ),
        *labelled(4, IMPLEMENTED, new=True),
        call("GET", "/issues/12", reply=relinked),
        call("GET", "/pulls/2", reply={**merged_2(pr), "merge_commit_sha": SQUASHED}),
        call("GET", "/issues/2/comments", query="per_page=100", reply=list(pr.comments)),
        call("PATCH", f"/issues/comments/{STATUS}", body={"body": later["body"]}, reply=later),
    ]


def squashed() -> list[Interaction]:
    pr = Thread()
    return [*accepted(pr), *merged(pr, "squashed"), *implemented(pr)]


def rebased() -> list[Interaction]:
    pr = Thread()
    return [*accepted(pr), *merged(pr, "rebased")]


CASSETTES = {
    M + "test_a_squash_merge_keeps_who_accepted_and_links_commits_that_exist": squashed(),
    M + "test_a_rebase_merge_keeps_who_accepted_and_links_commits_that_exist": rebased(),
}
