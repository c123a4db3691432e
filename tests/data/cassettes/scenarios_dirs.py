"""Cassettes of ``tests/test_github_rfd_dirs.py``: pull requests on a directory-per-RFD
repository (Oxide's AsciiDoc ``rfd/0015/README.adoc``, front matter ``docs/rfd/0042/README.md``)."""

from __future__ import annotations

import sys
from pathlib import Path

from gh_data import COLLABORATORS, call, comment, diff_entry, issue, label, pull
from scenarios_bot import (
    ADMIN,
    BRANCH,
    COMMITS,
    DISCUSSION,
    ISSUES_Q,
    NO_COMMENTS,
    PULL,
    UNLABEL,
    blob_sha,
    body,
    labelled,
    perm,
    react,
    reply,
    status_posted,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.github_world import FRONT_PATH, FRONT_TEXT, OXIDE_PATH, OXIDE_TEXT

FILES = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry(OXIDE_PATH, "modified", sha=blob_sha(OXIDE_TEXT))],
)
TITLE = "RFD 0015: Console access"
PUBLISHED = "rfd: published"  # Oxide's word for accepted names the label
TRACKING = issue(12, TITLE, body("dirs-tracking-oxide"), labels=(PUBLISHED,))
ACCEPT_COMMIT = "6f853ba541525bd7e77465109b3348e5e3e9c637"  # /rfd accept
DIAGRAM_REVIEW = "e6478cc93dbde8ec47c1331ed5469f47f76215a7"  # rfd:review, a diagram PR
OPENED_STATUS = comment(950, 2, body("dirs-status-diagram"))  # RFD 0015 at the PR head
REVIEW_COMMIT = "d25c25d60ca51cb7fbee51ea72c5c3c1c88b1109"  # rfd:review
D = "test_github_rfd_dirs/"
CASSETTES = {
    D + "test_review_label_on_an_oxide_rfd_reviews_and_saves_it": [
        COLLABORATORS,
        ADMIN,
        FILES,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("dirs-review-oxide")},
            status=201,
            reply=comment(951, 2, body("dirs-review-oxide")),
        ),
        *status_posted("dirs-status-oxide-review", DISCUSSION, new=True, made=REVIEW_COMMIT),
        UNLABEL,
    ],
}

DIAGRAM = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry("rfd/0015/console.svg", "modified", sha=blob_sha("<svg><path/></svg>\n"))],
)
FRONT = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry(FRONT_PATH, sha=blob_sha(FRONT_TEXT))],
)
CASSETTES |= {
    D + "test_a_pr_changing_only_a_diagram_is_a_pr_on_its_rfd": [
        COLLABORATORS,
        DIAGRAM,
        NO_COMMENTS,
        *status_posted("dirs-status-diagram", DISCUSSION, new=True),
    ],
    D + "test_a_front_matter_directory_pr_gets_its_status_comment": [
        COLLABORATORS,
        FRONT,
        NO_COMMENTS,
        *status_posted("dirs-status-front", DISCUSSION, new=True),
    ],
}

CASSETTES |= {
    D + "test_accept_on_an_oxide_pr_publishes_it_with_its_plan_and_tracking_issue": [
        COLLABORATORS,
        NO_COMMENTS,
        perm("hubot", "maintain"),
        react("eyes"),
        PULL,
        FILES,
        COMMITS,
        call("GET", "/issues", query=ISSUES_Q, reply=[]),
        call(
            "POST",
            "/issues",
            status=201,
            body={"title": TITLE, "body": TRACKING["body"], "labels": [PUBLISHED]},
            reply=TRACKING,
        ),
        *status_posted("dirs-status-oxide-accept", made=ACCEPT_COMMIT)[:1],
        call("POST", "/issues/2/labels", body={"labels": [PUBLISHED]}, reply=[label(PUBLISHED)]),
        react("rocket"),
        reply("dirs-accept-oxide"),
    ],
}

REMOVED = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[
        diff_entry(OXIDE_PATH, "removed", sha=blob_sha(OXIDE_TEXT)),
        diff_entry("rfd/0015/console.svg", "removed", sha=blob_sha("<svg/>\n")),
    ],
)
CASSETTES |= {
    D + "test_review_label_on_a_diagram_pr_reviews_the_rfds_document": [
        COLLABORATORS,
        ADMIN,
        DIAGRAM,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("dirs-review-diagram")},
            status=201,
            reply=comment(951, 2, body("dirs-review-diagram")),
        ),
        *status_posted("dirs-status-diagram-review", DISCUSSION, new=True, made=DIAGRAM_REVIEW),
        UNLABEL,
    ],
    D + "test_a_pr_removing_an_rfd_directory_removes_that_rfd": [
        COLLABORATORS,
        REMOVED,
        NO_COMMENTS,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("dirs-status-removed")},
            status=201,
            reply=comment(950, 2, body("dirs-status-removed")),
        ),
    ],
}

CASSETTES |= {
    D + "test_a_merged_oxide_pr_gets_its_final_status_comment": [
        FILES,
        call("GET", "/issues/2/comments", query="per_page=100", reply=[OPENED_STATUS]),
        call(
            "PATCH",
            "/issues/comments/950",
            body={"body": body("dirs-final-oxide")},
            reply=comment(950, 2, body("dirs-final-oxide")),
        ),
        *labelled(2, DISCUSSION),
    ],
}

# RFD 0015 published on main by hand (no tracking issue), its pull request merged
MERGED_PULL = {**pull(2, BRANCH, "e" * 40), "state": "closed", "merged": True}
CASSETTES |= {
    D + "test_implement_on_a_merged_oxide_pr_says_where_in_oxides_words": [
        NO_COMMENTS,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls/2", reply=MERGED_PULL),
        FILES,
        call("GET", "/issues", query=ISSUES_Q, reply=[]),  # no tracking issue
        react("confused"),
        reply("dirs-implement-merged-oxide"),
    ],
}
