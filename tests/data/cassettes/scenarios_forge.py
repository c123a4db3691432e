"""Cassettes of ``tests/test_forge_github.py`` and ``tests/test_github_api.py``."""

from __future__ import annotations

from gh_data import (
    NOT_FOUND,
    call,
    comment,
    content_file,
    diff_entry,
    error,
    issue,
    permission,
    reaction,
    user,
)

MARKER = "<!-- rfd-bot:tracking:045 -->"
TRACKING = issue(12, "RFD 045: Streaming exports", f"{MARKER}\nPhases", labels=("rfd",))
OTHER = issue(11, "Typo in README", "There is a typo.", author=user("octocat"))
STATUS = comment(901, 7, "<!-- rfd-bot:status:7 -->\n## RFD status")
HUMAN = comment(900, 7, "Looks good to me", user("octocat"))
ISSUES_Q = "state=all&sort=created&direction=desc&per_page=100"
SECONDARY = error(
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
    "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
    "#about-secondary-rate-limits",
    403,
)
RFD = "# RFD 045: Streaming exports\n\n- **Status**: Discussion\n"

F = "test_forge_github/"
A = "test_github_api/"
CASSETTES = {
    F + "test_find_issue_by_marker": [
        call("GET", "/issues", query=ISSUES_Q, reply=[OTHER, TRACKING]),
    ],
    F + "test_find_issue_missing": [
        call("GET", "/issues", query=ISSUES_Q, reply=[OTHER]),
    ],
    F + "test_find_comment_then_edit": [
        call("GET", "/issues/7/comments", query="per_page=100", reply=[HUMAN, STATUS]),
        call(
            "PATCH", "/issues/comments/901", body={"body": "new"}, reply={**STATUS, "body": "new"}
        ),
    ],
    F + "test_create_comment": [
        call(
            "POST",
            "/issues/7/comments",
            body={"body": "hello"},
            status=201,
            reply=comment(902, 7, "hello"),
        ),
    ],
    F + "test_502_then_success": [
        call(
            "GET",
            "/issues/7/comments",
            query="per_page=100",
            status=502,
            reply={"message": "Server Error"},
        ),
        call("GET", "/issues/7/comments", query="per_page=100", reply=[HUMAN]),
    ],
    F + "test_secondary_rate_limit_waits_its_retry_after": [
        call(
            "POST",
            "/issues/7/comments",
            body={"body": "hello"},
            status=403,
            reply=SECONDARY,
            extra={"Retry-After": "1", "X-RateLimit-Remaining": "4000"},
        ),
        call(
            "POST",
            "/issues/7/comments",
            body={"body": "hello"},
            status=201,
            reply=comment(902, 7, "hello"),
        ),
    ],
    F + "test_secondary_rate_limit_without_retry_after_waits_the_configured_time": [
        call(
            "POST",
            "/issues/7/comments",
            body={"body": "hello"},
            status=403,
            reply=SECONDARY,
            extra={"X-RateLimit-Remaining": "4000"},
        ),
        call(
            "POST",
            "/issues/7/comments",
            body={"body": "hello"},
            status=201,
            reply=comment(902, 7, "hello"),
        ),
    ],
    F + "test_create_issue_and_close": [
        call(
            "POST",
            "/issues",
            status=201,
            body={"title": TRACKING["title"], "body": TRACKING["body"], "labels": ["rfd"]},
            reply=TRACKING,
        ),
        call(
            "PATCH",
            "/issues/12",
            body={"state": "closed"},
            reply={**TRACKING, "state": "closed", "state_reason": "completed"},
        ),
    ],
    F + "test_get_issue": [
        call("GET", "/issues/12", reply=TRACKING),
    ],
    F + "test_labels": [
        call("POST", "/issues/7/labels", body={"labels": ["rfd:review"]}, reply=[]),
        call("DELETE", "/issues/7/labels/rfd%3Areview", reply=[]),
        call(
            "DELETE",
            "/issues/7/labels/rfd%3Aaccept",
            status=404,
            reply={
                "message": "Label does not exist",
                "documentation_url": "https://docs.github.com/rest/issues/labels"
                "#remove-a-label-from-an-issue",
                "status": "404",
            },
        ),
    ],
    F + "test_forbidden_is_a_forge_error": [
        call(
            "PATCH",
            "/issues/12",
            body={"body": "x"},
            status=403,
            reply=error(
                "Resource not accessible by integration",
                "https://docs.github.com/rest/issues/issues#update-an-issue",
                403,
            ),
        ),
    ],
    A + "test_permission": [
        call(
            "GET", "/collaborators/Codertocat/permission", reply=permission("Codertocat", "admin")
        ),
        call("GET", "/collaborators/octocat/permission", reply=permission("octocat", "maintain")),
        call("GET", "/collaborators/stranger/permission", status=404, reply=NOT_FOUND),
        # an organization's custom roles: their base level is the legacy `permission`
        call(
            "GET",
            "/collaborators/hubot/permission",
            reply=permission("hubot", "docs-writer", legacy="write"),
        ),
        call(
            "GET",
            "/collaborators/monalisa/permission",
            reply=permission("monalisa", "auditor", legacy="read"),
        ),
    ],
    A + "test_react": [
        call(
            "POST",
            "/issues/comments/900/reactions",
            body={"content": "eyes"},
            status=201,
            reply=reaction("eyes"),
        ),
    ],
    A + "test_pull_files_and_text": [
        call(
            "GET",
            "/pulls/7/files",
            query="per_page=100&page=1",
            reply=[
                diff_entry("docs/rfd/045-streaming-exports.md"),
                diff_entry("src/app.py", "modified"),
            ],
        ),
        call(
            "GET",
            "/contents/docs/rfd/045-streaming-exports.md",
            query="ref=abc123",
            reply=content_file("docs/rfd/045-streaming-exports.md", RFD, "abc123"),
        ),
        call(
            "GET",
            "/contents/docs/rfd/046-missing.md",
            query="ref=abc123",
            status=404,
            reply=NOT_FOUND,
        ),
    ],
}

# Markers planted by someone else: the bot only trusts what its own account wrote.
PLANTED_ISSUE = issue(
    13, "RFD 045: Streaming exports", f"{MARKER}\nmine now", author=user("mallory")
)
PLANTED_STATUS = comment(899, 7, "<!-- rfd-bot:status:7 -->\nplanted", user("mallory"))
APP = user("rfd-helper[bot]", 4100, "Bot")
APP_STATUS = comment(903, 7, "<!-- rfd-bot:status:7 -->\n## RFD status", APP)
CASSETTES |= {
    F + "test_find_issue_skips_a_planted_marker": [
        call("GET", "/issues", query=ISSUES_Q, reply=[PLANTED_ISSUE, TRACKING]),
    ],
    F + "test_find_comment_skips_a_planted_marker": [
        call("GET", "/issues/7/comments", query="per_page=100", reply=[PLANTED_STATUS, STATUS]),
    ],
    F + "test_a_configured_login_owns_its_comments": [
        call("GET", "/issues/7/comments", query="per_page=100", reply=[STATUS, APP_STATUS]),
    ],
}

# 5xx on writes: idempotent ones are sent again (honouring Retry-After), a POST is not.
EDITED = {**STATUS, "body": "new"}
UNAVAILABLE = {"message": "Service Unavailable"}
CASSETTES |= {
    F + "test_edit_survives_a_502_then_a_503_with_retry_after": [
        call(
            "PATCH",
            "/issues/comments/901",
            body={"body": "new"},
            status=502,
            reply={"message": "Server Error"},
        ),
        call(
            "PATCH",
            "/issues/comments/901",
            body={"body": "new"},
            status=503,
            reply=UNAVAILABLE,
            extra={"Retry-After": "2"},
        ),
        call("PATCH", "/issues/comments/901", body={"body": "new"}, reply=EDITED),
    ],
    F + "test_label_removal_survives_a_504": [
        call(
            "DELETE",
            "/issues/7/labels/rfd%3Areview",
            status=504,
            reply={"message": "We couldn't respond to your request in time."},
        ),
        call("DELETE", "/issues/7/labels/rfd%3Areview", reply=[]),
    ],
    F + "test_a_comment_is_not_posted_again_after_a_502": [
        call(
            "POST",
            "/issues/7/comments",
            body={"body": "hello"},
            status=502,
            reply={"message": "Server Error"},
        ),
    ],
}

EYES = {"content": "eyes"}
CASSETTES |= {
    A + "test_react_survives_a_502": [
        call(
            "POST",
            "/issues/comments/900/reactions",
            body=EYES,
            status=502,
            reply={"message": "Server Error"},
        ),
        call(
            "POST", "/issues/comments/900/reactions", body=EYES, status=201, reply=reaction("eyes")
        ),
    ],
    A + "test_react_to_a_deleted_comment_says_so": [
        call("POST", "/issues/comments/900/reactions", body=EYES, status=404, reply=NOT_FOUND),
    ],
}

# The bot's own review quoting the status marker: it is not the status comment.
QUOTING_REVIEW = comment(
    905, 7, "<!-- rfd-bot:review:045:ec26c3e57ca3 -->\nThe model wrote <!-- rfd-bot:status:7 -->"
)
CASSETTES[F + "test_a_review_quoting_the_status_marker_is_not_the_status_comment"] = [
    call("GET", "/issues/7/comments", query="per_page=100", reply=[QUOTING_REVIEW, STATUS]),
]
