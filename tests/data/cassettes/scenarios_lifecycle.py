"""Cassette of one RFD's life on GitHub (``tests/test_github_lifecycle.py``): the review
label (review 1, the status comment), the author's push (review 1 of an older revision),
`/rfd review` (review 2 finds the author's TODO), `/rfd refine` (one comment, naming the
`/rfd dismiss` that follows), then two reviewers sign off, one raises a concern that holds
acceptance up until she resolves it, a maintainer accepts (the tracking issue #12 opens,
linking the RFD at the PR's head; the ledger records who accepted with whose sign-offs), the
PR is merged (its status comment gets its final state, with the Decision, the tracking issue
now links ``main``), and with every phase done ``/rfd done`` on the tracking issue opens the
pull request to Implemented.

PR 2 is followed from one run to the next by :class:`scenarios_consensus.Thread`.  The bot's
commit shas come from the real runs with fixed git dates; the git blobs of the author's edit
and of the sign-off ledger after each step are computed here, as git and the bot write them.
"""

from __future__ import annotations

from typing import Any

from gh_data import (
    COLLABORATORS,
    call,
    comment,
    commit_item,
    diff_entry,
    issue,
    pull,
    reaction,
    user,
)
from scenarios_bot import (
    ACCEPTED,
    RFD,
    blob_sha,
    body,
    labelled,
    lifecycle_label,
    unlabelled,
    with_proofs,
)
from scenarios_consensus import (
    BRANCH,
    STATUS,
    Thread,
    bot_commit,
    files,
    perm,
    react,
    rockets,
    signed,
)

from tests.github_world import NOW as CLOCK
from tests.github_world import RFD_TEXT

NOW = int(CLOCK)  # a review's file is named by the time it was made
TODO = "A generator yields CSV rows (TODO: the chunk size);"

L = "test_github_lifecycle/"
IMPLEMENTED = "rfd: implemented"
DONE_BRANCH = "rfd/045-implemented"
Interaction = dict[str, Any]
ISSUES_Q = "state=all&sort=created&direction=desc&per_page=100"
ACCEPT_COMMIT = "8e3d25d0626ce0b000be3cde7daac161dde2918f"  # the bot's accept commit
ACCEPTED_RFD = (
    "074abc34d0045fe5eae2218a9bd95a637c5a775e"  # the RFD as accept left it (its git blob)
)
TEAM = "@Codertocat/architects"
CONCERN = "/rfd concern Proxies may buffer the chunked response"
TRACKING = issue(12, "RFD 045: Streaming exports", body("life-tracking-opened"), labels=(ACCEPTED,))


REVIEWED = "docs/rfd/.state/045/reviews/{stamp}.md"
PUSHED = blob_sha(RFD_TEXT.replace("A generator yields CSV rows;", TODO))  # the author's edit
REFINED = "8dc08ee811a9c93e7ac606ffdef5f1c2431f3acd"  # the RFD as refine left it (its git blob)
# the bot's commits of the first days (fixed git dates)
LABEL_REVIEW = "78fe92801738b1eb76d501237730baa8c8873a06"
REVIEW_2 = "934be715a80547edb9c1a5fc7d5ea5a0a8563b94"
REFINE = "603004ff01cb534e64b1a403b7eeef1a844d9190"
DISMISS = "a5fb71a0ec5d06dbe4d08cc8cbe366f1a606cf7c"
AUTHOR_HEAD = "c366a447b01c43ebf5864f858c11fe10c23ff278"  # the author's push


def listing(pr: Thread, reviews: tuple[int, ...]) -> Interaction:
    """The PR's files: the RFD at its head and the reviews on file (stamps)."""
    found = [diff_entry(RFD, sha=pr.rfd)]
    found += [diff_entry(REVIEWED.format(stamp=s)) for s in reviews]
    return call("GET", "/pulls/2/files", query="per_page=100&page=1", reply=found)


def made(pr: Thread, sha: str, what: str, cid: int) -> None:
    pr.commits.append(bot_commit(sha, what, cid))


def posted(pr: Thread, name: str, cid: int) -> Interaction:
    """The bot's comment ``bodies/<name>.md`` on PR 2, which later runs list."""
    return pr.replied(name, cid)


def edited(pr: Thread, cid: int, name: str) -> Interaction:
    """The bot's comment ``cid`` on PR 2 now reads ``bodies/<name>.md``."""
    text = body(name)
    at = next(i for i, c in enumerate(pr.comments) if c["id"] == cid)
    pr.comments[at] = comment(cid, 2, text)
    return call("PATCH", f"/issues/comments/{cid}", body={"body": text}, reply=pr.comments[at])


def first_days(pr: Thread) -> list[Interaction]:
    """The review label, the author's push, `/rfd review`, `/rfd refine`, `/rfd dismiss`."""
    return [*labelled_review(pr), *pushed(pr), *reviewed(pr), *refined(pr), *dismissed(pr)]


def labelled_review(pr: Thread) -> list[Interaction]:
    """Codertocat labels the PR `rfd:review`: the review committed and posted, the status
    comment posted with the PR's lifecycle label, the trigger label taken off."""
    out = [
        perm("Codertocat", "admin"),
        listing(pr, ()),
        call("GET", "/issues/2/comments", query="per_page=100", reply=[]),
        posted(pr, "life-review-1", 951),
        *pr.dashboard("life-status-reviewed", made=LABEL_REVIEW),
        unlabelled(2, "rfd:review"),
    ]
    made(pr, LABEL_REVIEW, "review", 0)
    return out


def pushed(pr: Thread) -> list[Interaction]:
    """The author pushes an edit (a TODO in the design): review 1 is of an older revision."""
    opened = commit_item(AUTHOR_HEAD, user("Codertocat"), "test@example.com", "Test User")
    pr.commits.append(opened)
    pr.rfd = PUSHED
    return [
        listing(pr, (NOW,)),
        call("GET", "/issues/2/comments", query="per_page=100", reply=list(pr.comments)),
        *pr.dashboard("life-status-pushed"),
        edited(pr, 951, "life-review-1-older"),
    ]


def reviewed(pr: Thread) -> list[Interaction]:
    """`/rfd review`: review 2 of the new revision finds the TODO; 🚀, no reply."""
    out = [
        pr.said(991, "Codertocat", "/rfd review"),
        perm("Codertocat", "admin"),
        react("eyes", 991),
        pr.pull(),
        listing(pr, (NOW,)),
        posted(pr, "life-review-2", 952),
        *pr.dashboard("life-status-review-2", made=REVIEW_2),
        react("rocket", 991),
    ]
    made(pr, REVIEW_2, "review", 991)
    return out


def refined(pr: Thread) -> list[Interaction]:
    """`/rfd refine`: one comment, its progress, ends in what changed and what to dismiss."""
    out = [
        pr.said(992, "Codertocat", "/rfd refine"),
        rockets(992),
        perm("Codertocat", "admin"),
        react("eyes", 992),
        pr.pull(),
        listing(pr, (NOW, NOW + 1)),
        posted(pr, "life-refine-start", 953),
        edited(pr, 953, "life-refine-done"),
        *pr.dashboard("life-status-refined", made=REFINE),
        react("rocket", 992),
    ]
    made(pr, REFINE, "refined", 992)
    pr.rfd = REFINED
    return out


def dismissed(pr: Thread) -> list[Interaction]:
    """The `/rfd dismiss` refine named: both reviews folded, 🚀, no reply."""
    out = [
        pr.said(993, "Codertocat", "/rfd dismiss 1 2"),
        rockets(993),
        perm("Codertocat", "admin"),
        react("eyes", 993),
        pr.pull(),
        listing(pr, (NOW, NOW + 1)),
        *pr.dashboard("life-status-dismissed", made=DISMISS),
        edited(pr, 951, "life-review-1-dismissed"),
        edited(pr, 952, "life-review-2-dismissed"),
        react("rocket", 993),
    ]
    made(pr, DISMISS, "dismissed", 993)
    return out


def ledgers() -> tuple[str, ...]:
    """The git blobs of the sign-off ledger after each step of the discussion (hubot's and
    mona's approvals of the refined RFD, mona's concern, its resolution): what the PR's
    file list shows, computed as the bot writes the file."""
    from bot.model import consensus as c

    link = "https://github.com/Codertocat/Hello-World/pull/2#issuecomment-1003"
    steps = [c.approve(c.Ledger(), "045", "hubot", REFINED, CLOCK, reviewer="hubot")]
    steps.append(c.approve(steps[-1], "045", "mona", REFINED, CLOCK, reviewer=TEAM))
    steps.append(c.raise_concern(steps[-1], "mona", CONCERN[len("/rfd concern ") :], link, CLOCK))
    steps.append(c.resolve(steps[-1], "045", 1, "mona"))
    steps.append(c.accept(steps[-1], "hubot", ACCEPTED_RFD, CLOCK, ("hubot", "mona")))
    return tuple(blob_sha(c.dumps(ledger)) for ledger in steps)


def discussion(pr: Thread) -> list[Interaction]:
    """Approve ×2 (mona through her team), a concern, accept refused, resolve."""
    return [
        *signed(
            pr,
            (1001, "hubot", "/rfd approve"),
            "maintain",
            team=False,
            made=(
                "38bd0d95a5b4118128bc075c7ade64b092bd4bc3",
                LEDGERS[0],
            ),
            status="life-status-hubot",
        ),
        *signed(
            pr,
            (1002, "mona", "/rfd approve"),
            "write",
            team=True,
            made=(
                "76078e770c32d8f0f4d6b14af92bc0f8c7e7ec8d",
                LEDGERS[1],
            ),
            status="life-status-mona",
        ),
        *signed(
            pr,
            (1003, "mona", CONCERN),
            "write",
            team=True,
            made=(
                "12c31e2dd46f75a7e1ac911b4d72d3485bd461b7",
                LEDGERS[2],
            ),
            status="life-status-concern",
        ),
        pr.said(1004, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1004),
        pr.pull(),
        files(pr.ledger, pr.rfd),
        pr.listed_commits(),
        react("confused", 1004),
        pr.replied("life-accept-refused", 3004),
        *signed(
            pr,
            (1005, "mona", "/rfd resolve 1"),
            "write",
            team=False,
            made=(
                "db7851f15633554f0f8249ab5588f2410901b9bb",
                LEDGERS[3],
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
        files(pr.ledger, pr.rfd),
        pr.listed_commits(),
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        opened,
        *pr.dashboard("life-status-accepted", made=ACCEPT_COMMIT),
        call("DELETE", "/issues/2/labels/rfd%3A%20discussion", reply=[]),
        *labelled(2, ACCEPTED, new=True),
        react("rocket", 1006),
        pr.replied("life-accepted", 3006, made=ACCEPT_COMMIT),
    ]
    pr.ledger = LEDGERS[4]  # who accepted, with whose sign-offs
    return out


def merged(pr: Thread) -> list[Interaction]:
    """PR 2 merged: its status comment's final state; the tracking issue now links main."""
    final = comment(STATUS, 2, with_proofs(body("life-status-merged"), pr.proven))
    relinked = {**TRACKING, "body": body("life-tracking-merged")}
    return [
        files(pr.ledger, pr.rfd),
        call("GET", "/issues/2/comments", query="per_page=100", reply=list(pr.comments)),
        call("PATCH", f"/issues/comments/{STATUS}", body={"body": final["body"]}, reply=final),
        call("GET", "/issues/12", reply=TRACKING),
        call("PATCH", "/issues/12", body={"body": relinked["body"]}, reply=relinked),
    ]


def merged_2(pr: Thread) -> dict[str, Any]:
    """``GET /pulls/2`` once PR 2 is merged."""
    return {**pull(2, BRANCH, pr.head), "state": "closed", "merged": True}


def misplaced(pr: Thread) -> list[Interaction]:
    """`/rfd implement` on the merged PR 2: it works on the tracking issue, which the answer
    links (no dead end)."""
    return [
        pr.said(1007, "hubot", "/rfd implement"),
        perm("hubot", "maintain"),
        react("eyes", 1007),
        call("GET", "/pulls/2", reply=merged_2(pr)),
        files(pr.ledger, pr.rfd),
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
        COLLABORATORS,  # who may merge it, named in the reply
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
        call("GET", "/pulls/2", reply=merged_2(pr)),  # named there: merged, so it says so
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
        call(
            "POST",
            "/issues/12/labels",
            body={"labels": [IMPLEMENTED]},
            reply=[lifecycle_label(IMPLEMENTED)],
        ),
        call(
            "PATCH",
            "/issues/12",
            body={"state": "closed", "state_reason": "completed"},
            reply={**done, "state": "closed", "state_reason": "completed"},
        ),
    ]


LEDGERS = ledgers()


def lifecycle() -> list[Interaction]:
    pr = Thread()
    return [
        *first_days(pr),
        *discussion(pr),
        *accepted(pr),
        *merged(pr),
        *misplaced(pr),
        *implemented_phases(),
        *finished(),
        *implemented(pr),
        *closed_12(),
    ]


CASSETTES = {L + "test_one_rfd_from_its_first_review_to_implemented": lifecycle()}
