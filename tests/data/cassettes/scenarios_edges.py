"""Cassettes of the trust-boundary tests: PR branch content is data (symlinks refused)."""

from __future__ import annotations

from gh_data import COLLABORATORS, call, comment, diff_entry, permission, pull_item
from scenarios_bot import BRANCH, HEAD, OPEN_PULLS_Q, RFD, STATUS_3, body, status_comment

FILES = call("GET", "/pulls/2/files", query="per_page=100&page=1", reply=[diff_entry(RFD)])
ADMIN = call("GET", "/collaborators/Codertocat/permission", reply=permission("Codertocat", "admin"))
STATUS_ONLY = call("GET", "/issues/2/comments", query="per_page=100", reply=[status_comment()])

L = "test_github_symlinks/"
CASSETTES = {
    L + "test_a_symlink_on_the_pr_branch_is_refused_with_a_reply_naming_it": [
        ADMIN,
        FILES,
        STATUS_ONLY,
        call(
            "POST",
            "/issues/2/comments",
            body={"body": body("symlink-refused")},
            status=201,
            reply=comment(952, 2, body("symlink-refused")),
        ),
    ],
}

# reconcile: #2's branch holds a link (refused, said), #3 is rebuilt as usual (current: no write)
CASSETTES |= {
    L + "test_reconcile_goes_on_past_a_pr_whose_branch_holds_a_link": [
        COLLABORATORS,
        call(
            "GET",
            "/pulls",
            query=OPEN_PULLS_Q,
            reply=[pull_item(2, "linked", HEAD), pull_item(3, BRANCH, HEAD)],
        ),
        FILES,
        call("GET", "/pulls/3/files", query="per_page=100&page=1", reply=[diff_entry(RFD)]),
        call("GET", "/issues/3/comments", query="per_page=100", reply=[comment(955, 3, STATUS_3)]),
    ],
}
