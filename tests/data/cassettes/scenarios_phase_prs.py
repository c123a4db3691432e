"""Cassettes of the tracking issue linking each phase's pull request across syncs.

``/rfd implement`` linked phase 1's PR (#3) on the tracking issue; the push of the merge,
which records the phase, ticks it and keeps that link beside the summary's.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from gh_data import call, comment, permission, reaction
from scenarios_bot import CASSETTES as CASSETTES_SLASH
from scenarios_bot import (
    CREATED_12,
    ISSUES_Q,
    NEW_PR,
    NO_PR,
    PR_REQUEST,
    body,
    bot_pushes,
    edited,
    linked,
    react,
    reply,
)
from scenarios_finish import CASSETTES as CASSETTES_FINISH

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

# The same hostile run split in the workflow's jobs (tests/test_implement_split.py): the
# check job (no model) authorizes, reacts, finds no PR and posts the progress comment; the
# work job (read-only token) only reads: is the phase's PR open meanwhile; the publish job (no
# model key) opens the PR, links it, writes the outcome over the progress comment (found by
# its marker: the one-job run's text, its "Finished in" line and checklist), reacts and
# replies.  Taken from the scenario of the one-job run, whose PR body and reply list the
# refusal.
HOSTILE_RUN = CASSETTES[
    "test_implement_hostile/test_the_bot_pushes_no_secret_and_no_protected_path"
]
PERMISSION = HOSTILE_RUN[1]  # the publish job asks again who commented, with its own token
CASSETTES["test_implement_split/test_the_work_job_hands_over_and_the_publish_job_pushes"] = [
    *HOSTILE_RUN[:5],
    NO_PR,  # the work job: GET only
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

# The endings of the split run a user reads, each the one-job run's (tests/test_implement_split):
# the check job makes the one-job run's first five exchanges (comments, permission, 👀, no PR
# yet, the progress comment); the work job only asks whether the PR is open meanwhile; the
# publish job asks the permission again, opens the PR, links it, re-reads the comments to
# find the progress comment and writes the same outcome over it.
COMMIT_SHA = re.compile(r"<!-- rfd-bot:commit:[0-9a-f]{40} -->")
S = "test_implement_split/"


def _masked(exchange: dict[str, Any]) -> dict[str, Any]:
    """The split tests compare the commit markers without their shas (the publish job makes
    its own commit)."""
    out = copy.deepcopy(exchange)
    if out["request"]["body"]:
        out["request"]["body"] = COMMIT_SHA.sub(
            "<!-- rfd-bot:commit:<sha> -->", out["request"]["body"]
        )
    return out


def two_jobs(one_job: list[dict[str, Any]], running: str) -> list[dict[str, Any]]:
    """The one-job run's exchanges as the two jobs make them (``running``: the body of the
    progress comment the work job posted)."""
    out, reread = [*one_job[:5], one_job[3], PERMISSION], False  # [3]: is the PR open
    for exchange in one_job[5:]:
        request = exchange["request"]
        if not reread and request["method"] == "PATCH" and "/comments/970" in request["uri"]:
            progress = [comment(970, 12, body(running))]
            out.append(call("GET", "/issues/12/comments", query="per_page=100", reply=progress))
            reread = True
        out.append(exchange)
    return [_masked(exchange) for exchange in out]


FAILING = "test_implement_with_failing_checks_opens_a_pr_that_records_nothing"
CASSETTES[S + "test_a_phase_with_failed_items_ends_in_two_jobs_as_in_one"] = two_jobs(
    CASSETTES_SLASH[C + FAILING], "implement-running"
)
FINISHING = (
    "test_github_finish_phase/test_the_last_phase_pr_marks_the_rfd_implemented_and_closes_the_issue"
)
CASSETTES[S + "test_the_last_phase_finishes_the_rfd_in_two_jobs_as_in_one"] = two_jobs(
    CASSETTES_FINISH[FINISHING], "finish-phase-running"
)

# Run 1's publish job pushes the phase, then POST /pulls answers 502: the router's failure
# report names the pushed commit.  `/rfd implement 1` again (comment 492700401): the work job
# finds the pushed branch and no PR, asks no model and hands over only that; the publish job
# reads GitHub's activity record of the branch (the bot's account created it at the pushed
# commit), opens the PR from the branch's summary, links it and writes the one-job recovery's
# text over the progress comment (the phase comment answers: no reply).
AGAIN = 492700401
PUBLISHED = "e7678529de813f329576401e866e7eff7d4ee329"  # the one-job run's commit too
RUNNING_970 = comment(970, 12, body("implement-running"))
FAILED_971 = comment(971, 12, body("implement-failed-502"))
ONE_JOB = CASSETTES_SLASH[C + "test_implement_recovers_when_opening_its_pr_failed"]
PR_502 = call("POST", "/pulls", status=502, reply={"message": "Server Error"}, body=PR_REQUEST)
PR_201 = call("POST", "/pulls", status=201, reply=NEW_PR, body=PR_REQUEST)
RECOVERED_AGAIN = body("implement-recovered").replace("c492700400", f"c{AGAIN}")


def react_again(content: str) -> dict[str, Any]:
    """A reaction on the second `/rfd implement` comment."""
    return call(
        "POST",
        f"/issues/comments/{AGAIN}/reactions",
        body={"content": content},
        status=201,
        reply=reaction(content),
    )


REFUSED_PR = [  # the check and work jobs, then the publish job whose PR GitHub refuses
    *ONE_JOB[:5],
    NO_PR,
    PERMISSION,
    PR_502,
    call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970]),
    reply("implement-failed-502", cid=971, number=12),
]
CASSETTES[S + "test_implement_again_opens_the_pr_the_publish_job_could_not"] = [
    _masked(exchange)
    for exchange in [
        *REFUSED_PR,
        # run 2: `/rfd implement 1` again
        call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970, FAILED_971]),
        PERMISSION,
        react_again("eyes"),
        NO_PR,
        NO_PR,  # the work job
        PERMISSION,
        bot_pushes(PUBLISHED),
        PR_201,
        *linked(body("tracking-pr-linked")),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970, FAILED_971]),
        call(
            "PATCH",
            "/issues/comments/970",
            body={"body": RECOVERED_AGAIN},
            reply=comment(970, 12, RECOVERED_AGAIN),
        ),
        react_again("rocket"),
    ]
]

# Someone pushed `rfd/045-phase-1` with a `phases/1.md` of their own: the work job hands the
# branch over; GitHub records no push of it by the bot, so the publish job opens nothing.
CASSETTES[S + "test_a_branch_the_bot_did_not_push_is_not_opened_as_the_phase"] = [
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    PERMISSION,
    react_again("eyes"),
    NO_PR,
    NO_PR,  # the work job
    PERMISSION,
    bot_pushes(),
    react_again("confused"),
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    reply("implement-publish-not-the-bots", cid=971, number=12),
]

# The failure report says to re-run the job: the publish job alone, on the same artifact,
# finds the branch it pushed (the bot's account created it), opens the PR and ends as the
# one-job re-run does: the recovered phase comment, the report edited to "Finished".
CASSETTES[S + "test_a_rerun_of_the_publish_job_opens_the_pr_it_pushed"] = [
    _masked(exchange)
    for exchange in [
        *REFUSED_PR,
        PERMISSION,
        bot_pushes(PUBLISHED),
        PR_201,
        *linked(body("tracking-pr-linked")),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970, FAILED_971]),
        call(
            "PATCH",
            "/issues/comments/970",
            body={"body": body("implement-recovered")},
            reply=comment(970, 12, body("implement-recovered")),
        ),
        react("rocket"),
        edited("slash-implement-finished", 971, number=12),
    ]
]

# The same with failed items: run 1's publish job pushed the phase (its kept summary, no
# phases/1.md) and GitHub refused the PR; `/rfd implement 1` again opens it from the branch
# with the failed-items body, keeps the ⚠️ on the phase comment and replies where it came from.
FAILING_RUN = CASSETTES_SLASH[C + FAILING]
FAILING_PUBLISHED = "3059723f7833824f35d500daf03a8276880e40e7"  # as the one-job run's
BAD_GATEWAY = {"message": "Server Error"}
FAILED_PR_REQUEST = json.loads(FAILING_RUN[5]["request"]["body"])
CASSETTES[S + "test_implement_again_opens_the_pr_of_a_pushed_phase_with_failed_items"] = [
    _masked(exchange)
    for exchange in [
        *FAILING_RUN[:5],
        NO_PR,
        PERMISSION,
        call("POST", "/pulls", status=502, reply=BAD_GATEWAY, body=FAILED_PR_REQUEST),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970]),
        reply("implement-failed-502", cid=971, number=12),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970, FAILED_971]),
        PERMISSION,
        react_again("eyes"),
        NO_PR,
        NO_PR,  # the work job
        PERMISSION,
        bot_pushes(FAILING_PUBLISHED),
        FAILING_RUN[5],
        *linked(body("tracking-pr-linked")),
        call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970, FAILED_971]),
        call(
            "PATCH",
            "/issues/comments/970",
            body={"body": body("implement-recovered-failed")},
            reply=comment(970, 12, body("implement-recovered-failed")),
        ),
        react_again("rocket"),
        reply("implement-recovered-failed-reply", cid=972, number=12),
    ]
]

# What the work job (read-only token, it posts nothing) cannot say itself
# (tests/test_implement_work_ended.py).  A refusal is the check job's, as the one-job run
# posts it; no model job starts.
W = "test_implement_work_ended/"
CASSETTES[W + "test_a_refusal_is_posted_by_the_check_job_and_no_model_job_starts"] = [
    *CASSETTES_SLASH[C + "test_implement_of_a_phase_the_plan_lacks_names_its_phases"]
]
# The model fails in the work job: the check job posted the progress comment (the one-job
# run's first five exchanges), the work job only reads, the publish job ends the progress
# comment as a failed run's and replies in its own words.
CASSETTES[W + "test_a_work_job_failure_is_worded_by_the_publish_job"] = [
    *ONE_JOB[:5],
    NO_PR,  # the work job
    PERMISSION,
    call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970]),
    edited("implement-work-failed-progress", 970, number=12),
    react("confused"),
    reply("implement-work-failed", cid=971, number=12),
]
# A manifest that says the model changed nothing, its texts hostile: the publish job posts
# its own words only (the phase comment it finds none of is posted anew).
CASSETTES[W + "test_hostile_texts_in_the_artifact_are_never_posted"] = [
    PERMISSION,
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    call(
        "POST",
        "/issues/12/comments",
        body={"body": body("implement-work-nothing-progress")},
        status=201,
        reply=comment(970, 12, body("implement-work-nothing-progress")),
    ),
    react("confused"),
    reply("implement-work-nothing", cid=971, number=12),
]
# The work job died before it handed anything over: no manifest; the publish job says so.
CASSETTES[W + "test_a_work_job_that_handed_nothing_over_is_said_by_the_publish_job"] = [
    PERMISSION,
    react("confused"),
    call("GET", "/issues/12/comments", query="per_page=100", reply=[]),
    reply("implement-work-ended", cid=971, number=12),
]
CASSETTES[W + "test_check_job_outputs_out_of_format_are_not_taken"] = [
    *CASSETTES[W + "test_a_work_job_that_handed_nothing_over_is_said_by_the_publish_job"]
]
# The check job posted the progress comment and named its phase in its outputs (the one-job
# run's first five exchanges); the work job died: the publish job ends that comment as a
# failed run's (where it stopped unknown) and replies.
CASSETTES[W + "test_a_work_job_that_died_has_its_progress_comment_ended_by_the_publish_job"] = [
    *ONE_JOB[:5],
    PERMISSION,
    call("GET", "/issues/12/comments", query="per_page=100", reply=[RUNNING_970]),
    edited("implement-work-died-progress", 970, number=12),
    react("confused"),
    reply("implement-work-died", cid=971, number=12),
]
