"""Cassette of one RFD's life on GitHub (``tests/test_github_lifecycle.py``): two reviewers
sign off, one raises a concern that holds acceptance up until she resolves it, a maintainer
accepts (the tracking issue #12 opens, linking the RFD at the PR's head), the PR is merged
(its status comment gets its final state, the tracking issue now links ``main``), and with
every phase done ``/rfd done`` on the tracking issue opens the pull request to Implemented.

PR 2 is followed from one run to the next by :class:`scenarios_consensus.Thread`; the
comment ids of the commands are those of ``two_reviewers`` (same commits, same SHAs).
"""

from __future__ import annotations

from typing import Any

from gh_data import call, comment, diff_entry, issue, pull, reaction
from scenarios_bot import (
    ACCEPTED,
    RFD,
    body,
    labelled,
    lifecycle_label,
    unlabelled,
    with_proofs,
)
from scenarios_consensus import BRANCH, STATUS, Thread, files, perm, react, signed

L = "test_github_lifecycle/"
IMPLEMENTED = "rfd: implemented"
DONE_BRANCH = "rfd/045-implemented"
Interaction = dict[str, Any]
ISSUES_Q = "state=all&sort=created&direction=desc&per_page=100"
ACCEPT_COMMIT = "542585a97ce400d6b35cf842fc04161ebbaad731"  # the bot's accept commit
ACCEPTED_LEDGER = "ad7c27442f6154c996ea2bc363fa6a0cad150c4b"  # its ledger: who accepted
CONCERN = "/rfd concern Proxies may buffer the chunked response"
TRACKING = issue(12, "RFD 045: Streaming exports", body("life-tracking-opened"), labels=(ACCEPTED,))


def discussion(pr: Thread) -> list[Interaction]:
    """Approve ×2 (mona through her team), a concern, accept refused, resolve."""
    return [
        *signed(
            pr,
            (1001, "hubot", "/rfd approve"),
            "maintain",
            team=False,
            made=(
                "0b530a6fbcb0f219444f1271a51c4348dcdea9f7",
                "0ee7a9bca6d6b1b4121c1341bed1ea76a927c217",
            ),
            status="life-status-hubot",
        ),
        *signed(
            pr,
            (1002, "mona", "/rfd approve"),
            "write",
            team=True,
            made=(
                "71c5bb4321ca8c1ee5b4c297e6f244910bc1ea95",
                "36bee8492c67d8cfc5671ac5376e5e122d1d941c",
            ),
            status="life-status-mona",
        ),
        *signed(
            pr,
            (1003, "mona", CONCERN),
            "write",
            team=True,
            made=(
                "9fb3c738a86fd5ff289edc052b1a6042a0752881",
                "5957778410c1edd220c592df1265212a7afc2af9",
            ),
            status="life-status-concern",
        ),
        pr.said(1004, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1004),
        pr.pull(),
        files(pr.ledger),
        pr.listed_commits(),
        react("confused", 1004),
        pr.replied("life-accept-refused", 3004),
        *signed(
            pr,
            (1005, "mona", "/rfd resolve 1"),
            "write",
            team=False,
            made=(
                "256826a283b7473fbf4c3482467c95821d2a7c9e",
                "7c94c6573035d724bc7615d5f3028e038d3176af",
            ),
            status="life-status-resolved",
        ),
    ]


def accepted(pr: Thread) -> list[Interaction]:
    """hubot accepts: the plan and status committed, tracking issue #12 opened."""
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
        pr.said(1006, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1006),
        pr.pull(),
        files(pr.ledger),
        pr.listed_commits(),
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        opened,
        *pr.dashboard("life-status-accepted", made=ACCEPT_COMMIT),
        call("DELETE", "/issues/2/labels/rfd%3A%20discussion", reply=[]),
        *labelled(2, ACCEPTED, new=True),
        react("rocket", 1006),
        pr.replied("life-accepted", 3006, made=ACCEPT_COMMIT),
    ]
    pr.ledger = ACCEPTED_LEDGER
    return out


def merged(pr: Thread) -> list[Interaction]:
    """PR 2 merged: its status comment's final state; the tracking issue now links main."""
    final = comment(STATUS, 2, with_proofs(body("life-status-merged"), pr.proven))
    relinked = {**TRACKING, "body": body("life-tracking-merged")}
    return [
        files(pr.ledger),
        call("GET", "/issues/2/comments", query="per_page=100", reply=list(pr.comments)),
        call("PATCH", f"/issues/comments/{STATUS}", body={"body": final["body"]}, reply=final),
        call("GET", "/issues/12", reply=TRACKING),
        call("PATCH", "/issues/12", body={"body": relinked["body"]}, reply=relinked),
    ]


def misplaced(pr: Thread) -> list[Interaction]:
    """`/rfd implement` on the merged PR 2: it works on the tracking issue, which the answer
    links (no dead end)."""
    merged_2 = {**pull(2, BRANCH, pr.head), "state": "closed", "merged": True}
    return [
        pr.said(1007, "hubot", "/rfd implement"),
        perm("hubot", "maintain"),
        react("eyes", 1007),
        call("GET", "/pulls/2", reply=merged_2),
        files(pr.ledger),
        react("confused", 1007),
        pr.replied("life-implement-misplaced", 3007),
    ]


def on_12(cid: int, content: str) -> Interaction:
    return call(
        "POST",
        f"/issues/comments/{cid}/reactions",
        body={"content": content},
        status=201,
        reply=reaction(content),
    )


PHASES = ((1, "Writer", 2101, 13, 3201), (2, "Endpoint", 2102, 14, 3202))
"""Each phase: its number, title, the `/rfd implement` comment, its PR, the bot's comment."""


def phase_comment(n: int) -> dict[str, Any]:
    return comment(PHASES[n - 1][4], 12, body(f"life-phase-{n}-opened"))


def implemented_phases() -> list[Interaction]:
    """`/rfd implement` on the tracking issue, once per phase: the phase's one comment (its
    progress, ending in the pull request it opened), the PR, its link on the issue."""
    out: list[Interaction] = []
    tracking = body("life-tracking-merged")
    for n, title, cid, number, own in PHASES:
        branch = f"rfd/045-phase-{n}"
        opened = {
            **pull(number, branch, f"{n}" * 40),
            "title": f"RFD 045, phase {n}: {title}",
            "body": body(f"life-phase-{n}-pr"),
        }
        was = {**TRACKING, "body": tracking}
        tracking = body(f"life-tracking-phase-{n}")
        out += [
            call(
                "GET",
                "/issues/12/comments",
                query="per_page=100",
                reply=[phase_comment(k) for k in range(1, n)],
            ),
            perm("Codertocat", "admin"),
            on_12(cid, "eyes"),
            call(
                "GET", "/pulls", query=f"state=all&head=Codertocat%3Arfd%2F045-phase-{n}", reply=[]
            ),
            call(
                "POST",
                "/issues/12/comments",
                status=201,
                body={"body": body(f"life-phase-{n}-running")},
                reply=comment(own, 12, body(f"life-phase-{n}-running")),
            ),
            call(
                "POST",
                "/pulls",
                status=201,
                reply=opened,
                body={
                    "title": opened["title"],
                    "head": branch,
                    "base": "main",
                    "body": opened["body"],
                },
            ),
            call("GET", "/issues", query=ISSUES_Q, reply=[was]),
            call("GET", "/issues/12", reply=was),
            call("PATCH", "/issues/12", body={"body": tracking}, reply={**was, "body": tracking}),
            call(
                "PATCH",
                f"/issues/comments/{own}",
                body={"body": phase_comment(n)["body"]},
                reply=phase_comment(n),
            ),
            on_12(cid, "rocket"),
        ]
    return out


def finished() -> list[Interaction]:
    """Every phase landed: `/rfd status` on the tracking issue names `/rfd done`, which
    opens the pull request to Implemented (#4)."""
    said = comment(3101, 12, body("life-issue-status"))
    phases = [phase_comment(1), phase_comment(2)]
    pr_4 = {
        **pull(4, DONE_BRANCH, "c" * 40),
        "title": "RFD 045: Implemented",
        "body": body("life-done-pr"),
    }
    opened = call(
        "POST",
        "/pulls",
        status=201,
        reply=pr_4,
        body={
            "title": "RFD 045: Implemented",
            "head": DONE_BRANCH,
            "base": "main",
            "body": body("life-done-pr"),
        },
    )
    lookup = "state=all&head=Codertocat%3Arfd%2F045-implemented"
    return [
        call("GET", "/issues/12/comments", query="per_page=100", reply=phases),
        call("POST", "/issues/12/comments", status=201, body={"body": said["body"]}, reply=said),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[*phases, said]),
        perm("Codertocat", "admin"),
        on_12(2002, "eyes"),
        call("GET", "/pulls", query=lookup, reply=[]),
        opened,
        on_12(2002, "rocket"),
        call(
            "POST",
            "/issues/12/comments",
            status=201,
            body={"body": body("life-done-opened")},
            reply=comment(3102, 12, body("life-done-opened")),
        ),
    ]


def implemented(pr: Thread) -> list[Interaction]:
    """PR 4 merged: its own final state, and PR 2's final state says the RFD went on."""
    final_4 = comment(4950, 4, body("life-status-4-merged"))
    later = comment(STATUS, 2, with_proofs(body("life-status-implemented"), pr.proven))
    relinked = {**TRACKING, "body": body("life-tracking-phase-2")}
    return [
        call("GET", "/pulls/4/files", query="per_page=100&page=1", reply=[diff_entry(RFD)]),
        call("GET", "/issues/4/comments", query="per_page=100", reply=[]),
        call(
            "POST", "/issues/4/comments", status=201, body={"body": final_4["body"]}, reply=final_4
        ),
        *labelled(4, IMPLEMENTED, new=True),
        call("GET", "/issues/12", reply=relinked),
        call("GET", "/issues/2/comments", query="per_page=100", reply=list(pr.comments)),
        call("PATCH", f"/issues/comments/{STATUS}", body={"body": later["body"]}, reply=later),
    ]


def closed_12() -> list[Interaction]:
    """The push of PR 4's merge to main: the tracking issue ticked, relabelled, closed."""
    was = {**TRACKING, "body": body("life-tracking-phase-2")}
    done = {**TRACKING, "body": body("life-tracking-done")}
    return [
        call("GET", "/issues", query=ISSUES_Q, reply=[was]),
        call("GET", "/issues/12", reply=was),
        call("PATCH", "/issues/12", body={"body": done["body"]}, reply=done),
        unlabelled(12, ACCEPTED),
        call("POST", "/issues/12/labels", body=[IMPLEMENTED], reply=[lifecycle_label(IMPLEMENTED)]),
        call(
            "PATCH",
            "/issues/12",
            body={"state": "closed", "state_reason": "completed"},
            reply={**done, "state": "closed", "state_reason": "completed"},
        ),
    ]


def lifecycle() -> list[Interaction]:
    pr = Thread()
    return [
        *discussion(pr),
        *accepted(pr),
        *merged(pr),
        *misplaced(pr),
        *implemented_phases(),
        *finished(),
        *implemented(pr),
        *closed_12(),
    ]


CASSETTES = {L + "test_one_rfd_from_its_first_sign_off_to_implemented": lifecycle()}
