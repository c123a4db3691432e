"""Cassettes of ``tests/test_github_legacy.py``: an RFD Accepted before the bot (no plan.json,
no tracking issue) taken on by ``/rfd accept`` on a pull request that changes it."""

from __future__ import annotations

import sys
from pathlib import Path

from gh_data import COLLABORATORS, call, comment, diff_entry, issue, pull, reaction

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from scenarios_bot import (  # noqa: E402
    ACCEPTED,
    BRANCH,
    COMMITS,
    HEAD,
    ISSUES_Q,
    NO_COMMENTS,
    RFD,
    blob_sha,
    body,
    perm,
    react,
    reply,
    status_posted,
)
from tests.github_world import RFD_TEXT  # noqa: E402

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
_ = (comment, reaction)
