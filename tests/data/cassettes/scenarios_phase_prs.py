"""Cassettes of the tracking issue linking each phase's pull request across syncs.

``/rfd implement`` linked phase 1's PR (#3) on the tracking issue; the push of the merge,
which records the phase, ticks it and keeps that link beside the summary's.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from gh_data import call, comment, permission
from scenarios_bot import CASSETTES as CASSETTES_SLASH
from scenarios_bot import CREATED_12, ISSUES_Q, body, react, reply

P = "test_github_push/"
LINKED = {**CREATED_12, "body": body("tracking-pr-linked")}
TICKED = body("tracking-pr-linked-done")

CASSETTES = {
    P + "test_a_ticked_phase_keeps_its_pr_link_beside_its_summary": [
        call("GET", "/issues", query=ISSUES_Q, reply=[LINKED]),
        call("GET", "/issues/12", reply=LINKED),
        call("PATCH", "/issues/12", body={"body": TICKED}, reply={**LINKED, "body": TICKED}),
    ],
}

# A hostile model drives `/rfd implement` (tests/test_implement_hostile.py): the PR is opened
# and linked on the tracking issue; the reply says what was discarded before the commit.
C = "test_github_slash/"
OPENED, HOSTILE = body("implement-opened"), body("implement-opened-hostile")  # its own tokens
NOT_TAKEN = (
    "\n\nThe model worked in a copy of the repository; these of its changes were not taken"
    ' (`rfd help security`, "What implement\'s commands can reach", says why):\n'
    "- not taken: `.github/workflows/x.yml` is protected"
    " (git, CI or hook configuration, or implement.protected_paths)"
)


def _hostile(exchange: dict[str, Any]) -> dict[str, Any]:
    """An exchange of the plain implement run as the hostile run makes it: its own progress
    comment, and the PR body lists what was not taken."""
    request = exchange["request"]
    if request["body"] == json.dumps({"body": OPENED}):
        return call(
            "PATCH", "/issues/comments/970", body={"body": HOSTILE}, reply=comment(970, 12, HOSTILE)
        )
    if request["method"] == "POST" and request["uri"].endswith("/pulls"):
        sent = json.loads(request["body"])
        out = copy.deepcopy(exchange)
        out["request"]["body"] = json.dumps({**sent, "body": sent["body"] + NOT_TAKEN})
        return out
    return exchange


CASSETTES["test_implement_hostile/test_the_bot_pushes_no_secret_and_no_protected_path"] = [
    *map(_hostile, CASSETTES_SLASH[C + "test_implement_opens_a_pr_for_the_next_phase"]),
    reply("slash-implement-hostile", number=12),
]

# The same hostile run split in two jobs (tests/test_implement_split.py): the work job (no
# write token) authorizes, reacts, finds no PR and posts the progress comment; the publish
# job (no model key) opens the PR, links it, writes the outcome over the progress comment
# (found by its marker: the one-job run's text, its "Finished in" line and checklist), reacts
# and replies.  Taken from the scenario of the one-job run, whose PR body and reply list the
# refusal.
HOSTILE_RUN = CASSETTES[
    "test_implement_hostile/test_the_bot_pushes_no_secret_and_no_protected_path"
]
PERMISSION = HOSTILE_RUN[1]  # the publish job asks again who commented, with its own token
CASSETTES["test_implement_split/test_the_work_job_hands_over_and_the_publish_job_pushes"] = [
    *HOSTILE_RUN[:5],
    PERMISSION,
    *HOSTILE_RUN[5:9],
    call(
        "GET",
        "/issues/12/comments",
        query="per_page=100",
        reply=[comment(970, 12, body("implement-running"))],
    ),
    call("PATCH", "/issues/comments/970", body={"body": HOSTILE}, reply=comment(970, 12, HOSTILE)),
    *HOSTILE_RUN[10:],
]

# The publish job refuses a tampered phase: 😕 and a reply listing each reason, nothing pushed.
CASSETTES["test_implement_split/test_the_publish_job_refuses_a_tampered_phase_and_says_why"] = [
    PERMISSION,
    react("confused"),
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    reply("implement-publish-refused", cid=971, number=12),
]

# A phase handed for a commenter without write access (a work job taken over can claim any
# command): the publish job asks GitHub who commented and refuses before it reads the phase.
CASSETTES["test_implement_split/test_the_publish_job_refuses_a_commenter_without_write_access"] = [
    call("GET", "/collaborators/octocat/permission", reply=permission("octocat", "read")),
    react("confused"),
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    reply("implement-publish-not-allowed", cid=972, number=12),
]
