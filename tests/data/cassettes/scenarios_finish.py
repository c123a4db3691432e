"""Cassettes of finishing an RFD (``tests/test_github_finish.py``): ``/rfd done`` on the
tracking issue #12 opens the pull request to Implemented (#4); on phase 2's pull request
(#2, branch ``rfd/045-phase-2``) it links the tracking issue.
"""

from __future__ import annotations

from gh_data import (
    BOT,
    COLLABORATORS,
    NOT_FOUND,
    call,
    comment,
    diff_entry,
    error,
    pull,
    pull_item,
    reaction,
)
from scenarios_bot import (
    ACCEPTED,
    AT_HEAD_12,
    CID,
    CREATED_12,
    FILES,
    IMPLEMENTED,
    ISSUES_Q,
    body,
    labelled,
    lifecycle_label,
    open_pull_lookup,
    perm,
    react,
    reply,
)

from bot.model.status import label_style

F = "test_github_finish/"
NO_COMMENTS_12 = call("GET", "/issues/12/comments", query="per_page=100", reply=[])
NO_COMMENTS_2 = call("GET", "/issues/2/comments", query="per_page=100", reply=[])
BRANCH = "rfd/045-implemented"
LOOKUP = "state=all&head=Codertocat%3Arfd%2F045-implemented"
PR_4 = pull(4, BRANCH, "c" * 40)
PR_4.update(title="RFD 045: Implemented", body=body("done-pr"))
OPEN_PR_4 = call(
    "POST",
    "/pulls",
    status=201,
    reply=PR_4,
    body={"title": "RFD 045: Implemented", "head": BRANCH, "base": "main", "body": body("done-pr")},
)
PHASE_PR = pull(2, "rfd/045-phase-2", "d" * 40)
PHASE_PR.update(title="RFD 045, phase 2: Endpoint")
PHASE_FILES = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry("docs/rfd/.state/045/phases/2.md")],
)
TRACKING = {**CREATED_12, "labels": CREATED_12["labels"]}

CASSETTES = {
    F + "test_done_on_the_tracking_issue_opens_the_pull_request_to_implemented": [
        NO_COMMENTS_12,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls", query=LOOKUP, reply=[]),
        OPEN_PR_4,
        COLLABORATORS,  # who may merge it, named in the reply
        react("rocket"),
        reply("done-issue-opened", number=12),
    ],
    F + "test_done_again_on_the_tracking_issue_links_the_pull_request_it_opened": [
        NO_COMMENTS_12,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls", query=LOOKUP, reply=[pull_item(4, BRANCH, "c" * 40)]),
        call(  # the token may not see them: 404, as GitHub documents it (a 403 reads the same)
            "GET",
            "/collaborators",
            query="permission=push&per_page=100",
            status=404,
            reply=NOT_FOUND,
        ),
        react("rocket"),
        reply("done-issue-exists", number=12),
    ],
    F + "test_done_with_a_phase_missing_says_which_and_opens_nothing": [
        NO_COMMENTS_12,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls", query=LOOKUP, reply=[]),
        call("GET", "/pulls", query=open_pull_lookup("rfd/045-phase-2"), reply=[]),
        react("confused"),
        reply("done-issue-not-yet", number=12),
    ],
    F + "test_done_on_a_phase_pull_request_links_the_tracking_issue": [
        NO_COMMENTS_2,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls/2", reply=PHASE_PR),  # its branch names the RFD, main its issue
        react("confused"),
        reply("done-phase-pr"),
    ],
}


def final(name: str) -> dict[str, object]:
    """The status comment (950) of PR 2 written over with its final state ``name``."""
    return call(
        "PATCH",
        "/issues/comments/950",
        body={"body": body(name)},
        reply=comment(950, 2, body(name)),
    )


RELINKED = [  # the merge: the tracking issue now links the RFD on the default branch
    call("GET", "/issues/12", reply=AT_HEAD_12),
    call(
        "PATCH",
        "/issues/12",
        body={"body": body("tracking-relinked")},
        reply={**CREATED_12, "body": body("tracking-relinked")},
    ),
]
OPENED = call(
    "GET",
    "/issues/2/comments",
    query="per_page=100",
    reply=[comment(950, 2, body("status-opened"))],
)
CASSETTES |= {
    F + "test_a_merged_rfd_pr_says_where_the_rfd_lives_on": [
        FILES,
        OPENED,
        final("closed-merged"),
        *labelled(2, ACCEPTED),
        *RELINKED,
    ],
    F + "test_a_closed_rfd_pr_says_the_rfd_is_not_on_main": [
        FILES,
        OPENED,
        final("closed-unmerged"),
    ],
}

ROCKET = {**reaction("rocket"), "user": BOT}
CASSETTES[F + "test_a_quiet_command_answered_by_its_rocket_is_not_run_again"] = [
    NO_COMMENTS_2,
    call(
        "GET",
        "/issues/comments/492700400/reactions",
        query="content=rocket&per_page=100",
        reply=[ROCKET],
    ),
]

STYLE = label_style(ACCEPTED) or ("", "")
LABEL_DOC = "https://docs.github.com/rest/issues/labels#update-a-label"
CASSETTES[F + "test_a_label_colour_that_fails_is_a_warning_not_a_failed_run"] = [
    FILES,
    OPENED,
    final("closed-merged"),
    call(
        "POST",
        "/issues/2/labels",
        body={"labels": [ACCEPTED]},
        reply=[lifecycle_label(ACCEPTED, new=True)],
    ),
    call(
        "PATCH",
        "/labels/rfd%3A%20accepted",
        body={"color": STYLE[0], "description": STYLE[1]},
        status=403,
        reply=error("Resource not accessible by integration", LABEL_DOC, 403),
    ),
    *RELINKED,
]

MERGED_PR = {**pull(2, "rfd-045-streaming-exports", "e" * 40), "state": "closed", "merged": True}
CASSETTES[F + "test_status_on_a_merged_pr_keeps_its_final_state"] = [
    OPENED,
    call("GET", "/pulls/2", reply=MERGED_PR),
    FILES,
    final("closed-merged"),
    *labelled(2, ACCEPTED),
    *RELINKED,
    reply("slash-status-final"),
]

# A command where it does not work answers with a link to where it does.
R = "test_github_redirect/"
CASSETTES[R + "test_implement_on_the_merged_rfd_pr_links_the_tracking_issue"] = [
    NO_COMMENTS_2,
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls/2", reply=MERGED_PR),
    FILES,
    react("confused"),
    reply("redirect-implement-merged"),
]
CASSETTES[R + "test_implement_on_the_closed_pr_of_an_unaccepted_rfd_says_where_it_is_accepted"] = [
    NO_COMMENTS_2,
    perm("Codertocat", "admin"),
    react("eyes"),
    call(
        "GET",
        "/pulls/2",
        reply={**pull(2, "rfd-045-streaming-exports", "e" * 40), "state": "closed"},
    ),
    FILES,
    call("GET", "/issues", query=ISSUES_Q, reply=[]),  # no tracking issue: never accepted
    react("confused"),
    reply("redirect-implement-closed"),
]
CASSETTES[
    R + "test_implement_on_the_merged_pr_of_an_unaccepted_rfd_says_where_it_is_accepted_now"
] = [
    NO_COMMENTS_2,
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls/2", reply=MERGED_PR),
    FILES,
    call("GET", "/issues", query=ISSUES_Q, reply=[]),  # no tracking issue: never accepted
    react("confused"),
    reply("redirect-implement-merged-unaccepted"),
]
CASSETTES[R + "test_approve_on_the_closed_pr_of_an_rfd_that_lives_only_there_says_to_reopen_it"] = [
    NO_COMMENTS_2,
    call(  # approve is quiet: a rocket would say it was answered already
        "GET", f"/issues/comments/{CID}/reactions", query="content=rocket&per_page=100", reply=[]
    ),
    perm("Codertocat", "admin"),
    react("eyes"),
    call(
        "GET",
        "/pulls/2",
        reply={**pull(2, "rfd-045-streaming-exports", "e" * 40), "state": "closed"},
    ),
    FILES,
    call("GET", "/issues", query=ISSUES_Q, reply=[]),  # its tracking issue, if any: none
    react("confused"),
    reply("redirect-approve-closed-only-here"),
]
CASSETTES[R + "test_review_on_the_tracking_issue_links_the_open_rfd_pr"] = [
    NO_COMMENTS_12,
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls/2", reply=pull(2, "rfd-045-streaming-exports", "e" * 40)),
    react("confused"),
    reply("redirect-review-issue", number=12),
]
CASSETTES[R + "test_review_on_the_closed_pr_links_the_rfd_where_another_pr_brought_it"] = [
    call(  # its status comment says PR 5 brought the RFD to main: read, no other request
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[comment(950, 2, body("closed-brought"))],
    ),
    perm("Codertocat", "admin"),
    react("eyes"),
    call(
        "GET",
        "/pulls/2",
        reply={**pull(2, "rfd-045-streaming-exports", "e" * 40), "state": "closed"},
    ),
    FILES,
    react("confused"),
    reply("redirect-review-closed"),
]
ACCEPTED_ON_5 = body("tracking-relinked").replace("[#2](", "[#5](").replace("/pull/2)", "/pull/5)")
CASSETTES[R + "test_review_on_the_closed_pr_names_the_pr_the_rfd_was_accepted_on"] = [
    call(  # its status comment names no pull request that brought the RFD to main
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[comment(950, 2, body("closed-on-main"))],
    ),
    perm("Codertocat", "admin"),
    react("eyes"),
    call(
        "GET",
        "/pulls/2",
        reply={**pull(2, "rfd-045-streaming-exports", "e" * 40), "state": "closed"},
    ),
    FILES,
    call("GET", "/issues/12", reply={**CREATED_12, "body": ACCEPTED_ON_5}),  # "Discussed in #5"
    react("confused"),
    reply("redirect-review-closed-accepted-on-5"),
]
PHASE_PR_5 = {**pull(5, "rfd/045-phase-2", "d" * 40), "title": "RFD 045, phase 2: Endpoint"}
CASSETTES[R + "test_dismiss_on_a_phase_pr_links_the_rfd_on_main_and_its_issue"] = [
    call("GET", "/issues/5/comments", query="per_page=100", reply=[]),
    call("GET", f"/issues/comments/{CID}/reactions", query="content=rocket&per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls/5", reply=PHASE_PR_5),
    call(
        "GET",
        "/pulls/5/files",
        query="per_page=100&page=1",
        reply=[diff_entry("docs/rfd/.state/045/phases/2.md")],
    ),
    call("GET", "/issues/12", reply={**CREATED_12, "body": body("tracking-relinked")}),
    call("GET", "/pulls/2", reply=MERGED_PR),
    react("confused"),
    reply("redirect-dismiss-phase", number=5),
]

# [implement] finish_in_last_phase: phase 2 (the last) is implemented; its branch also marks
# the RFD Implemented and its pull request closes the tracking issue.
PR_P2 = {
    **pull(3, "rfd/045-phase-2", "b" * 40),
    "title": "RFD 045, phase 2: Endpoint",
    "body": body("finish-phase-pr"),
}
WAS_12 = {**CREATED_12, "body": body("finish-phase-tracking-before")}
CASSETTES[
    "test_github_finish_phase/test_the_last_phase_pr_marks_the_rfd_implemented_and_closes_the_issue"
] = [
    NO_COMMENTS_12,
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls", query="state=all&head=Codertocat%3Arfd%2F045-phase-2", reply=[]),
    reply("finish-phase-running", cid=970, number=12),
    call(
        "POST",
        "/pulls",
        status=201,
        reply=PR_P2,
        body={
            "title": "RFD 045, phase 2: Endpoint",
            "head": "rfd/045-phase-2",
            "base": "main",
            "body": body("finish-phase-pr"),
        },
    ),
    call("GET", "/issues", query=ISSUES_Q, reply=[WAS_12]),
    call("GET", "/issues/12", reply=WAS_12),
    call(
        "PATCH",
        "/issues/12",
        body={"body": body("finish-phase-tracking")},
        reply={**WAS_12, "body": body("finish-phase-tracking")},
    ),
    call(
        "PATCH",
        "/issues/comments/970",
        body={"body": body("finish-phase-opened")},
        reply=comment(970, 12, body("finish-phase-opened")),
    ),
    react("rocket"),
]
PHASE_2_OPEN = call(
    "GET",
    "/pulls",
    query=open_pull_lookup("rfd/045-phase-2"),
    reply=[pull_item(3, "rfd/045-phase-2", "b" * 40)],
)
PR_3_FILES = call(  # phase 2's summary, and the RFD marked Implemented
    "GET",
    "/pulls/3/files",
    query="per_page=100&page=1",
    reply=[
        diff_entry("docs/rfd/.state/045/phases/2.md"),
        diff_entry("docs/rfd/045-streaming-exports.md", "modified"),
    ],
)
FP = "test_github_finish_phase/"
CASSETTES[FP + "test_status_while_the_last_phase_pr_is_open_says_to_merge_it_not_done"] = [
    NO_COMMENTS_12,
    PHASE_2_OPEN,
    PR_3_FILES,
    reply("finish-phase-status", number=12),
]
CASSETTES[FP + "test_done_while_the_last_phase_pr_is_open_links_it_and_opens_nothing"] = [
    NO_COMMENTS_12,
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls", query=LOOKUP, reply=[]),
    PHASE_2_OPEN,
    PR_3_FILES,
    react("confused"),
    reply("finish-phase-done-not-yet", number=12),
]
CASSETTES[F + "test_status_while_a_phase_pr_is_open_says_to_merge_it_then_done"] = [
    NO_COMMENTS_12,
    call(
        "GET",
        "/pulls",
        query=open_pull_lookup("rfd/045-phase-2"),
        reply=[pull_item(2, "rfd/045-phase-2", "d" * 40)],
    ),
    PHASE_FILES,
    reply("done-issue-status-phase-open", number=12),
]
CASSETTES[R + "test_status_on_a_phase_pr_links_the_tracking_issue"] = [
    call("GET", "/issues/5/comments", query="per_page=100", reply=[]),
    call("GET", "/pulls/5", reply=PHASE_PR_5),
    call(
        "GET",
        "/pulls/5/files",
        query="per_page=100&page=1",
        reply=[diff_entry("docs/rfd/.state/045/phases/2.md")],
    ),
    reply("redirect-status-phase", number=5),
]

# The discussion pull request (2, named by tracking issue #12) closed WITHOUT merging while
# the RFD reached main another way: a new pull request (5) or a push.
C = "test_github_closed_pr/"
CLOSED_2 = {**pull(2, "rfd-045-streaming-exports", "e" * 40), "state": "closed", "merged": False}
TRACKING_ON_MAIN = {**CREATED_12, "body": body("tracking-relinked")}


def closed_2(earlier: str, now: str) -> list[dict[str, object]]:
    """PR 2's status comment (950), which read ``bodies/<earlier>.md``, now reads ``now``."""
    return [
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[comment(950, 2, body(earlier))],
        ),
        final(now),
    ]


def merged_pr(
    number: int, status: str, label: str, final_body: str, patch: str | None = None
) -> list[dict[str, object]]:
    """PR ``number`` merged, changing the RFD (``status``: as GitHub lists the file, with its
    hunks ``patch``, else the example's): its own status comment (the bot had none there
    yet) says merged, as before, and its label."""
    own = comment(960 + number, number, body(final_body))
    return [
        call(
            "GET",
            f"/pulls/{number}/files",
            query="per_page=100&page=1",
            reply=[diff_entry("docs/rfd/045-streaming-exports.md", status, patch=patch)],
        ),
        call("GET", f"/issues/{number}/comments", query="per_page=100", reply=[]),
        call(
            "POST", f"/issues/{number}/comments", status=201, body={"body": own["body"]}, reply=own
        ),
        *labelled(number, label),
    ]


CASSETTES |= {
    C + "test_the_merge_of_a_new_pr_says_the_discussion_pr_was_closed_not_merged": [
        *merged_pr(5, "added", ACCEPTED, "closed-5-merged"),
        call("GET", "/issues/12", reply=AT_HEAD_12),  # the RFD linked at PR 2's head
        call("GET", "/pulls/2", reply=CLOSED_2),
        call(
            "PATCH",
            "/issues/12",
            body={"body": body("tracking-relinked")},
            reply=TRACKING_ON_MAIN,
        ),
        *closed_2("closed-unmerged", "closed-brought"),
    ],
    C + "test_closing_the_discussion_pr_after_a_push_to_main_says_where_the_rfd_is": [
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[comment(950, 2, body("status-opened"))],
        ),
        final("closed-on-main"),
        *labelled(2, ACCEPTED),
        call("GET", "/issues/12", reply=AT_HEAD_12),
        call(
            "PATCH",
            "/issues/12",
            body={"body": body("tracking-relinked")},
            reply=TRACKING_ON_MAIN,
        ),
    ],
}
# The RFD on main as the test world has it (tests/test_github_closed_pr.py, ``on_main``):
# PR 4 changed its status; PR 7 a sentence of its design, not its status.
IMPLEMENTED_BY_4 = "\n".join(
    [
        "@@ -1,5 +1,5 @@",
        " # RFD 045: Streaming exports",
        " ",
        "-- **Status**: Accepted",
        "+- **Status**: Implemented",
        " - **Tracking Issue**: #12",
        " - **Category**: Design",
    ]
)
EDITED_BY_7 = "\n".join(
    [
        "@@ -17,3 +17,3 @@ Reports over 100k rows time out and exhaust the worker's memory.",
        " ## Design",
        " ",
        "-A generator yields rows; the endpoint streams them.",
        "+A generator yields CSV rows; the endpoint streams them with chunked encoding.",
    ]
)
for earlier, now in (("brought by PR 5", "closed-brought"), ("pushed", "closed-on-main")):
    CASSETTES[
        C + f"test_a_later_transition_keeps_the_discussion_pr_closed_not_merged[{earlier}]"
    ] = [
        *merged_pr(4, "modified", IMPLEMENTED, "closed-4-merged", IMPLEMENTED_BY_4),
        call("GET", "/issues/12", reply=TRACKING_ON_MAIN),
        call("GET", "/pulls/2", reply=CLOSED_2),
        *closed_2(now, f"{now}-implemented"),
    ]
for case, patch, now in (
    ("its diff", EDITED_BY_7, "closed-brought-edited"),
    ("a diff that no longer fits", None, "closed-brought-edited-now"),  # the example's hunks
):
    CASSETTES[C + f"test_an_edit_that_keeps_the_status_is_not_called_a_transition[{case}]"] = [
        *merged_pr(7, "modified", ACCEPTED, "closed-7-merged", patch),
        call("GET", "/issues/12", reply=TRACKING_ON_MAIN),
        call("GET", "/pulls/2", reply=CLOSED_2),
        *closed_2("closed-brought", now),
    ]
CASSETTES[C + "test_status_on_the_closed_discussion_pr_keeps_the_pr_that_brought_the_rfd"] = [
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[comment(950, 2, body("closed-brought"))],
    ),
    call("GET", "/pulls/2", reply=CLOSED_2),
    FILES,
    final("closed-brought-refreshed"),
    *labelled(2, IMPLEMENTED),
    call("GET", "/issues/12", reply=TRACKING_ON_MAIN),  # names PR 2: its links are on main
    reply("slash-status-final"),
]
CASSETTES[C + "test_a_discussion_pr_github_does_not_answer_for_is_a_warning"] = [
    *merged_pr(4, "modified", IMPLEMENTED, "closed-4-merged"),
    call("GET", "/issues/12", reply=TRACKING_ON_MAIN),
    call("GET", "/pulls/2", status=404, reply=NOT_FOUND),
]
