"""Cassettes of ``tests/test_github_legacy.py``: an RFD Accepted before the bot (no plan.json,
no tracking issue) taken on by ``/rfd accept`` on a pull request that changes it."""

from __future__ import annotations

from gh_data import COLLABORATORS, call, comment, diff_entry, issue, pull, reaction
from scenarios_bot import (
    ACCEPTED,
    BRANCH,
    COMMITS,
    HEAD,
    ISSUES_Q,
    NO_COMMENTS,
    RFD,
    RFD_TEXT,
    blob_sha,
    body,
    labelled,
    perm,
    reply,
    status_posted,
    with_proofs,
)

EDITED = RFD_TEXT.replace("Status**: Discussion", "Status**: Accepted").replace(
    "Excel output.", "Excel output, and PDF."
)
FILES = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry(RFD, sha=blob_sha(EDITED))],
)
PULL = call("GET", "/pulls/2", reply=pull(2, BRANCH, HEAD))
TAKEN_ON = "aa5f0d44ddc905a9e8c5648222206d011192c7fc"
OPENED = issue(12, "RFD 045: Streaming exports", body("tracking-legacy"), labels=(ACCEPTED,))
OPEN_TRACKING = call(
    "POST",
    "/issues",
    status=201,
    body={"title": "RFD 045: Streaming exports", "body": OPENED["body"], "labels": [ACCEPTED]},
    reply=OPENED,
)

L = "test_github_legacy/"
CID = 492700400


def react(content: str, cid: int = CID) -> dict[str, object]:
    return call(
        "POST",
        f"/issues/comments/{cid}/reactions",
        body={"content": content},
        status=201,
        reply=reaction(content),
    )


def status_comment_now() -> dict[str, object]:
    """The status comment the first ``/rfd accept`` posted."""
    return comment(950, 2, with_proofs(body("status-legacy-accepted"), [TAKEN_ON]))


CASSETTES = {
    L + "test_accept_takes_on_an_rfd_accepted_before_the_bot": [
        COLLABORATORS,
        NO_COMMENTS,
        perm("hubot", "maintain"),
        react("eyes"),
        PULL,
        FILES,
        COMMITS,
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        OPEN_TRACKING,
        *status_posted("status-legacy-accepted", ACCEPTED, new=True, made=TAKEN_ON),
        react("rocket"),
        reply("legacy-accept"),
    ],
}
FIRST = CASSETTES[L + "test_accept_takes_on_an_rfd_accepted_before_the_bot"]
SECOND = 492700401
CASSETTES |= {
    L + "test_accept_again_opens_no_second_tracking_issue": [
        *FIRST,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[status_comment_now(), comment(960, 2, body("legacy-accept"))],
        ),
        perm("hubot", "maintain"),
        react("eyes", SECOND),
        PULL,
        FILES,
        react("rocket", SECOND),
        reply("legacy-accept-again", cid=961),
    ],
    L + "test_a_reader_cannot_take_on_an_accepted_rfd": [
        NO_COMMENTS,
        perm("octocat", "read"),
        react("confused"),
        reply("legacy-refused"),
    ],
    L + "test_an_rfd_marked_accepted_on_the_pull_request_only_is_not_taken_on": [
        NO_COMMENTS,
        perm("hubot", "maintain"),
        react("eyes"),
        PULL,
        FILES,
        react("confused"),
        reply("legacy-not-on-main"),
    ],
}

MERGED = {**pull(2, BRANCH, "e" * 40), "state": "closed", "merged": True}
CASSETTES |= {
    L + "test_implement_on_the_pull_request_names_accept": [
        NO_COMMENTS,
        perm("hubot", "maintain"),
        react("eyes"),
        PULL,
        FILES,
        call("GET", "/issues", query=ISSUES_Q, reply=[]),  # no tracking issue
        react("confused"),
        reply("legacy-implement-open"),
    ],
    L + "test_implement_on_a_merged_pull_request_names_accept": [
        NO_COMMENTS,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls/2", reply=MERGED),
        FILES,
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        react("confused"),
        reply("legacy-implement-merged"),
    ],
}

for case, name in (("accepted-on-main", "on-main"), ("accepted-here-only", "here-only")):
    CASSETTES[L + f"test_the_status_comment_names_the_way_on[{case}]"] = [
        COLLABORATORS,
        NO_COMMENTS,
        PULL,
        FILES,
        *status_posted(f"status-legacy-{name}", ACCEPTED, new=True),
        reply("slash-status"),
    ]

PLANLESS = EDITED.split("## Implementation Plan")[0] + "## Implementation Plan\n\nLater.\n"
CASSETTES[L + "test_accept_of_an_rfd_without_a_plan_says_what_to_write"] = [
    NO_COMMENTS,
    perm("hubot", "maintain"),
    react("eyes"),
    PULL,
    call(
        "GET",
        "/pulls/2/files",
        query="per_page=100&page=1",
        reply=[diff_entry(RFD, sha=blob_sha(PLANLESS))],
    ),
    COMMITS,
    react("confused"),
    reply("legacy-no-plan"),
]

RFC_PATH = "text/0011-requests-for-discussion.md"
RFC_BODY = body("tracking-legacy-rfc")
RFC_ISSUE = issue(12, "RFD 0011: Requests for Discussion", RFC_BODY, labels=(ACCEPTED,))
RFC_MADE = "9e29ba6849868162ed9625b8b48cb05d39836e1b"


def rfc_files() -> dict[str, object]:
    from tests.test_github_legacy import RFC_TEXT

    edited = RFC_TEXT.replace("Users ask.", "Users ask for it.")
    return call(
        "GET",
        "/pulls/2/files",
        query="per_page=100&page=1",
        reply=[diff_entry(RFC_PATH, sha=blob_sha(edited))],
    )


CASSETTES[L + "test_an_rfc_accepted_before_the_bot_is_taken_on"] = [
    COLLABORATORS,
    NO_COMMENTS,
    perm("hubot", "maintain"),
    react("eyes"),
    PULL,
    rfc_files(),
    COMMITS,
    call("GET", "/issues", query=ISSUES_Q, reply=[]),
    call(
        "POST",
        "/issues",
        status=201,
        body={"title": "RFD 0011: Requests for Discussion", "body": RFC_BODY, "labels": [ACCEPTED]},
        reply=RFC_ISSUE,
    ),
    *status_posted("status-legacy-rfc", ACCEPTED, new=True, made=RFC_MADE),
    react("rocket"),
    reply("legacy-accept-rfc"),
]

LABEL_MADE = "fc8df4582e8ab4e0545b9655ee57c144ef782bd6"
LABEL_STATUS = with_proofs(
    body("status-legacy-accepted")
    .replace(TAKEN_ON, LABEL_MADE)
    .replace(TAKEN_ON[:12], LABEL_MADE[:12]),
    [LABEL_MADE],
)
CASSETTES[L + "test_the_accept_label_takes_it_on_too"] = [
    COLLABORATORS,
    perm("hubot", "maintain"),
    FILES,
    COMMITS,
    call("GET", "/issues", query=ISSUES_Q, reply=[]),
    OPEN_TRACKING,
    NO_COMMENTS,
    call(
        "POST",
        "/issues/2/comments",
        body={"body": LABEL_STATUS},
        status=201,
        reply=comment(950, 2, LABEL_STATUS),
    ),
    *labelled(2, ACCEPTED, new=True),
    reply("legacy-accept-label"),
    call("DELETE", "/issues/2/labels/rfd%3Aaccept", reply=[]),
]

# An RFC proposal (text/0000-slug.md, added by pull request #2) numbered by `/rfd accept`.
PROPOSAL = "text/0000-cold-storage-tier.md"
PROPOSAL_BODY = body("tracking-proposal-rfc")
PROPOSAL_ISSUE = issue(12, "RFD 0002: Cold storage tier", PROPOSAL_BODY, labels=(ACCEPTED,))
PROPOSAL_MADE = "7a53b52006c17afff79ae407a1697df60fd2b917"


def proposal_files() -> dict[str, object]:
    from tests.test_github_legacy import PROPOSAL_TEXT

    return call(
        "GET",
        "/pulls/2/files",
        query="per_page=100&page=1",
        reply=[diff_entry(PROPOSAL, sha=blob_sha(PROPOSAL_TEXT))],
    )


CASSETTES[L + "test_accept_of_an_rfc_proposal_gives_it_the_pull_requests_number"] = [
    COLLABORATORS,
    NO_COMMENTS,
    perm("hubot", "maintain"),
    react("eyes"),
    PULL,
    proposal_files(),
    COMMITS,
    call("GET", "/issues", query=ISSUES_Q, reply=[]),
    call(
        "POST",
        "/issues",
        status=201,
        body={"title": "RFD 0002: Cold storage tier", "body": PROPOSAL_BODY, "labels": [ACCEPTED]},
        reply=PROPOSAL_ISSUE,
    ),
    *status_posted("status-proposal-rfc", ACCEPTED, new=True, made=PROPOSAL_MADE),
    react("rocket"),
    reply("accept-proposal-rfc"),
]


def two_proposals_files() -> dict[str, object]:
    from tests.test_github_legacy import PROPOSAL_TEXT, WARM, WARM_TEXT

    return call(
        "GET",
        "/pulls/2/files",
        query="per_page=100&page=1",
        reply=[
            diff_entry(PROPOSAL, sha=blob_sha(PROPOSAL_TEXT)),
            diff_entry(WARM, sha=blob_sha(WARM_TEXT)),
        ],
    )


CASSETTES[L + "test_a_pull_request_adding_two_rfc_proposals_is_refused"] = [
    NO_COMMENTS,
    perm("hubot", "maintain"),
    react("eyes"),
    PULL,
    two_proposals_files(),
    react("confused"),
    reply("accept-two-proposals"),
]
