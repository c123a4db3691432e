"""Cassettes of ``tests/test_github_run.py``: replies and progress in workflow run 4242."""

from __future__ import annotations

from gh_data import API, NOT_FOUND, REPO, call, comment, diff_entry, example, pull, workflow_run
from scenarios_bot import CID, CREATED_12, ISSUES_Q, PULL, body, linked, perm, react, reply

T = "test_github_run/"
NO_COMMENTS_12 = call("GET", "/issues/12/comments", query="per_page=100", reply=[])
NO_COMMENTS_2 = call("GET", "/issues/2/comments", query="per_page=100", reply=[])


def edited(name: str, cid: int = 970, number: int = 12) -> dict[str, object]:
    return call(
        "PATCH",
        f"/issues/comments/{cid}",
        body={"body": body(name)},
        reply=comment(cid, number, body(name)),
    )


PR = pull(3, "rfd/045-phase-1", "b" * 40)
PR.update(title="RFD 045, phase 1: Writer", body=body("implement-pr"))
CASSETTES: dict[str, list[dict[str, object]]] = {
    T + "test_a_reply_links_its_run": [NO_COMMENTS_2, reply("run-help")],
    T + "test_a_refusal_links_its_run_and_the_summary_says_refused": [
        NO_COMMENTS_12,
        perm("Codertocat", "admin"),
        react("eyes"),
        react("confused"),
        reply("run-implement-no-key", number=12),
    ],
    T + "test_implement_progress_ticks_and_fails_items_then_says_the_outcome": [
        NO_COMMENTS_12,
        perm("Codertocat", "admin"),
        react("eyes"),
        call("GET", "/pulls", query="state=all&head=Codertocat%3Arfd%2F045-phase-1", reply=[]),
        reply("run-progress-research", cid=970, number=12),
        edited("run-progress-plan"),
        edited("run-progress-item-1"),
        edited("run-progress-item-2"),
        edited("run-progress-summary"),
        edited("run-progress-push"),
        call(
            "POST",
            "/pulls",
            status=201,
            reply=PR,
            body={
                "title": "RFD 045, phase 1: Writer",
                "head": "rfd/045-phase-1",
                "base": "main",
                "body": body("run-implement-pr"),
            },
        ),
        edited("run-progress-opened"),
        *linked(body("tracking-pr-linked")),
        react("rocket"),
        reply("run-implement", number=12),
    ],
}
_ = CID

HOUR_AGO = "2026-11-22T01:00:00Z"  # an hour before the tests' clock
DEAD = {
    **comment(970, 12, body("run-progress-item-2").replace("4242", "4100")),
    "updated_at": HOUR_AGO,
}
RECONCILE_12 = [
    call("GET", "/issues", query=ISSUES_Q, reply=[CREATED_12]),
    call("GET", "/issues/12", reply=CREATED_12),
    call("GET", "/pulls", query="state=open&per_page=100&page=1", reply=[]),
    call("GET", "/issues/12/comments", query="per_page=100", reply=[DEAD]),
]
CASSETTES[T + "test_reconcile_marks_the_progress_of_a_dead_run_as_ended"] = [
    *RECONCILE_12,
    call("GET", "/actions/runs/4100", reply=workflow_run(4100, "completed", "cancelled")),
    edited("run-progress-ended"),
]
# The check job's comment, not edited while the work job waits in its queue: left alone.
CASSETTES[T + "test_reconcile_leaves_the_progress_of_a_queued_run_alone"] = [
    *RECONCILE_12,
    call("GET", "/actions/runs/4100", reply=workflow_run(4100, "queued")),
]
CASSETTES[T + "test_reconcile_ends_the_progress_of_a_run_github_no_longer_knows"] = [
    *RECONCILE_12,
    call("GET", "/actions/runs/4100", status=404, reply=NOT_FOUND),
    edited("run-progress-ended"),
]

FILES_2 = call(
    "GET",
    "/pulls/2/files",
    query="per_page=100&page=1",
    reply=[diff_entry("docs/rfd/045-streaming-exports.md")],
)
CASSETTES[T + "test_implement_on_the_open_accepting_pr_says_merge_first"] = [
    NO_COMMENTS_2,
    perm("Codertocat", "admin"),
    react("eyes"),
    PULL,
    FILES_2,
    call("GET", "/issues", query=ISSUES_Q, reply=[CREATED_12]),
    react("confused"),
    reply("run-implement-merge-first"),
]
CASSETTES[T + "test_implement_with_every_phase_done_names_the_next_step"] = [
    NO_COMMENTS_12,
    perm("Codertocat", "admin"),
    react("eyes"),
    react("confused"),
    reply("run-implement-all-done", number=12),
]

# rfd init --github with a token: rfd:review is created, rfd:accept exists already.
REVIEW_LABEL = {
    "name": "rfd:review",
    "color": "1d76db",
    "description": "rfd-bot: review the RFDs this pull request changes",
}
ACCEPT_LABEL = {
    "name": "rfd:accept",
    "color": "0e8a16",
    "description": "rfd-bot: accept the RFDs this pull request changes",
}
CREATED_LABEL = {**example("label"), **REVIEW_LABEL, "url": f"{API}/repos/{REPO}/labels/rfd:review"}
EXISTS = {
    "message": "Validation Failed",
    "errors": [{"resource": "Label", "code": "already_exists", "field": "name"}],
    "documentation_url": "https://docs.github.com/rest/issues/labels#create-a-label",
    "status": "422",
}
CASSETTES["test_workflow_setup/test_init_github_creates_the_labels_with_a_token"] = [
    call("POST", "/labels", body=REVIEW_LABEL, status=201, reply=CREATED_LABEL),
    call("POST", "/labels", body=ACCEPT_LABEL, status=422, reply=EXISTS),
]
