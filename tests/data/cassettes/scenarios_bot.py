"""Cassettes of the bot's end-to-end tests (one event through ``rfd bot`` each)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from urllib.parse import quote, urlencode

from gh_data import (
    API,
    BOT,
    COLLABORATORS,
    NOT_FOUND,
    REPO,
    call,
    comment,
    commit_item,
    content_file,
    diff_entry,
    issue,
    label,
    permission,
    pull,
    pull_item,
    reaction,
    user,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bot.model.status import AUTO_COLOR, label_style
from tests.github_world import RFD_TEXT, UNPLANNED

RFD = "docs/rfd/045-streaming-exports.md"
BODIES = Path(__file__).resolve().parent / "bodies"


def body(name: str) -> str:
    """A comment body the bot posts, kept as a reviewable markdown snapshot."""
    return (BODIES / f"{name}.md").read_text(encoding="utf-8")


# The bot's commits on PR 2 (fixed git dates), named by the status comment it writes after
REVIEW_COMMIT = "cb94cb3376633806c370606a362f10e5cc947791"
DISMISS_COMMIT = "b04fada9c0c6fde203f657d2eab655a665909933"
DISMISS_SOME_COMMIT = "c617e0ebb598393cc38f39720c25eb88161808bb"
ACCEPT_COMMIT = "27af044ecbe4670db1ef3a61aa7cd33afe8f8d52"
DONE_COMMIT = "5093036ac2fa31e68672b0682780b14c223cc15d"
REFINE_COMMIT = "6196c313dfb8daa5fb8a4a7db15879ed1563f366"
LABEL_REVIEW_COMMIT = "e3050aab2f9522d02722e863c19260102c219425"  # rfd:review
FINDINGS_COMMIT = "17ae51e1a664a7152065cf48780f9cb321f19e90"
INLINE_COMMIT = "1fbd84124436fad5327b874d627ea152dc7eefcc"
LABEL_ACCEPT_COMMIT = "a3687f46a6c3e957ceb5b9a9f0f583abc22b5148"  # rfd:accept


def with_proofs(text: str, shas: list[str]) -> str:
    """``text`` (a comment opening with its marker) naming the bot's commits ``shas`` in its
    leading markers: the proof that the bot made them."""
    mark, _, rest = text.partition("\n")
    return "\n".join([mark, *(f"<!-- rfd-bot:commit:{sha} -->" for sha in shas), rest])


def lifecycle_label(name: str, *, new: bool = False) -> dict[str, object]:
    """A lifecycle label as GitHub answers it: grey and bare when labelling just created it."""
    found = label_style(name)
    assert found is not None
    color, description = (AUTO_COLOR, None) if new else found
    url = f"{API}/repos/{REPO}/labels/{quote(name, safe='')}"
    return {**label(name), "url": url, "color": color, "description": description}


def labelled(number: int, *names: str, new: bool = False) -> list[dict[str, object]]:
    """#``number`` given lifecycle labels; one created by it is given its colour once."""
    calls = [
        call(
            "POST",
            f"/issues/{number}/labels",
            body={"labels": list(names)},
            reply=[lifecycle_label(n, new=new) for n in names],
        )
    ]
    color_of = {n: label_style(n) for n in names}
    return calls + [
        call(
            "PATCH",
            f"/labels/{quote(n, safe='')}",
            body={"color": color_of[n][0], "description": color_of[n][1]},  # type: ignore[index]
            reply=lifecycle_label(n),
        )
        for n in names
        if new
    ]


def unlabelled(number: int, name: str) -> dict[str, object]:
    return call("DELETE", f"/issues/{number}/labels/{quote(name, safe='')}", reply=[])


DISCUSSION, ACCEPTED = "rfd: discussion", "rfd: accepted"


def blob_sha(text: str) -> str:
    """The git blob sha of ``text``: what GitHub lists as a changed file's ``sha``."""
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


RFD_BLOB = blob_sha(RFD_TEXT)
"""The PR's RFD as GitHub lists it: ``sha`` is the file's git blob."""
FILES = call(
    "GET", "/pulls/2/files", query="per_page=100&page=1", reply=[diff_entry(RFD, sha=RFD_BLOB)]
)
PR_COMMIT = commit_item("1" * 40, user("Codertocat"), "test@example.com", "Test User")
COMMITS = call("GET", "/pulls/2/commits", query="per_page=100&page=1", reply=[PR_COMMIT])
NO_COMMENTS = call("GET", "/issues/2/comments", query="per_page=100", reply=[])


def status_comment(cid: int = 950) -> dict[str, object]:
    return comment(cid, 2, body("status-opened"))


def open_pull_lookup(branch: str) -> str:
    """The query that looks for the open pull request from ``branch``."""
    return f"state=open&head=Codertocat%3A{branch.replace('/', '%2F')}"


S = "test_github_status_comment/"
CASSETTES = {
    S + "test_opened_posts_one_status_comment": [
        COLLABORATORS,
        FILES,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("status-opened")},
            status=201,
            reply=status_comment(),
        ),
        *labelled(2, DISCUSSION, new=True),  # the first PR to use the label creates it
    ],
    S + "test_the_status_comment_says_which_commit_it_is_for_as_a_link": [
        COLLABORATORS,
        FILES,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("status-opened")},
            status=201,
            reply=status_comment(),
        ),
        *labelled(2, DISCUSSION, new=True),
    ],
    S + "test_who_may_is_described_when_github_lists_no_collaborators": [
        call(  # the token may not see them: 404, as GitHub documents it (a 403 reads the same)
            "GET",
            "/collaborators",
            query="permission=push&per_page=100",
            status=404,
            reply=NOT_FOUND,
        ),
        FILES,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("status-opened-unnamed")},
            status=201,
            reply=comment(950, 2, body("status-opened-unnamed")),
        ),
        *labelled(2, DISCUSSION, new=True),
    ],
    S + "test_redelivered_opened_writes_nothing": [
        COLLABORATORS,
        FILES,
        call("GET", "/issues/2/comments", query="per_page=100", reply=[status_comment()]),
    ],
    S + "test_pr_without_rfds_is_left_alone": [
        call(
            "GET",
            "/pulls/2/files",
            query="per_page=100&page=1",
            reply=[diff_entry("src/app.py", "modified")],
        ),
    ],
}
_ = (issue, permission, reaction, user)

R = "test_github_review_label/"
ADMIN = call("GET", "/collaborators/Codertocat/permission", reply=permission("Codertocat", "admin"))
STATUS_ONLY = call("GET", "/issues/2/comments", query="per_page=100", reply=[status_comment()])
UNLABEL = call("DELETE", "/issues/2/labels/rfd%3Areview", reply=[])


LABELED_AT = "2019-05-15T15:20:35Z"  # pull_request.updated_at of the labeled payloads
AFTER, BEFORE = "2019-05-15T15:20:41Z", "2019-05-14T09:00:00Z"


def answered(name: str, cid: int, updated: str) -> dict[str, object]:
    """The bot's comment ``name`` on PR 2, last written at ``updated``."""
    return {**comment(cid, 2, body(name)), "created_at": updated, "updated_at": updated}


def review_comment(cid: int = 951) -> dict[str, object]:
    return comment(cid, 2, body("review-offline"))


CASSETTES |= {
    R + "test_review_is_committed_posted_and_label_removed": [
        COLLABORATORS,
        ADMIN,
        FILES,
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("review-offline")},
            status=201,
            reply=review_comment(),
        ),
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": with_proofs(body("status-after-review"), [LABEL_REVIEW_COMMIT])},
            reply=comment(950, 2, with_proofs(body("status-after-review"), [LABEL_REVIEW_COMMIT])),
        ),
        *labelled(2, DISCUSSION),
        UNLABEL,
    ],
    R + "test_redelivered_label_writes_nothing": [
        ADMIN,
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[status_comment(), answered("review-offline", 951, AFTER)],
        ),
    ],
    R + "test_reader_is_refused_with_a_reason": [
        call("GET", "/collaborators/octocat/permission", reply=permission("octocat", "read")),
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("refused-reader")},
            status=201,
            reply=comment(952, 2, body("refused-reader")),
        ),
        UNLABEL,
    ],
    R + "test_bot_sender_is_refused": [
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("refused-bot")},
            status=201,
            reply=comment(952, 2, body("refused-bot")),
        ),
        UNLABEL,
    ],
    R + "test_fork_without_key_posts_but_does_not_commit": [
        COLLABORATORS,
        ADMIN,
        FILES,
        STATUS_ONLY,
        call(
            "GET",
            "https://api.github.com/repos/forker/Hello-World/contents/" + RFD,
            query="ref=ec26c3e57ca3a959ca5aad62de7213c562f8c821",
            reply=content_file(RFD, RFD_TEXT, "ec26c3e57ca3a959ca5aad62de7213c562f8c821"),
        ),
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("review-fork")},
            status=201,
            reply=comment(953, 2, body("review-fork")),
        ),
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": body("status-after-review-fork")},
            reply=comment(950, 2, body("status-after-review-fork")),
        ),
        *labelled(2, DISCUSSION),
        UNLABEL,
    ],
}

C = "test_github_slash/"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
BRANCH = "rfd-045-streaming-exports"
CID = 492700400
PULL = call("GET", "/pulls/2", reply=pull(2, BRANCH, HEAD))
REVIEW_FILE = "docs/rfd/.state/045/reviews/1795830000.md"
SLASH_FILES = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry(RFD, sha=RFD_BLOB), diff_entry(REVIEW_FILE)],
)


def react(content: str) -> dict[str, object]:
    return call(
        "POST",
        f"/issues/comments/{CID}/reactions",
        body={"content": content},
        status=201,
        reply=reaction(content),
    )


def rockets(cid: int = CID) -> dict[str, object]:
    """No 🚀 on comment ``cid`` yet: the quiet command it holds is not answered."""
    return call(
        "GET", f"/issues/comments/{cid}/reactions", query="content=rocket&per_page=100", reply=[]
    )


def reply(name: str, cid: int = 960, number: int = 2) -> dict[str, object]:
    return call(
        "POST",
        f"/issues/{number}/comments",
        body={"body": body(name)},
        status=201,
        reply=comment(cid, number, body(name)),
    )


def edited(name: str, cid: int, number: int = 2) -> dict[str, object]:
    """The reply ``name`` written over the bot's comment ``cid`` (its failure report)."""
    return call(
        "PATCH",
        f"/issues/comments/{cid}",
        body={"body": body(name)},
        reply=comment(cid, number, body(name)),
    )


def status_posted(
    name: str, *labels: str, new: bool = False, made: str = ""
) -> list[dict[str, object]]:
    """The status comment the command's run posts on PR 2 (none was there), naming the
    commit the run ``made``, and its label."""
    text = with_proofs(body(name), [made] if made else [])
    posted = call(
        "POST", "/issues/2/comments", body={"body": text}, status=201, reply=comment(950, 2, text)
    )
    return [posted, *labelled(2, *(labels or (DISCUSSION,)), new=new)]


def perm(login: str, role: str) -> dict[str, object]:
    return call("GET", f"/collaborators/{login}/permission", reply=permission(login, role))


TRACKING_BODY = body("tracking-new")
STATUS_SLASH = comment(950, 2, body("status-slash"))
STATUS_REFINED = comment(950, 2, body("status-refined"))
CREATED_12 = issue(12, "RFD 045: Streaming exports", TRACKING_BODY, labels=(ACCEPTED,))
AT_HEAD_12 = issue(12, "RFD 045: Streaming exports", body("tracking-at-head"), labels=(ACCEPTED,))
"""The tracking issue as accept opens it: the RFD's files at the PR's head, the PR linked
(after the merge, :data:`CREATED_12` links the default branch)."""
OPEN_TRACKING = call(
    "POST",
    "/issues",
    status=201,
    body={"title": "RFD 045: Streaming exports", "body": AT_HEAD_12["body"], "labels": [ACCEPTED]},
    reply=AT_HEAD_12,
)
OPEN_TRACKING_ON_MAIN = call(  # an accepted RFD on the default branch that has no issue yet
    "POST",
    "/issues",
    status=201,
    body={"title": "RFD 045: Streaming exports", "body": TRACKING_BODY, "labels": [ACCEPTED]},
    reply=CREATED_12,
)
CASSETTES |= {
    C + "test_status": [  # the status comment is current: refreshed without a write
        COLLABORATORS,
        call("GET", "/issues/2/comments", query="per_page=100", reply=[STATUS_SLASH]),
        PULL,
        SLASH_FILES,
        reply("slash-status"),
    ],
    C + "test_help": [NO_COMMENTS, reply("slash-help")],
    C + "test_review": [
        COLLABORATORS,
        NO_COMMENTS,
        perm("Codertocat", "admin"),
        react("eyes"),
        PULL,
        SLASH_FILES,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("slash-review-posted")},
            status=201,
            reply=comment(961, 2, body("slash-review-posted")),
        ),
        *status_posted("status-slash-review", made=REVIEW_COMMIT),
        react("rocket"),  # the review and the status comment answer: no reply
    ],
    C + "test_dismiss_all": [
        COLLABORATORS,
        NO_COMMENTS,
        rockets(),
        perm("Codertocat", "admin"),
        react("eyes"),
        PULL,
        SLASH_FILES,
        *status_posted("status-dismissed", made=DISMISS_COMMIT),
        react("rocket"),
    ],
    C + "test_dismiss_by_number_keeps_the_others": [
        COLLABORATORS,
        NO_COMMENTS,
        rockets(),
        perm("Codertocat", "admin"),
        react("eyes"),
        PULL,
        SLASH_FILES,
        *status_posted("status-dismissed-numbers", made=DISMISS_SOME_COMMIT),
        react("rocket"),
    ],
    C + "test_accept_by_a_maintainer": [
        COLLABORATORS,
        NO_COMMENTS,
        perm("hubot", "maintain"),
        react("eyes"),
        PULL,
        SLASH_FILES,
        COMMITS,
        call(
            "GET", "/issues", query="state=all&sort=created&direction=desc&per_page=100", reply=[]
        ),
        OPEN_TRACKING,
        *status_posted("status-slash-accepted", ACCEPTED, new=True, made=ACCEPT_COMMIT),
        react("rocket"),
        reply("slash-accept"),
    ],
    # the RFD names hubot by email; GitHub says hubot made the commit with that email
    C + "test_accept_by_an_author_named_by_email_is_refused": [
        NO_COMMENTS,
        perm("hubot", "maintain"),
        react("eyes"),
        PULL,
        SLASH_FILES,
        call(
            "GET",
            "/pulls/2/commits",
            query="per_page=100&page=1",
            reply=[
                PR_COMMIT,
                commit_item("2" * 40, user("hubot", 7), "hubot@example.com", "Hu Bot"),
            ],
        ),
        react("confused"),
        reply("slash-accept-email-author"),
    ],
    # the comment was deleted between the event and the run (or before a re-run)
    C + "test_a_command_whose_comment_was_deleted_is_not_run": [
        NO_COMMENTS,
        perm("hubot", "maintain"),
        call(
            "POST",
            f"/issues/comments/{CID}/reactions",
            body={"content": "eyes"},
            status=404,
            reply=NOT_FOUND,
        ),
    ],
    C + "test_accept_by_the_pr_author_is_refused": [
        NO_COMMENTS,
        react("confused"),
        reply("slash-accept-author"),
    ],
    C + "test_reader_is_refused": [
        NO_COMMENTS,
        perm("octocat", "read"),
        react("confused"),
        reply("slash-refused"),
    ],
    C + "test_command_in_a_code_block_does_nothing": [],
    C + "test_redelivered_comment_writes_nothing": [
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[comment(960, 2, body("slash-status"))],
        ),
    ],
    C + "test_own_comment_is_ignored": [],
    C + "test_usage_errors_get_a_reply": [NO_COMMENTS, reply("slash-usage")],
    C + "test_a_flood_of_bad_commands_gets_one_short_reply": [
        NO_COMMENTS,
        reply("slash-usage-flood"),
    ],
    C + "test_status_on_a_tracking_issue": [
        call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
        call("GET", "/pulls", query=open_pull_lookup("rfd/045-phase-1"), reply=[]),
        reply("slash-status-issue", number=12),
    ],
}

P = "test_github_push/"
ISSUES_Q = "state=all&sort=created&direction=desc&per_page=100"
HUMAN = body("tracking-human")  # a person ticked phase 2 and wrote a note
MERGED = body("tracking-merged")  # phase 1 ticked by the bot, phase 2 still ticked
DONE = body("tracking-done")
TRACKING = issue(12, "RFD 045: Streaming exports", HUMAN, labels=(ACCEPTED,))
IMPLEMENTED = "rfd: implemented"
CASSETTES |= {
    P + "test_phase_summary_ticks_its_box_and_keeps_a_human_tick": [
        call("GET", "/issues", query=ISSUES_Q, reply=[TRACKING]),
        call("GET", "/issues/12", reply=TRACKING),
        call("PATCH", "/issues/12", body={"body": MERGED}, reply={**TRACKING, "body": MERGED}),
    ],
    P + "test_redelivered_push_writes_nothing": [
        call("GET", "/issues", query=ISSUES_Q, reply=[{**TRACKING, "body": MERGED}]),
        call("GET", "/issues/12", reply={**TRACKING, "body": MERGED}),
    ],
    P + "test_implemented_with_every_phase_closes_the_issue": [
        call("GET", "/issues", query=ISSUES_Q, reply=[{**TRACKING, "body": MERGED}]),
        call("GET", "/issues/12", reply={**TRACKING, "body": MERGED}),
        call("PATCH", "/issues/12", body={"body": DONE}, reply={**TRACKING, "body": DONE}),
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
            reply={**TRACKING, "body": DONE, "state": "closed", "state_reason": "completed"},
        ),
    ],
    P + "test_push_touching_no_rfd_costs_nothing": [],
    P + "test_push_to_another_branch_is_ignored": [],
}

A = "test_github_accept_label/"
UNLABEL_ACCEPT = call("DELETE", "/issues/2/labels/rfd%3Aaccept", reply=[])
CASSETTES |= {
    A + "test_accept_commits_once_and_opens_the_tracking_issue": [
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
            body={"body": with_proofs(body("status-accepted"), [LABEL_ACCEPT_COMMIT])},
            status=201,
            reply=comment(950, 2, with_proofs(body("status-accepted"), [LABEL_ACCEPT_COMMIT])),
        ),
        *labelled(2, ACCEPTED, new=True),  # the tracking issue made it: grey until now
        reply("label-accept"),
        UNLABEL_ACCEPT,
    ],
}
CASSETTES[A + "test_the_tracking_issue_links_the_rfd_at_the_pr_head_before_the_merge"] = CASSETTES[
    A + "test_accept_commits_once_and_opens_the_tracking_issue"
]
CASSETTES |= {
    A + "test_redelivered_accept_writes_nothing": [
        perm("hubot", "maintain"),
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[answered("label-accept", 960, AFTER)],  # the first run's answer
        ),
    ],
    # a new labeling of an accepted RFD: taken off, with a reply (never silence)
    A + "test_accept_label_on_an_accepted_rfd_is_answered": [
        perm("hubot", "maintain"),
        FILES,
        NO_COMMENTS,
        reply("label-accept-already"),
        UNLABEL_ACCEPT,
    ],
    A + "test_the_rfd_author_may_not_accept": [
        perm("octocat", "write"),
        FILES,
        NO_COMMENTS,
        reply("label-accept-author"),
        UNLABEL_ACCEPT,
    ],
    A + "test_other_labels_are_ignored": [],
    A + "test_config_error_is_posted_on_the_pr": [NO_COMMENTS, reply("config-error")],
}

OLD = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
OLD_REVIEW_COMMENT = comment(940, 2, body("review-old"))
CASSETTES |= {
    S + "test_synchronize_marks_older_reviews_and_survives_a_502": [
        COLLABORATORS,
        call(
            "GET",
            "/pulls/2/files",
            query="per_page=100&page=1",
            status=502,
            reply={"message": "Server Error"},
        ),
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[status_comment(), OLD_REVIEW_COMMENT],
        ),
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": body("status-synchronize")},
            reply=comment(950, 2, body("status-synchronize")),
        ),
        *labelled(2, DISCUSSION),
        call(
            "PATCH",
            "/issues/comments/940",
            body={"body": body("review-old-stale")},
            reply=comment(940, 2, body("review-old-stale")),
        ),
    ],
}

PULL_ACCEPTED = call("GET", "/pulls/2", reply=pull(2, BRANCH, HEAD))
CASSETTES |= {
    C + "test_refine_without_a_key_says_so": [
        NO_COMMENTS,
        rockets(),
        perm("Codertocat", "admin"),
        react("eyes"),
        react("confused"),
        reply("slash-refine-no-key"),
    ],
    C + "test_implement_without_a_key_says_so": [
        call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
        perm("Codertocat", "admin"),
        react("eyes"),
        react("confused"),
        reply("slash-implement-no-key", number=12),
    ],
    C + "test_done_on_a_pr_commits_the_status_and_leaves_the_issue_to_the_merge": [
        COLLABORATORS,
        NO_COMMENTS,
        perm("Codertocat", "admin"),
        react("eyes"),
        PULL,
        FILES,
        *status_posted("status-implemented", "rfd: implemented", new=True, made=DONE_COMMIT),
        react("rocket"),
        reply("slash-done"),
    ],
    "test_github_reconcile/test_missing_tracking_issue_is_created": [
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        OPEN_TRACKING_ON_MAIN,
        call("GET", "/pulls", query="state=open&per_page=100&page=1", reply=[]),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[]),  # dead runs?
    ],
    # the issue the first run created is found by its marker; the header still lacks the link
    "test_github_reconcile/test_an_unlinked_header_is_reported_again_without_a_write": [
        call("GET", "/issues", query=ISSUES_Q, reply=[CREATED_12]),
        call("GET", "/issues/12", reply=CREATED_12),
        call("GET", "/pulls", query="state=open&per_page=100&page=1", reply=[]),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    ],
}

CASSETTES[S + "test_lint_findings_become_annotations"] = [
    COLLABORATORS,
    FILES,
    NO_COMMENTS,
    call(
        "POST",
        "/issues/2/comments",
        body={"body": body("status-lint")},
        status=201,
        reply=comment(950, 2, body("status-lint")),
    ),
    *labelled(2, DISCUSSION),
]

CASSETTES[C + "test_refine_commits_the_refined_rfd"] = [
    COLLABORATORS,
    NO_COMMENTS,
    rockets(),
    perm("Codertocat", "admin"),
    react("eyes"),
    PULL,
    SLASH_FILES,
    reply("refine-progress-start", cid=965),
    edited("refine-progress-done", 965),  # the answer: no reply besides it
    *status_posted("status-refined", made=REFINE_COMMIT),
    react("rocket"),
]

NEW_PR = pull(3, "rfd/045-phase-1", "b" * 40)
NEW_PR.update(title="RFD 045, phase 1: Writer", body=body("implement-pr"))
TRACKING_3A = TRACKING_BODY.replace("- [ ] 1. Writer", "- [ ] 0. Writer").replace(
    "- [ ] 2. Endpoint", "- [ ] 3a. Endpoint"
)


def linked(after: str, before: str = TRACKING_BODY) -> list[dict[str, object]]:
    """The tracking issue #12 (found by its marker, re-read) given the phase PR's link."""
    was = {**CREATED_12, "body": before}
    return [
        call("GET", "/issues", query=ISSUES_Q, reply=[was]),
        call("GET", "/issues/12", reply=was),
        call("PATCH", "/issues/12", body={"body": after}, reply={**was, "body": after}),
    ]


CASSETTES[C + "test_implement_opens_a_pr_for_the_next_phase"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls", query="state=all&head=Codertocat%3Arfd%2F045-phase-1", reply=[]),
    reply("implement-running", cid=970, number=12),
    call(
        "POST",
        "/pulls",
        status=201,
        reply=NEW_PR,
        body={
            "title": "RFD 045, phase 1: Writer",
            "head": "rfd/045-phase-1",
            "base": "main",
            "body": body("implement-pr"),
        },
    ),
    *linked(body("tracking-pr-linked")),
    call(
        "PATCH",
        "/issues/comments/970",
        body={"body": body("implement-opened")},
        reply=comment(970, 12, body("implement-opened")),
    ),
    react("rocket"),  # the phase's comment, ending in the pull request, is the answer
]

# /rfd implement 3a on a plan labelled 0, 3a: the label names the branch, PR, progress, summary.
PR_3A = pull(3, "rfd/045-phase-3a", "b" * 40)
PR_3A.update(title="RFD 045, phase 3a: Endpoint", body=body("implement-pr-3a"))
CASSETTES[C + "test_implement_takes_the_phase_by_its_label"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls", query="state=all&head=Codertocat%3Arfd%2F045-phase-3a", reply=[]),
    reply("implement-running-3a", cid=970, number=12),
    call(
        "POST",
        "/pulls",
        status=201,
        reply=PR_3A,
        body={
            "title": "RFD 045, phase 3a: Endpoint",
            "head": "rfd/045-phase-3a",
            "base": "main",
            "body": body("implement-pr-3a"),
        },
    ),
    *linked(body("tracking-pr-linked-3a"), TRACKING_3A),
    call(
        "PATCH",
        "/issues/comments/970",
        body={"body": body("implement-opened-3a")},
        reply=comment(970, 12, body("implement-opened-3a")),
    ),
    react("rocket"),
]
CASSETTES[C + "test_implement_of_a_phase_the_plan_lacks_names_its_phases"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    react("confused"),
    reply("slash-implement-no-such-phase", number=12),
]

# reconcile on open PRs: #2 keeps the review label of a run that died and has no status
# comment; #3 (same branch) has a status comment of an older revision.
G = "test_github_reconcile/"
OPEN_PULLS_Q = "state=open&per_page=100&page=1"
RECENT = "2026-11-28T01:55:00Z"  # five minutes before the tests' clock
STATUS_3 = body("status-opened-3")  # #3 has the same RFD at the same head: its own marker
STATUS_3_OLD = STATUS_3.replace(HEAD[:12], OLD[:12]).replace(HEAD, OLD)


def files_of(number: int) -> dict[str, object]:
    return call(
        "GET",
        f"/pulls/{number}/files",
        query="per_page=100&page=1",
        reply=[diff_entry(RFD, sha=RFD_BLOB)],
    )


def comments_of(number: int, *found: dict[str, object]) -> dict[str, object]:
    return call("GET", f"/issues/{number}/comments", query="per_page=100", reply=list(found))


# reopened: the status comment left from before the PR was closed is of an older revision
STATUS_OLD = body("status-opened").replace(HEAD[:12], OLD[:12]).replace(HEAD, OLD)
CASSETTES |= {
    S + "test_reopened_edits_the_status_comment_in_place": [
        COLLABORATORS,
        FILES,
        call(
            "GET", "/issues/2/comments", query="per_page=100", reply=[comment(950, 2, STATUS_OLD)]
        ),
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": body("status-opened")},
            reply=status_comment(),
        ),
        *labelled(2, DISCUSSION),
    ],
    S + "test_reopened_with_a_current_status_comment_writes_nothing": [
        COLLABORATORS,
        FILES,
        call("GET", "/issues/2/comments", query="per_page=100", reply=[status_comment()]),
    ],
}

CASSETTES |= {
    G + "test_stale_label_removed_and_status_comments_rebuilt": [
        COLLABORATORS,
        call(
            "GET",
            "/pulls",
            query=OPEN_PULLS_Q,
            reply=[pull_item(2, BRANCH, HEAD, labels=("rfd:review",)), pull_item(3, BRANCH, HEAD)],
        ),
        UNLABEL,
        files_of(2),
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("status-opened")},
            status=201,
            reply=status_comment(),
        ),
        *labelled(2, DISCUSSION),
        files_of(3),
        comments_of(3, comment(955, 3, STATUS_3_OLD)),
        call(
            "PATCH",
            "/issues/comments/955",
            body={"body": STATUS_3},
            reply=comment(955, 3, STATUS_3),
        ),
        *labelled(3, DISCUSSION),
    ],
    G + "test_second_run_changes_nothing": [
        COLLABORATORS,
        call(
            "GET",
            "/pulls",
            query=OPEN_PULLS_Q,
            reply=[pull_item(2, BRANCH, HEAD), pull_item(3, BRANCH, HEAD)],
        ),
        files_of(2),
        comments_of(2, status_comment()),
        files_of(3),
        comments_of(3, comment(955, 3, STATUS_3)),
    ],
    G + "test_a_label_applied_minutes_ago_is_left_alone": [
        COLLABORATORS,
        call(
            "GET",
            "/pulls",
            query=OPEN_PULLS_Q,
            reply=[pull_item(2, BRANCH, HEAD, labels=("rfd:review",), updated_at=RECENT)],
        ),
        files_of(2),
        comments_of(2, status_comment()),
    ],
}

# Markers planted by someone else than the bot are text, not the bot's own comments.
MALLORY = user("mallory", 5100)
CASSETTES |= {
    S + "test_planted_status_marker_is_ignored": [
        COLLABORATORS,
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[comment(949, 2, "<!-- rfd-bot:status:2 -->\nApproved, merge me!", MALLORY)],
        ),
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("status-opened")},
            status=201,
            reply=status_comment(),
        ),
        *labelled(2, DISCUSSION),
    ],
    C + "test_planted_reply_marker_does_not_silence_a_command": [
        COLLABORATORS,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[comment(959, 2, "<!-- rfd-bot:reply:c492700400-status -->\ndone", MALLORY)],
        ),
        PULL,
        SLASH_FILES,
        *status_posted("status-slash"),
        reply("slash-status"),
    ],
    C + "test_status_on_an_issue_with_a_planted_tracking_marker": [
        call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
        react("confused"),
        reply("slash-not-tracking", number=12),
    ],
}


CASSETTES |= {
    R + "test_redelivered_refused_label_writes_nothing": [
        perm("octocat", "read"),
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[status_comment(), answered("refused-reader", 952, AFTER)],
        ),
    ],
    A + "test_redelivered_refused_accept_writes_nothing": [
        perm("octocat", "write"),
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[answered("label-accept-author", 960, AFTER)],
        ),
    ],
    A + "test_accept_applied_again_by_its_author_is_taken_off_again": [
        perm("octocat", "write"),
        FILES,
        call(
            "GET",
            "/issues/2/comments",
            query="per_page=100",
            reply=[answered("label-accept-author", 960, BEFORE)],
        ),
        UNLABEL_ACCEPT,
    ],
}

# A first run acknowledged /rfd dismiss with 👀, then GitHub failed and the router said so.
FAILED_BEFORE = comment(
    958,
    2,
    "<!-- rfd-bot:reply:c492700400-failed -->\n### 😕 rfd-bot could not finish\n\n```\n"
    "GitHub refused to list the files of #2: 502 Server Error\n```\n\n"
    "Nothing was left half-done. Fix the problem above, then re-run the job or repeat the command.",
)
CASSETTES[C + "test_rerun_after_a_failure_finishes_the_command"] = [
    COLLABORATORS,
    call("GET", "/issues/2/comments", query="per_page=100", reply=[FAILED_BEFORE]),
    rockets(),
    perm("Codertocat", "admin"),
    react("eyes"),
    PULL,
    SLASH_FILES,
    *status_posted("status-dismissed", made=DISMISS_COMMIT),
    react("rocket"),
    edited("slash-dismiss", 958),  # the failure report becomes the answer: one reply
]


def bot_pushes(*after: str) -> dict[str, object]:
    """``GET /repos/…/activity`` of the phase's branch by the bot's account, every type (the
    branch's first push is its creation)."""
    query = urlencode({"ref": "refs/heads/rfd/045-phase-1", "actor": BOT["login"], "per_page": 100})
    found = [
        {
            "id": 4100 + n,
            "node_id": f"AC_kwDOA{4100 + n}",
            "before": "0" * 40,
            "after": sha,
            "ref": "refs/heads/rfd/045-phase-1",
            "timestamp": "2026-11-22T02:00:00Z",
            "activity_type": "branch_creation",
            "actor": BOT,
        }
        for n, sha in enumerate(after)
    ]
    return call("GET", "/activity", query=query, reply=found)


# /rfd implement: run 1 pushes the branch, then POST /pulls answers 502 (not retried: the PR
# may exist); run 2 finds no PR for the branch, opens it from the pushed work, edits progress.
RUNNING_COMMENT = comment(970, 12, body("implement-running"))
FAILED_REPLY = comment(971, 12, body("implement-failed-502"))
PR_REQUEST = {
    "title": "RFD 045, phase 1: Writer",
    "head": "rfd/045-phase-1",
    "base": "main",
    "body": body("implement-pr"),
}
NO_PR = call("GET", "/pulls", query="state=all&head=Codertocat%3Arfd%2F045-phase-1", reply=[])
CASSETTES[C + "test_implement_recovers_when_opening_its_pr_failed"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    NO_PR,
    reply("implement-running", cid=970, number=12),
    call("POST", "/pulls", status=502, reply={"message": "Server Error"}, body=PR_REQUEST),
    edited("implement-failed-progress", 970, number=12),  # no ⏳ left behind
    reply("implement-failed-502", cid=971, number=12),
    # run 2 (the job re-run)
    call(
        "GET",
        "/issues/12/comments",
        query="per_page=100",
        reply=[comment(970, 12, body("implement-failed-progress")), FAILED_REPLY],
    ),
    perm("Codertocat", "admin"),
    call(
        "POST",
        f"/issues/comments/{CID}/reactions",
        body={"content": "eyes"},
        reply=reaction("eyes"),
    ),
    NO_PR,
    bot_pushes("e7678529de813f329576401e866e7eff7d4ee329"),  # the bot's account pushed it
    call("POST", "/pulls", status=201, reply=NEW_PR, body=PR_REQUEST),
    *linked(body("tracking-pr-linked")),
    call(
        "PATCH",
        "/issues/comments/970",
        body={"body": body("implement-recovered")},
        reply=comment(970, 12, body("implement-recovered")),
    ),
    react("rocket"),
    edited("slash-implement-finished", 971, number=12),  # the failure report: finished
]

# Someone's own rfd/045-phase-1 with a phases/1.md: GitHub's activity record shows no push of
# it by the bot's account, so it is not opened as the phase's PR (nor overwritten).
CASSETTES[C + "test_implement_does_not_open_a_branch_the_bot_did_not_push"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    NO_PR,
    bot_pushes(),
    react("confused"),
    reply("slash-implement-not-the-bots", number=12),
]

# The 502 came after GitHub had made the PR: the re-run reuses it and finishes the progress.
CASSETTES[C + "test_implement_reuses_the_pr_a_failed_run_opened"] = [
    call(
        "GET",
        "/issues/12/comments",
        query="per_page=100",
        reply=[RUNNING_COMMENT, FAILED_REPLY],
    ),
    perm("Codertocat", "admin"),
    call(
        "POST",
        f"/issues/comments/{CID}/reactions",
        body={"content": "eyes"},
        reply=reaction("eyes"),
    ),
    call(
        "GET",
        "/pulls",
        query="state=all&head=Codertocat%3Arfd%2F045-phase-1",
        reply=[NEW_PR],
    ),
    *linked(body("tracking-pr-linked")),
    call(
        "PATCH",
        "/issues/comments/970",
        body={"body": body("implement-opened-again")},
        reply=comment(970, 12, body("implement-opened-again")),
    ),
    react("rocket"),
    edited("slash-implement-exists", 971, number=12),
]

# Run as a GitHub App (`bot.login = "rfd-helper[bot]"`): the App's status comment is its own.
APP_BOT = user("rfd-helper[bot]", 4100, "Bot")
CASSETTES[S + "test_redelivered_opened_as_an_app_writes_nothing"] = [
    COLLABORATORS,
    FILES,
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[comment(950, 2, body("status-opened"), APP_BOT)],
    ),
]

# A branch of that name exists but no run of the bot made it: refused, nothing overwritten.
CASSETTES[C + "test_implement_refuses_a_stray_branch"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    NO_PR,
    react("confused"),
    reply("slash-implement-stray", number=12),
]

P = "test_github_plugins/"
CASSETTES |= {
    P + "test_a_bad_plugin_option_is_posted_on_the_pr": [NO_COMMENTS, reply("config-error-plugin")],
}

# The label applied again (a new event) on a PR already reviewed at its head (a fork's head
# never moves): the label comes off and the reply links the review.
CASSETTES[R + "test_label_applied_again_on_a_reviewed_pr_is_answered"] = [
    ADMIN,
    FILES,
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[status_comment(), answered("review-offline", 951, BEFORE)],
    ),
    reply("label-review-already"),
    UNLABEL,
]

# Run 1 commits the review, then GitHub answers 502 to posting it (a POST is not retried):
# the failure reply says the commit is there.  Run 2 (the job re-run) finds the commit by its
# Rfd-Bot-Event trailer and posts the committed review: one file, one commit, one comment.
REVIEW = {"body": body("review-offline")}
FAILED_REVIEW = [status_comment(), answered("review-failed-502", 961, AFTER)]
CASSETTES[R + "test_rerun_after_posting_failed_posts_the_committed_review"] = [
    COLLABORATORS,
    ADMIN,
    FILES,
    STATUS_ONLY,
    call("POST", "/issues/2/comments", status=502, reply={"message": "Server Error"}, body=REVIEW),
    reply("review-failed-502", cid=961),
    # run 2
    ADMIN,
    FILES,
    call("GET", "/issues/2/comments", query="per_page=100", reply=FAILED_REVIEW),
    call(
        "POST",
        "/issues/2/comments",
        body={"body": body("review-resumed")},
        status=201,
        reply=comment(962, 2, body("review-resumed")),
    ),
    call(
        "PATCH",
        "/issues/comments/950",
        body={"body": with_proofs(body("status-after-rerun"), [LABEL_REVIEW_COMMIT])},
        reply=comment(950, 2, with_proofs(body("status-after-rerun"), [LABEL_REVIEW_COMMIT])),
    ),
    *labelled(2, DISCUSSION),
    UNLABEL,
    edited("review-finished", 961),  # the failure report says the re-run finished
]

# /rfd refine: the run commits the refined RFD and ends its progress comment (the answer),
# then GitHub answers 502 to the status comment: a warning, the 🚀 all the same, exit 0.
# A re-run of the job finds the 🚀 and writes nothing: the model is not asked again.
STATUS_502 = call(
    "POST",
    "/issues/2/comments",
    status=502,
    reply={"message": "Server Error"},
    body={"body": with_proofs(body("status-refined"), [REFINE_COMMIT])},
)
PROGRESS_DONE = comment(965, 2, body("refine-progress-done"))
CASSETTES[C + "test_refine_whose_status_comment_fails_is_answered_and_not_run_again"] = [
    NO_COMMENTS,
    rockets(),
    perm("Codertocat", "admin"),
    react("eyes"),
    PULL,
    SLASH_FILES,
    reply("refine-progress-start", cid=965),
    edited("refine-progress-done", 965),
    COLLABORATORS,
    STATUS_502,
    react("rocket"),
    # the job run again
    call("GET", "/issues/2/comments", query="per_page=100", reply=[PROGRESS_DONE]),
    call(
        "GET",
        f"/issues/comments/{CID}/reactions",
        query="content=rocket&per_page=100",
        reply=[reaction("rocket")],
    ),
]

# /rfd review: run 1 commits the review, then posting it answers 502.  Run 2 sees the bot's
# commit as the PR's head, finds it by its trailer and posts the committed review.
REVIEWED_HEAD = "cb94cb3376633806c370606a362f10e5cc947791"  # the bot's commit (fixed git dates)
CASSETTES[C + "test_review_rerun_after_posting_failed_posts_the_committed_review"] = [
    COLLABORATORS,
    NO_COMMENTS,
    perm("Codertocat", "admin"),
    react("eyes"),
    PULL,
    SLASH_FILES,
    call(
        "POST",
        "/issues/2/comments",
        status=502,
        reply={"message": "Server Error"},
        body={"body": body("slash-review-posted")},
    ),
    reply("slash-review-failed-502", cid=964),
    # run 2
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[answered("slash-review-failed-502", 964, AFTER)],
    ),
    perm("Codertocat", "admin"),
    call(
        "POST",
        f"/issues/comments/{CID}/reactions",
        body={"content": "eyes"},
        reply=reaction("eyes"),
    ),
    call("GET", "/pulls/2", reply=pull(2, BRANCH, REVIEWED_HEAD)),
    SLASH_FILES,
    call(
        "POST",
        "/issues/2/comments",
        body={"body": body("slash-review-resumed")},
        status=201,
        reply=comment(965, 2, body("slash-review-resumed")),
    ),
    *status_posted("status-slash-review-resumed", made=REVIEW_COMMIT),
    call(
        "POST",
        f"/issues/comments/{CID}/reactions",
        body={"content": "rocket"},
        reply=reaction("rocket"),
    ),
    edited("slash-review-finished", 964),  # the failure report says the re-run finished
]

# An earlier run posted the review, then failed (its report is on the PR): the re-run has
# nothing to review, but takes the label off and turns the report into "finished".
CASSETTES[R + "test_rerun_after_a_failure_past_posting_takes_the_label_off"] = [
    ADMIN,
    FILES,
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[status_comment(), answered("review-offline", 951, AFTER), FAILED_REVIEW[1]],
    ),
    UNLABEL,
    edited("review-finished", 961),
]

# An RFD with a TODO and a plan without phases: the verdict, the major linked, the minor folded.
CASSETTES[R + "test_findings_lead_with_the_verdict_and_link_the_rfd_lines"] = [
    COLLABORATORS,
    ADMIN,
    call(
        "GET",
        "/pulls/2/files",
        query="per_page=100&page=1",
        reply=[diff_entry(RFD, sha=blob_sha(UNPLANNED))],
    ),
    STATUS_ONLY,
    call(
        "POST",
        "/issues/2/comments",
        body={"body": body("review-findings")},
        status=201,
        reply=comment(951, 2, body("review-findings")),
    ),
    call(
        "PATCH",
        "/issues/comments/950",
        body={"body": with_proofs(body("status-after-findings"), [FINDINGS_COMMIT])},
        reply=comment(950, 2, with_proofs(body("status-after-findings"), [FINDINGS_COMMIT])),
    ),
    *labelled(2, DISCUSSION),
    UNLABEL,
]

# Abandoned after phase 1: the issue is labelled, told why, and closed as not planned.
ABANDONED_LABEL = "rfd: abandoned"
MERGED_12 = {**TRACKING, "body": MERGED}
CASSETTES[
    "test_github_push/test_an_abandoned_rfd_closes_its_issue_as_not_planned_with_the_reason"
] = [
    call("GET", "/issues", query=ISSUES_Q, reply=[MERGED_12]),
    call("GET", "/issues/12", reply=MERGED_12),
    unlabelled(12, ACCEPTED),
    call(
        "POST",
        "/issues/12/labels",
        body={"labels": [ABANDONED_LABEL]},
        reply=[lifecycle_label(ABANDONED_LABEL)],
    ),
    call(
        "POST",
        "/issues/12/comments",
        body={"body": body("tracking-abandoned")},
        status=201,
        reply=comment(980, 12, body("tracking-abandoned")),
    ),
    call(
        "PATCH",
        "/issues/12",
        body={"state": "closed", "state_reason": "not_planned"},
        reply={**MERGED_12, "state": "closed", "state_reason": "not_planned"},
    ),
]

# The configuration was broken on an earlier run (its comment is on the PR), then fixed.
CONFIG_FIXED = body("config-fixed")
CASSETTES[S + "test_a_config_error_reported_earlier_is_cleared_once_the_config_reads"] = [
    COLLABORATORS,
    FILES,
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[comment(945, 2, body("config-error"))],
    ),
    call(
        "POST",
        "/issues/2/comments",
        body={"body": body("status-opened")},
        status=201,
        reply=status_comment(),
    ),
    *labelled(2, DISCUSSION),
    call(
        "PATCH",
        "/issues/comments/945",
        body={"body": CONFIG_FIXED},
        reply=comment(945, 2, CONFIG_FIXED),
    ),
]

CASSETTES["test_github_failure/test_a_rerun_failing_again_keeps_what_the_first_run_did"] = [
    call(
        "GET",
        "/issues/2/comments",
        query="per_page=100",
        reply=[status_comment(), answered("accept-failed-502", 961, BEFORE)],
    ),
    edited("accept-failed-again", 961),
]


# /rfd implement where the item's check fails twice: the PR says so and records nothing
FAILED_PR = pull(3, "rfd/045-phase-1", "b" * 40)
FAILED_PR.update(title="RFD 045, phase 1: Writer", body=body("implement-pr-failed"))
CASSETTES[C + "test_implement_with_failing_checks_opens_a_pr_that_records_nothing"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    perm("Codertocat", "admin"),
    react("eyes"),
    call("GET", "/pulls", query="state=all&head=Codertocat%3Arfd%2F045-phase-1", reply=[]),
    reply("implement-running", cid=970, number=12),
    call(
        "POST",
        "/pulls",
        status=201,
        reply=FAILED_PR,
        body={
            "title": "RFD 045, phase 1: Writer",
            "head": "rfd/045-phase-1",
            "base": "main",
            "body": body("implement-pr-failed"),
        },
    ),
    *linked(body("tracking-pr-linked")),
    call(
        "PATCH",
        "/issues/comments/970",
        body={"body": body("implement-opened-failed")},
        reply=comment(970, 12, body("implement-opened-failed")),
    ),
    react("rocket"),
    reply("slash-implement-failed", number=12),
]

# /rfd refine whose second pass fails: the first pass is committed, the reviews are kept
CASSETTES[C + "test_refine_whose_pass_fails_keeps_the_reviews"] = [
    COLLABORATORS,
    NO_COMMENTS,
    rockets(),
    perm("Codertocat", "admin"),
    react("eyes"),
    PULL,
    SLASH_FILES,
    reply("refine-progress-start", cid=965),
    edited("refine-progress-failed", 965),  # a warning: the pass did not finish
    *status_posted(
        "status-refined", made=REFINE_COMMIT
    ),  # the first pass is committed: the same dashboard
    react("rocket"),
    reply("slash-refine-failed"),
]
