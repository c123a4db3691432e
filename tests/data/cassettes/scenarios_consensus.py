"""Cassettes of the sign-off tests (``tests/test_github_signing.py``)."""

from __future__ import annotations

from gh_data import (
    call,
    comment,
    diff_entry,
    error,
    example,
    label,
    permission,
    pull_item,
    reaction,
)
from scenarios_bot import HEAD, NO_COMMENTS, PULL, RFD, body

G = "test_github_signing/"
LEDGER = "docs/rfd/.state/045/consensus.json"
TEAM_DOC = "https://docs.github.com/rest/teams/members#get-team-membership-for-a-user"


def perm(login: str, role: str) -> dict[str, object]:
    return call("GET", f"/collaborators/{login}/permission", reply=permission(login, role))


def files(*, ledger: bool) -> dict[str, object]:
    found = [diff_entry(RFD)] + ([diff_entry(LEDGER)] if ledger else [])
    return call("GET", "/pulls/2/files", query="per_page=100&page=1", reply=found)


def react(content: str, cid: int) -> dict[str, object]:
    return call("POST", f"/issues/comments/{cid}/reactions", body={"content": content},
                status=201, reply=reaction(content))  # fmt: skip


def reply(name: str, cid: int) -> dict[str, object]:
    return call("POST", "/issues/2/comments", body={"body": body(name)}, status=201,
                reply=comment(cid, 2, body(name)))  # fmt: skip


def member(login: str, active: bool = True) -> dict[str, object]:
    """``GET /orgs/Codertocat/teams/architects/memberships/<login>``: 200, or 404."""
    uri = f"https://api.github.com/orgs/Codertocat/teams/architects/memberships/{login}"
    if not active:
        return call("GET", uri, status=404, reply=error("Not Found", TEAM_DOC, 404))
    found = example("team-membership-response-if-user-is-a-team-maintainer")
    found.update(url=f"https://api.github.com/teams/1/memberships/{login}", role="member")
    return call("GET", uri, reply=found)


def signed(name: str, login: str, role: str, cid: int, *, team: bool,
           ledger: bool) -> list[dict[str, object]]:  # fmt: skip
    """One sign-off command that succeeds: its reply is ``bodies/<name>.md``."""
    checked = [member(login)] if team else []
    return [NO_COMMENTS, perm(login, role), react("eyes", cid), *checked, PULL,
            files(ledger=ledger), react("rocket", cid), reply(name, 2000 + cid)]  # fmt: skip


CASSETTES = {
    G + "test_two_reviewers_approve_a_concern_blocks_accept_until_resolved": [
        *signed("consensus-approve-hubot", "hubot", "maintain", 1001, team=False, ledger=False),
        *signed("consensus-approve-mona", "mona", "write", 1002, team=True, ledger=True),
        *signed("consensus-concern", "mona", "write", 1003, team=True, ledger=True),
        NO_COMMENTS, perm("hubot", "maintain"), react("eyes", 1004), PULL, files(ledger=True),
        react("confused", 1004), reply("consensus-accept-refused", 3004),
        *signed("consensus-resolve", "mona", "write", 1005, team=False, ledger=True),
        *signed("consensus-fcp", "hubot", "maintain", 1006, team=False, ledger=True),
    ],
    G + "test_someone_not_among_the_reviewers_cannot_approve": [
        NO_COMMENTS, perm("octocat", "write"), react("eyes", 1011), member("octocat", False),
        react("confused", 1011), reply("consensus-not-a-reviewer", 3011),
    ],
}  # fmt: skip


OPEN_PRS = call("GET", "/pulls", query="state=open&per_page=100&page=1",
                reply=[pull_item(2, "rfd-045-streaming-exports", HEAD)])  # fmt: skip
END = G + "test_the_scheduled_run_ends_an_elapsed_final_comment_period"
CASSETTES |= {
    END + "[accepts]": [
        OPEN_PRS, files(ledger=True), NO_COMMENTS, reply("consensus-fcp-labelled", 2101),
        call("POST", "/issues/2/labels", body=["rfd:accept"], reply=[label("rfd:accept")]),
        reply("consensus-status-ended", 950),
    ],
    END + "[announces]": [
        OPEN_PRS, files(ledger=True), NO_COMMENTS, reply("consensus-fcp-ended", 2102),
        reply("consensus-status-ended", 950),
    ],
    G + "test_the_end_of_a_final_comment_period_is_announced_once": [
        OPEN_PRS, files(ledger=True),
        call("GET", "/issues/2/comments", query="per_page=100",
             reply=[comment(2102, 2, body("consensus-fcp-ended")),
                    comment(950, 2, body("consensus-status-ended"))]),
    ],
}  # fmt: skip

CASSETTES[G + "test_a_push_after_an_approval_shows_it_as_of_an_older_revision"] = [
    *signed("consensus-approve-before-push", "hubot", "maintain", 1021, team=False, ledger=False),
    files(ledger=True), NO_COMMENTS, reply("consensus-status-older", 950),
]  # fmt: skip
