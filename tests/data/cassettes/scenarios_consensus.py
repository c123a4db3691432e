"""Cassettes of the sign-off tests (``tests/test_github_signing.py``).

A test of several runs follows PR 2 as GitHub shows it from one run to the next
(:class:`Thread`): the first run posts the status comment (the dashboard) and the
lifecycle label; later runs list it among the earlier comments and edit it in place,
read the PR with its label, and find its head where the bot's last commit left it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from gh_data import (
    BOT,
    COLLABORATORS,
    call,
    comment,
    commit_item,
    diff_entry,
    error,
    example,
    label,
    permission,
    pull,
    pull_item,
    reaction,
    user,
)
from scenarios_bot import (
    BRANCH,
    DISCUSSION,
    HEAD,
    RFD,
    RFD_BLOB,
    blob_sha,
    body,
    labelled,
    lifecycle_label,
    with_proofs,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.github_world import RFD_TEXT

G = "test_github_signing/"
LEDGER = "docs/rfd/.state/045/consensus.json"
TEAM_DOC = "https://docs.github.com/rest/teams/members#get-team-membership-for-a-user"
STATUS = 950  # the status comment's id

Interaction = dict[str, Any]


def perm(login: str, role: str) -> Interaction:
    return call("GET", f"/collaborators/{login}/permission", reply=permission(login, role))


def files(ledger: str | None, rfd: str = RFD_BLOB) -> Interaction:
    """The PR's files: the RFD and, once a sign-off was committed, its ledger (git blobs)."""
    found = [diff_entry(RFD, sha=rfd)] + ([diff_entry(LEDGER, sha=ledger)] if ledger else [])
    return call("GET", "/pulls/2/files", query="per_page=100&page=1", reply=found)


def react(content: str, cid: int) -> Interaction:
    return call(
        "POST",
        f"/issues/comments/{cid}/reactions",
        body={"content": content},
        status=201,
        reply=reaction(content),
    )


def rockets(cid: int, *found: dict[str, Any]) -> Interaction:
    """``GET …/reactions?content=rocket``: has the bot answered the quiet command ``cid``?"""
    return call(
        "GET",
        f"/issues/comments/{cid}/reactions",
        query="content=rocket&per_page=100",
        reply=list(found),
    )


def pushes(*made: tuple[str, str]) -> Interaction:
    """``GET /repos/…/activity``: the bot's pushes to the PR's branch (newest first), each
    ``(before, after)``; asked when a commit that changed the ledger is named by none of the
    bot's comments."""
    query = urlencode(
        {
            "ref": f"refs/heads/{BRANCH}",
            "actor": BOT["login"],
            "activity_type": "push",
            "per_page": 100,
        }
    )
    found = [
        {
            "id": 4000 + n,
            "node_id": f"AC_kwDOA{4000 + n}",
            "before": before,
            "after": after,
            "ref": f"refs/heads/{BRANCH}",
            "timestamp": "2026-11-22T02:00:00Z",
            "activity_type": "push",
            "actor": BOT,
        }
        for n, (before, after) in enumerate(reversed(made))
    ]
    return call("GET", "/activity", query=query, reply=found)


def member(login: str, active: bool = True) -> Interaction:
    """``GET /orgs/Codertocat/teams/architects/memberships/<login>``: 200, or 404."""
    uri = f"https://api.github.com/orgs/Codertocat/teams/architects/memberships/{login}"
    if not active:
        return call("GET", uri, status=404, reply=error("Not Found", TEAM_DOC, 404))
    found = example("team-membership-response-if-user-is-a-team-maintainer")
    found.update(url=f"https://api.github.com/teams/1/memberships/{login}", role="member")
    return call("GET", uri, reply=found)


def person(login: str) -> dict[str, Any]:
    """A user as GitHub shows them (the id the permission answers give them)."""
    return user(login, 3000 + len(login))


PR_HEAD = "3360530d28ea685fa52e80af63d838b9e8c81fa2"  # the world's PR commit (fixed git dates)
BOT_EMAIL = "41898282+github-actions[bot]@users.noreply.github.com"


def bot_commit(sha: str, what: str, cid: int) -> dict[str, Any]:
    """A commit of the bot on the PR branch as GitHub lists it (its trailer names the event)."""
    found = commit_item(sha, BOT, BOT_EMAIL, "rfd-bot")
    found["commit"]["message"] = f"RFD 045: {what} by rfd-bot\n\nRfd-Bot-Event: c{cid}"
    return found


class Thread:
    """PR 2 between runs: its comments as GitHub lists them, its labels, its commits."""

    def __init__(self) -> None:
        self.comments: list[dict[str, Any]] = []
        self.labels: list[dict[str, Any]] = []
        opened = commit_item(PR_HEAD, user("Codertocat"), "test@example.com", "Test User")
        opened["commit"]["message"] = "pr"
        self.commits = [opened]
        self.ledger: str | None = None
        self.rfd = RFD_BLOB  # the RFD's content at the head (its git blob)
        self.proven: list[str] = []  # the bot's commits, as its status comment names them

    @property
    def head(self) -> str:
        return str(self.commits[-1]["sha"])

    def said(self, cid: int, login: str, text: str) -> Interaction:
        """``login`` comments ``text``; the run it starts lists the comments, this one last."""
        self.comments.append(comment(cid, 2, text, person(login)))
        return call("GET", "/issues/2/comments", query="per_page=100", reply=list(self.comments))

    def pull(self) -> Interaction:
        found = pull(2, BRANCH, self.head)
        found["labels"] = list(self.labels)
        return call("GET", "/pulls/2", reply=found)

    def dashboard(self, name: str, made: str = "") -> list[Interaction]:
        """The status comment ``bodies/<name>.md`` (its run lists who may act): posted with
        the PR's label the first time, edited in place afterwards (the label is already
        there).  Its leading markers name the bot's commits, ``made`` (this run's) last: the
        proof that they are the bot's."""
        self.proven += [made] if made else []
        text = with_proofs(body(name), self.proven)
        made = comment(STATUS, 2, text)
        at = next((i for i, c in enumerate(self.comments) if c["id"] == STATUS), None)
        if at is not None:
            self.comments[at] = made
            edited = call("PATCH", f"/issues/comments/{STATUS}", body={"body": text}, reply=made)
            return [COLLABORATORS, edited]
        self.comments.append(made)
        self.labels.append(lifecycle_label(DISCUSSION))
        posted = call("POST", "/issues/2/comments", body={"body": text}, status=201, reply=made)
        return [COLLABORATORS, posted, *labelled(2, DISCUSSION)]

    def listed_commits(self) -> Interaction:
        return call(
            "GET", "/pulls/2/commits", query="per_page=100&page=1", reply=list(self.commits)
        )

    def replied(self, name: str, cid: int, made: str = "") -> Interaction:
        """The reply ``bodies/<name>.md``, its leading markers naming the commit ``made``
        (the run's own, when it committed)."""
        text = with_proofs(body(name), [made]) if made else body(name)
        posted = comment(cid, 2, text)
        self.comments.append(posted)
        return call("POST", "/issues/2/comments", body={"body": text}, status=201, reply=posted)


WHAT = {
    "approve": "approved",
    "concern": "concern raised",
    "resolve": "concern resolved",
    "fcp": "final comment period started",
}


def signed(
    pr: Thread,
    said: tuple[int, str, str],
    role: str,
    *,
    team: bool,
    made: tuple[str, str],
    status: str,
) -> list[Interaction]:
    """``said`` (``(comment id, login, text)``), a sign-off command that succeeds: the bot
    commits ``made`` (the commit's sha, the ledger's blob in it), refreshes the dashboard
    ``bodies/<status>.md`` and says it with 🚀 alone: no reply."""
    cid, login, text = said
    checked = [member(login)] if team else []
    authors = [pr.listed_commits()] if text == "/rfd approve" else []  # is the approver one?
    sha, ledger = made
    out = [
        pr.said(*said),
        rockets(cid),
        perm(login, role),
        react("eyes", cid),
        *checked,
        pr.pull(),
        files(pr.ledger, pr.rfd),
        *authors,
        *pr.dashboard(status, made=sha),
        react("rocket", cid),
    ]
    pr.ledger = ledger
    pr.commits.append(bot_commit(sha, WHAT[text.split()[1]], cid))
    return out


def two_reviewers() -> list[Interaction]:
    """Approve ×2 (mona through her team), a concern, accept refused, resolve, fcp."""
    pr = Thread()
    concern = "/rfd concern Proxies may buffer the chunked response"
    return [
        *signed(
            pr,
            (1001, "hubot", "/rfd approve"),
            "maintain",
            team=False,
            made=(
                "3d69b677b3a437374c49ca8d57bdbac516edec81",
                "0ee7a9bca6d6b1b4121c1341bed1ea76a927c217",
            ),
            status="consensus-status-hubot",
        ),
        *signed(
            pr,
            (1002, "mona", "/rfd approve"),
            "write",
            team=True,
            made=(
                "2f5c1e4557b64f3c4fbfa5a2cc082ab4125f124f",
                "36bee8492c67d8cfc5671ac5376e5e122d1d941c",
            ),
            status="consensus-status-mona",
        ),
        *signed(
            pr,
            (1003, "mona", concern),
            "write",
            team=True,
            made=(
                "aebc3a244d122afd8a0e3f47a088ef8a9c0c9502",
                "5957778410c1edd220c592df1265212a7afc2af9",
            ),
            status="consensus-status-concern",
        ),
        pr.said(1004, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1004),
        pr.pull(),
        files(pr.ledger),
        pr.listed_commits(),
        react("confused", 1004),
        pr.replied("consensus-accept-refused", 3004),
        *signed(
            pr,
            (1005, "mona", "/rfd resolve 1"),
            "write",
            team=False,
            made=(
                "71e0fdeee800fed6a797b72c1329b48a49dc9edc",
                "7c94c6573035d724bc7615d5f3028e038d3176af",
            ),
            status="consensus-status-resolved",
        ),
        *signed(
            pr,
            (1006, "hubot", "/rfd fcp"),
            "maintain",
            team=False,
            made=(
                "dffaef1e166993618aad9879bdb78e0bd3ac68c3",
                "701bbc6f94e549ffc8564dc58634f70f22b56a74",
            ),
            status="consensus-status-fcp",
        ),
    ]


def not_a_reviewer() -> list[Interaction]:
    pr = Thread()
    return [
        pr.said(1011, "octocat", "/rfd approve"),
        rockets(1011),
        perm("octocat", "write"),
        react("eyes", 1011),
        member("octocat", False),
        react("confused", 1011),
        pr.replied("consensus-not-a-reviewer", 3011),
    ]


CASSETTES = {
    G + "test_two_reviewers_approve_a_concern_blocks_accept_until_resolved": two_reviewers(),
    G + "test_someone_not_among_the_reviewers_cannot_approve": not_a_reviewer(),
}


# The scheduled run on a PR whose final comment period has ended (the ledger ELAPSED of the
# test module): its dashboard shows the period running, it carries its lifecycle label.
ELAPSED_BLOB = "b84a985d670dd60d483bc25c6f15b84ab5d2668a"  # the git blob of ELAPSED
RUNNING = comment(STATUS, 2, body("consensus-status-running"))
ENDED = comment(STATUS, 2, body("consensus-status-ended"))
# its sign-offs link the commit that brought the RFD, which differs with the configuration
ENDED_ANNOUNCED = comment(STATUS, 2, body("consensus-status-ended-announces"))
DISCUSSING = {**pull_item(2, BRANCH, HEAD), "labels": [lifecycle_label(DISCUSSION)]}
OPEN_PRS = call("GET", "/pulls", query="state=open&per_page=100&page=1", reply=[DISCUSSING])
ACCEPT = {
    **label("rfd:accept", 208045950),
    "default": False,
    "color": "0e8a16",
    "description": "rfd-bot",
}  # as the webhook fixtures show the trigger labels


def listed(*found: dict[str, Any]) -> Interaction:
    return call("GET", "/issues/2/comments", query="per_page=100", reply=list(found))


def reply(name: str, cid: int) -> Interaction:
    return call(
        "POST",
        "/issues/2/comments",
        body={"body": body(name)},
        status=201,
        reply=comment(cid, 2, body(name)),
    )


ENDED_NOW = call("PATCH", f"/issues/comments/{STATUS}", body={"body": ENDED["body"]}, reply=ENDED)
ANNOUNCED_NOW = call(
    "PATCH",
    f"/issues/comments/{STATUS}",
    body={"body": ENDED_ANNOUNCED["body"]},
    reply=ENDED_ANNOUNCED,
)
END = G + "test_the_scheduled_run_ends_an_elapsed_final_comment_period"
CASSETTES |= {
    END + "[accepts]": [
        OPEN_PRS,
        files(None),
        listed(RUNNING),
        reply("consensus-fcp-labelled", 2101),
        COLLABORATORS,  # the dashboard names who may act
        call(
            "POST",
            "/issues/2/labels",
            body={"labels": ["rfd:accept"]},  # all of the PR's labels now
            reply=[lifecycle_label(DISCUSSION), ACCEPT],
        ),
        ENDED_NOW,
    ],
    END + "[announces]": [
        OPEN_PRS,
        files(None),
        listed(RUNNING),
        reply("consensus-fcp-ended", 2102),
        COLLABORATORS,
        ANNOUNCED_NOW,
    ],
    G + "test_the_end_of_a_final_comment_period_is_announced_once": [
        COLLABORATORS,
        OPEN_PRS,
        files(None),
        listed(ENDED_ANNOUNCED, comment(2102, 2, body("consensus-fcp-ended"))),
    ],
}


def approve_then_push() -> list[Interaction]:
    """An approval, then the author pushes an edit of the RFD: ``synchronize``."""
    pr = Thread()
    approved = signed(
        pr,
        (1021, "hubot", "/rfd approve"),
        "maintain",
        team=False,
        made=(
            "2ebdd4e845793f1a19c7346f7cbe63c9d33c22e4",
            "0ee7a9bca6d6b1b4121c1341bed1ea76a927c217",
        ),
        status="consensus-status-before-push",
    )
    edited = blob_sha(RFD_TEXT + "\nOne more risk: slow clients.\n")
    return [
        *approved,
        files(pr.ledger, edited),
        listed(*pr.comments),
        *pr.dashboard("consensus-status-older"),
    ]


CASSETTES[G + "test_a_push_after_an_approval_shows_it_as_of_an_older_revision"] = (
    approve_then_push()
)


FORGED_HEAD = "5e0f89dac25b5d895d62aecc3009093f21bd2a28"  # the PR commit adding the ledger


def forged_ledger() -> list[Interaction]:
    """The PR's own commit adds a ledger saying all is signed off: the scheduled run
    rebuilds the dashboard from what counts (nothing), then `/rfd accept` is refused."""
    pr = Thread()
    pr.commits[0]["sha"] = FORGED_HEAD
    pr.comments.append(RUNNING)
    waiting = comment(STATUS, 2, body("consensus-status-forged"))
    scheduled = [
        COLLABORATORS,
        OPEN_PRS,
        files(ELAPSED_BLOB),
        pushes(),
        listed(RUNNING),
        call("PATCH", f"/issues/comments/{STATUS}", body={"body": waiting["body"]}, reply=waiting),
    ]
    pr.comments[0] = waiting
    accept = [
        pr.said(1031, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1031),
        pr.pull(),
        files(ELAPSED_BLOB),
        pushes(),
        pr.listed_commits(),
        react("confused", 1031),
        pr.replied("consensus-accept-forged", 3031),
    ]
    return scheduled + accept


CASSETTES[G + "test_a_ledger_written_by_hand_on_the_branch_counts_for_nothing"] = forged_ledger()


HUBOTS_COMMIT = "8f2c2f0d1c3b4a5e6f708192a3b4c5d6e7f80912"  # on the PR, by hubot's email


def by_an_author(
    case: str, login: str, role: str, said: str, email: bool = False
) -> list[Interaction]:
    """An author of the RFD approves it (or resolves mona's concern, in the default branch's
    ledger): refused.  With ``email`` the RFD names its author by email only: the PR's
    commits are asked, and one carrying that email is hubot's, GitHub says."""
    pr = Thread()
    asked: list[Interaction] = []
    if email:
        pr.commits.append(
            commit_item(HUBOTS_COMMIT, person("hubot"), "hubot@example.org", "Hubot Person")
        )
        asked = [pr.listed_commits()]
    return [
        pr.said(1051, login, said),
        rockets(1051),
        perm(login, role),
        react("eyes", 1051),
        pr.pull(),
        files(None),
        *asked,
        react("confused", 1051),
        pr.replied(f"consensus-by-an-author-{case}", 3051),
    ]


AUTHOR_TEST = G + "test_an_author_cannot_approve_or_resolve_anothers_concern"
CASSETTES |= {
    AUTHOR_TEST + "[the PR author]": by_an_author("pr", "Codertocat", "write", "/rfd approve"),
    AUTHOR_TEST + "[Name (@login)]": by_an_author("named", "hubot", "write", "/rfd approve"),
    AUTHOR_TEST + "[a profile link]": by_an_author("linked", "hubot", "write", "/rfd approve"),
    AUTHOR_TEST + "[@login]": by_an_author("named", "hubot", "write", "/rfd approve"),
    AUTHOR_TEST + "[a plain login]": by_an_author("named", "hubot", "write", "/rfd approve"),
    AUTHOR_TEST + "[Name -email-]": by_an_author(  # pytest-recording writes <> as -
        "named", "hubot", "write", "/rfd approve", email=True
    ),
    AUTHOR_TEST + "[resolving a concern of another]": by_an_author(
        "resolve", "Codertocat", "maintain", "/rfd resolve 1"
    ),
}


TIDY = "4299e70ff4a5b596c824549d78d77d5ff284c46b"  # the author's commit with a bot trailer


def forged_trailer() -> list[Interaction]:
    """The PR's author pushed a commit carrying ``Rfd-Bot-Event: c1061``: mona's
    concern 1061 is recorded and committed as any other."""
    pr = Thread()
    tidy = commit_item(TIDY, user("Codertocat"), "test@example.com", "Test User")
    tidy["commit"]["message"] = "Tidy up\n\nRfd-Bot-Event: c1061"
    pr.commits.append(tidy)
    concern = "/rfd concern Proxies may buffer the chunked response"
    out = signed(
        pr,
        (1061, "mona", concern),
        "write",
        team=True,
        made=("6df0806bbfefb6533bfcea86b589e6a16e056986", ""),
        status="consensus-status-trailer",
    )
    at = next(n for n, c in enumerate(out) if "/pulls/2/files" in c["request"]["uri"])
    return [*out[: at + 1], pushes(), *out[at + 1 :]]  # who pushed the trailer? not the bot


CASSETTES[G + "test_a_trailer_written_by_hand_does_not_pass_for_the_bots_commit"] = forged_trailer()


FORGED_APPROVAL = "7d649246bc7e1c59246d8b0746656ac0bc627226"  # the bot's commit (fixed git dates)


def approved_over_a_forged_ledger() -> list[Interaction]:
    """hubot approves on a PR whose own commit added a ledger saying all is signed off: the
    approval is recorded over the ledger that counts, and the reply names what was left out."""
    pr = Thread()
    pr.commits[0]["sha"] = FORGED_HEAD
    pr.ledger = ELAPSED_BLOB
    said = (1041, "hubot", "/rfd approve")
    out = signed(
        pr,
        said,
        "maintain",
        team=False,
        made=(FORGED_APPROVAL, ""),
        status="consensus-status-forged-approved",
    )
    out.insert(
        next(n for n, c in enumerate(out) if "/pulls/2/files" in c["request"]["uri"]) + 1, pushes()
    )
    return [*out, pr.replied("consensus-approve-forged", 2041)]


CASSETTES[G + "test_a_sign_off_over_a_forged_ledger_counts_and_names_what_it_left_out"] = (
    approved_over_a_forged_ledger()
)


HOOK_BOT_COMMIT = "2fab5182faaa493a93492c883b212cf9008a5bcd"  # bob's approval (fixed git dates)
HOOK_HAND_COMMIT = "396b70154a2eeff4466eea88549a535020753cf7"  # carol's, written by hand
HOOK_MAIN = "30ccf94ea7e3afd1dff079e4f0b1104b5972de49"  # the default branch it started from


def hook_reads_the_bots_proofs() -> list[Interaction]:
    """rfd-status in PR 7's CI run asks for the PR's comments once: the bot's status comment
    names its commit; mallory's comment names the hand-written one in the same words."""
    status = comment(
        3001,
        7,
        f"<!-- rfd-bot:commit:{HOOK_BOT_COMMIT} -->\n<!-- rfd-bot:status:7 -->\n## RFD status",
    )
    planted = comment(
        3002, 7, f"<!-- rfd-bot:commit:{HOOK_HAND_COMMIT} -->\nlgtm", person("mallory")
    )
    return [call("GET", "/issues/7/comments", query="per_page=100&page=1", reply=[status, planted])]


CASSETTES[
    "test_hook_signoffs/test_a_commit_the_bots_comments_name_counts_and_a_hand_written_one_does_not"
] = hook_reads_the_bots_proofs()


HUBOT_APPROVAL = (
    "3d69b677b3a437374c49ca8d57bdbac516edec81",
    "0ee7a9bca6d6b1b4121c1341bed1ea76a927c217",
)  # as in two_reviewers
SIGNED_BY_HAND = "9f5033616cfc7b7e0728b3d951ae40ee030552f8"  # the author's ledger commit
SIGNED_BY_HAND_BLOB = "afb8fe8eeebd191ed399f91d0f93b3166939cdc7"


def status_deleted() -> list[Interaction]:
    """hubot's approval, proven by the status comment alone; the comment is deleted and the
    PR's author commits a ledger adding mona and an FCP; hubot's `/rfd accept` is refused."""
    pr = Thread()
    approve = signed(
        pr,
        (1001, "hubot", "/rfd approve"),
        "maintain",
        team=False,
        made=HUBOT_APPROVAL,
        status="consensus-status-hubot",
    )
    pr.comments = [c for c in pr.comments if c["id"] != STATUS]  # deleted by someone
    by_hand = commit_item(SIGNED_BY_HAND, user("Codertocat"), "test@example.com", "Test User")
    by_hand["commit"]["message"] = "sign-offs"
    pr.commits.append(by_hand)
    accept = [
        pr.said(1081, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1081),
        pr.pull(),
        files(SIGNED_BY_HAND_BLOB),
        pushes((PR_HEAD, HUBOT_APPROVAL[0])),
        pr.listed_commits(),
        react("confused", 1081),
        pr.replied("consensus-accept-status-deleted", 3081),
    ]
    return approve + accept


CASSETTES[G + "test_deleting_the_status_comment_loses_no_proof"] = status_deleted()


def edited_and_deleted() -> list[Interaction]:
    """The first three sign-offs of two_reviewers; then comment 1001 is deleted and mona
    edits 1002 (no command left) and 1003 (another concern text); hubot's accept is refused."""
    pr = Thread()
    concern = "/rfd concern Proxies may buffer the chunked response"
    out = [
        *signed(
            pr,
            (1001, "hubot", "/rfd approve"),
            "maintain",
            team=False,
            made=HUBOT_APPROVAL,
            status="consensus-status-hubot",
        ),
        *signed(
            pr,
            (1002, "mona", "/rfd approve"),
            "write",
            team=True,
            made=(
                "2f5c1e4557b64f3c4fbfa5a2cc082ab4125f124f",
                "36bee8492c67d8cfc5671ac5376e5e122d1d941c",
            ),
            status="consensus-status-mona",
        ),
        *signed(
            pr,
            (1003, "mona", concern),
            "write",
            team=True,
            made=(
                "aebc3a244d122afd8a0e3f47a088ef8a9c0c9502",
                "5957778410c1edd220c592df1265212a7afc2af9",
            ),
            status="consensus-status-concern",
        ),
    ]
    edits = {
        1002: "Approving was premature, sorry.",
        1003: "/rfd concern Proxies buffer it, and retries repeat it",
    }
    kept = []
    for c in pr.comments:
        if c["id"] == 1001:
            continue  # deleted
        if c["id"] in edits:
            c = {**c, "body": edits[c["id"]], "updated_at": "2026-11-22T03:00:00Z"}
        kept.append(c)
    pr.comments = kept
    return [
        *out,
        pr.said(1091, "hubot", "/rfd accept"),
        perm("hubot", "maintain"),
        react("eyes", 1091),
        pr.pull(),
        files(pr.ledger),
        pr.listed_commits(),
        react("confused", 1091),
        pr.replied("consensus-accept-edited", 3091),
    ]


CASSETTES[G + "test_sign_off_comments_count_as_they_stand_now"] = edited_and_deleted()


def hook_reads_the_bots_pushes() -> list[Interaction]:
    """The same run with the bot's status comment deleted: only mallory's comment is left;
    GitHub's activity record of branch rfd-001 shows the bot's push of its commit."""
    planted = comment(
        3002, 7, f"<!-- rfd-bot:commit:{HOOK_HAND_COMMIT} -->\nlgtm", person("mallory")
    )
    query = urlencode(
        {
            "ref": "refs/heads/rfd-001",
            "actor": BOT["login"],
            "activity_type": "push",
            "per_page": 100,
        }
    )
    pushed = {
        "id": 4100,
        "node_id": "AC_kwDOA4100",
        "before": HOOK_MAIN,
        "after": HOOK_BOT_COMMIT,
        "ref": "refs/heads/rfd-001",
        "actor": BOT,
        "timestamp": "2026-11-22T02:00:00Z",
        "activity_type": "push",
    }
    return [
        call("GET", "/issues/7/comments", query="per_page=100&page=1", reply=[planted]),
        call("GET", "/activity", query=query, reply=[pushed]),
    ]


CASSETTES["test_hook_signoffs/test_with_the_status_comment_deleted_the_bots_push_is_the_proof"] = (
    hook_reads_the_bots_pushes()
)
