"""Sign-offs on a pull request, end to end through `rfd bot`: approve, concern, resolve, fcp."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git
from tests.github_world import BRANCH, CONFIG, RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
LEDGER = "docs/rfd/.state/045/consensus.json"
CONSENSUS = """
[consensus]
reviewers = ["hubot", "@Codertocat/architects"]
approvals = 2
fcp_days = 7
fcp_accepts = true
"""


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    return make_world(tmp_path, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT})


PR_URL = "https://github.com/Codertocat/Hello-World/pull/2"


def comment(body: str, sender: str, cid: int) -> dict[str, object]:
    changes = {
        "comment.body": body,
        "comment.user.login": sender,
        "sender.login": sender,
        "comment.id": cid,
        "comment.html_url": f"{PR_URL}#issuecomment-{cid}",
    }
    return payload("issue_comment.created.pr", **changes)


def ledger(origin: Path) -> dict[str, list[dict[str, object]]]:
    data: dict[str, list[dict[str, object]]] = json.loads(git(origin, "show", f"{BRANCH}:{LEDGER}"))
    return data


@pytest.mark.vcr
def test_two_reviewers_approve_a_concern_blocks_accept_until_resolved(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    origin, checkout = world

    def say(body: str, sender: str, cid: int) -> None:
        assert run_bot(tmp_path, checkout, "issue_comment", comment(body, sender, cid)) == 0
        git(checkout, "fetch", "-q", "origin")

    say("/rfd approve", "hubot", 1001)
    say("/rfd approve", "mona", 1002)  # a member of @Codertocat/architects
    approvals = ledger(origin)["approvals"]
    assert [(a["login"], a["reviewer"]) for a in approvals] == [
        ("hubot", "hubot"),
        ("mona", "@Codertocat/architects"),
    ]
    say("/rfd concern Proxies may buffer the chunked response", "mona", 1003)
    say("/rfd accept", "hubot", 1004)  # refused: the reply names the concern
    (refusal,) = [r.body for r in vcr.requests if r.body and b"c1004-accept" in r.body]
    assert (
        "- concern 1 by mona is open: Proxies may buffer the chunked response"
        in json.loads(refusal)["body"]
    )
    assert "- **Status**: Discussion" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
    say("/rfd resolve 1", "mona", 1005)
    assert ledger(origin)["concerns"][0]["resolved_by"] == "mona"
    say("/rfd fcp", "hubot", 1006)
    fcp = ledger(origin)["fcp"]
    assert isinstance(fcp, dict) and fcp["by"] == "hubot"
    # one dashboard, posted by the first sign-off and edited by each later one
    dashboard = [r for r in vcr.requests if r.body and b"<!-- rfd-bot:status:2 -->" in r.body]
    assert [r.method for r in dashboard] == ["POST"] + ["PATCH"] * 4
    last = json.loads(dashboard[-1].body)["body"]
    # each sign-off answered with 🚀 alone: the status comment names the bot's commits, the
    # proof that lets the next run count them (a ledger commit it does not name counts nothing)
    made = git(origin, "rev-list", BRANCH, "--", LEDGER).split()
    assert len(made) == 5
    assert all(f"<!-- rfd-bot:commit:{sha} -->" in last.split("\n###")[0] for sha in made)
    assert "the final comment period runs until 2026-12-05 02:00 UTC." in last


@pytest.mark.vcr
def test_someone_not_among_the_reviewers_cannot_approve(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    origin, checkout = world
    data = comment("/rfd approve", "octocat", 1011)
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    files = git(origin, "ls-tree", "-r", "--name-only", BRANCH).split()
    assert LEDGER not in files


# approved at the RFD's revision (its git blob, as `/rfd approve` records it)
ELAPSED = """{
  "approvals": [
    {"login": "hubot", "revision": "cf966ebba4a58ec177a17b71f7328274d0aadcf6", "at": 1795000000,
     "reviewer": "hubot"},
    {"login": "mona", "revision": "cf966ebba4a58ec177a17b71f7328274d0aadcf6", "at": 1795000000,
     "reviewer": "@Codertocat/architects"}
  ],
  "concerns": [],
  "fcp": {"by": "hubot", "start": 1795140000, "end": 1795744800, "paused": false}
}
"""


@pytest.mark.parametrize("accepts", [True, False], ids=["accepts", "announces"])
@pytest.mark.vcr
def test_the_scheduled_run_ends_an_elapsed_final_comment_period(
    tmp_path: Path, accepts: bool, vcr: Any
) -> None:
    """The job may not write code: it comments (and applies the accept label when
    configured to); the ledger needs no change, the gate reads the end by the clock."""
    config = CONFIG + CONSENSUS.replace("true", "true" if accepts else "false")
    origin, checkout = make_world(  # the sign-offs as merged: on the default branch
        tmp_path, {".github/rfd.toml": config, LEDGER: ELAPSED}, {RFD_PATH: RFD_TEXT}
    )
    assert run_bot(tmp_path, checkout, "workflow_dispatch", payload("workflow_dispatch")) == 0
    said = json.loads(vcr.requests[3].body)["body"]
    assert "The final comment period of RFD 045 ended on 2026-11-27 02:00 UTC" in said
    labelled = [r for r in vcr.requests if r.path.endswith("/labels")]
    assert len(labelled) == (1 if accepts else 0)
    assert ledger(origin)["fcp"] == json.loads(ELAPSED)["fcp"]
    status = json.loads(vcr.requests[-1].body)["body"]  # the dashboard, edited in place
    assert "Final comment period ended 2026-11-27 02:00 UTC.\n\n✅ Ready to accept." in status


@pytest.mark.vcr
def test_the_end_of_a_final_comment_period_is_announced_once(tmp_path: Path) -> None:
    config = CONFIG + CONSENSUS.replace("true", "false")
    _, checkout = make_world(
        tmp_path, {".github/rfd.toml": config, LEDGER: ELAPSED}, {RFD_PATH: RFD_TEXT}
    )
    assert run_bot(tmp_path, checkout, "workflow_dispatch", payload("workflow_dispatch")) == 0


DISCUSSION_LABEL = {  # the PR's lifecycle label, as the approval's run added it
    "id": 208045946,
    "node_id": "MDU6TGFiZWwyMDgwNDU5NDY=",
    "url": "https://api.github.com/repos/Codertocat/Hello-World/labels/rfd%3A%20discussion",
    "name": "rfd: discussion",
    "color": "fbca04",
    "default": False,
    "description": "RFD status, kept by rfd-bot: Discussion",
}


@pytest.mark.vcr
def test_a_push_after_an_approval_shows_it_as_of_an_older_revision(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    origin, checkout = world
    data = comment("/rfd approve", "hubot", 1021)
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    seed = tmp_path / "seed"
    git(seed, "pull", "-q", str(origin), BRANCH)
    approved = git(seed, "rev-parse", "HEAD").strip()
    (seed / RFD_PATH).write_text(RFD_TEXT + "\nOne more risk: slow clients.\n")
    git(seed, "commit", "-q", "-am", "an edit after the approval")
    git(seed, "push", "-q", str(origin), f"HEAD:refs/heads/{BRANCH}")
    pushed = git(seed, "rev-parse", "HEAD").strip()
    now = {
        "before": approved,
        "after": pushed,
        "pull_request.head.sha": pushed,
        "pull_request.labels": [DISCUSSION_LABEL],
    }
    data = payload("pull_request.synchronize", **now)
    assert run_bot(tmp_path, checkout, "pull_request", data) == 0
    status = json.loads(vcr.requests[-1].body)["body"]
    # the approval names the commit that brought the content approved, never its blob
    brought = git(origin, "log", "--format=%H", "--diff-filter=A", BRANCH, "--", RFD_PATH).strip()
    commit = f"https://github.com/Codertocat/Hello-World/commit/{brought}"
    assert f"| hubot | ✅ at [`{brought[:7]}`]({commit}), of an older revision |" in status
    assert "cf966eb" not in status


FORGED = (
    "Not counted on RFD 045: an approval by hubot, an approval by mona, a final comment "
    "period — written into `consensus.json` on the branch, not through GitHub"
)


@pytest.mark.vcr
def test_a_ledger_written_by_hand_on_the_branch_counts_for_nothing(
    tmp_path: Path, vcr: Any
) -> None:
    """The PR's author commits a ledger saying both reviewers approved and the final
    comment period ended: the scheduled run neither ends it nor applies the accept label,
    the dashboard waits on both reviewers, and `/rfd accept` is refused, naming the
    forged entries."""
    origin, checkout = make_world(
        tmp_path, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT, LEDGER: ELAPSED}
    )
    assert run_bot(tmp_path, checkout, "workflow_dispatch", payload("workflow_dispatch")) == 0
    assert not [r for r in vcr.requests if r.path.endswith("/labels")]
    (status,) = [json.loads(r.body)["body"] for r in vcr.requests if r.method == "PATCH"]
    assert "| hubot | waiting |" in status and "sign-offs 0 of 2" in status
    assert f"> {FORGED}" in status  # the Decision block names what it left out
    assert FORGED in (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "hubot", 1031)) == 0
    (refusal,) = [r.body for r in vcr.requests if r.body and b"c1031-accept" in r.body]
    said = json.loads(refusal)["body"]
    assert "approvals: 0 of 2, waiting on hubot, @\u200bCodertocat/architects" in said
    assert FORGED in said
    assert "- **Status**: Discussion" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")


@pytest.mark.vcr
def test_a_sign_off_over_a_forged_ledger_counts_and_names_what_it_left_out(
    tmp_path: Path, vcr: Any
) -> None:
    """hubot approves a PR whose author committed a ledger saying all is signed off: the
    ledger the bot commits holds hubot's approval alone, and instead of a 🚀 alone the bot
    replies, naming the entries it left out."""
    origin, checkout = make_world(
        tmp_path, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT, LEDGER: ELAPSED}
    )
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd approve", "hubot", 1041)) == 0
    written = ledger(origin)
    assert [a["login"] for a in written["approvals"]] == ["hubot"]
    assert written["fcp"] is None
    (reply,) = [r.body for r in vcr.requests if r.body and b"reply:c1041-approve" in r.body]
    said = json.loads(reply)["body"]
    assert FORGED in said
    # the revision approved is shown as the commit that brought it, never as a blob
    blob = written["approvals"][0]["revision"]
    brought = git(origin, "log", "--format=%H", "--find-object", blob, "--all").split()[-1]
    link = f"[`{brought[:7]}`](https://github.com/Codertocat/Hello-World/commit/{brought})"
    assert f"hubot approved RFD 045 at {link}." in said
    assert f"| hubot | ✅ at {link} |" in said
    assert blob[:7] not in said


AUTHORED = """
[consensus]
reviewers = ["hubot", "Codertocat", "mona"]
approvals = 2
"""
CONCERN_1 = """{
  "approvals": [],
  "concerns": [{"number": 1, "author": "mona", "text": "Proxies may buffer", "link": "",
                "at": 1795000000, "resolved_by": ""}],
  "fcp": null
}
"""
# (case id, the RFD's Authors line, who comments, what, a ledger on the default branch)
BY_AN_AUTHOR = [
    ("the PR author", "@octocat", "Codertocat", "/rfd approve", None),
    ("Name (@login)", "Hubot Person (@hubot)", "hubot", "/rfd approve", None),
    ("a profile link", "[@hubot](https://github.com/hubot)", "hubot", "/rfd approve", None),
    ("@login", "@hubot", "hubot", "/rfd approve", None),
    ("a plain login", "hubot", "hubot", "/rfd approve", None),
    # an email no author line links to a login: a commit of the PR carries it, and GitHub
    # says hubot made that commit
    ("Name <email>", "Hubot Person <hubot@example.org>", "hubot", "/rfd approve", None),
    ("resolving a concern of another", "@octocat", "Codertocat", "/rfd resolve 1", CONCERN_1),
]


@pytest.mark.parametrize(
    ("authors", "who", "said", "main_ledger"),
    [c[1:] for c in BY_AN_AUTHOR],
    ids=[c[0] for c in BY_AN_AUTHOR],
)
@pytest.mark.vcr
def test_an_author_cannot_approve_or_resolve_anothers_concern(
    tmp_path: Path, authors: str, who: str, said: str, main_ledger: str | None, vcr: Any
) -> None:
    """However the Authors field names them, and as the PR's author: refused, nothing
    recorded."""
    text = RFD_TEXT.replace("- **Authors**: @octocat", f"- **Authors**: {authors}")
    main = {".github/rfd.toml": CONFIG + AUTHORED} | ({LEDGER: main_ledger} if main_ledger else {})
    origin, checkout = make_world(tmp_path, main, {RFD_PATH: text})
    before = git(origin, "rev-parse", BRANCH)
    assert run_bot(tmp_path, checkout, "issue_comment", comment(said, who, 1051)) == 0
    assert git(origin, "rev-parse", BRANCH) == before  # nothing committed
    (reply,) = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues/2/comments")
    ]
    assert "an RFD's author cannot" in reply


@pytest.mark.vcr
def test_a_trailer_written_by_hand_does_not_pass_for_the_bots_commit(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """The PR's author pushes a commit whose message carries the trailer the bot would write
    for a reviewer's next comment: the concern is recorded all the same."""
    origin, checkout = world
    seed = tmp_path / "seed"
    git(seed, "commit", "-q", "--allow-empty", "-m", "Tidy up\n\nRfd-Bot-Event: c1061")
    git(seed, "push", "-q", str(origin), f"HEAD:refs/heads/{BRANCH}")
    data = comment("/rfd concern Proxies may buffer the chunked response", "mona", 1061)
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    (concern,) = ledger(origin)["concerns"]
    assert concern["author"] == "mona"
    assert concern["text"] == "Proxies may buffer the chunked response"
    said = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.path.endswith("/comments") and r.method == "POST"
    ]
    (status,) = said  # the status comment alone: no "an earlier run already did this" reply
    assert "- **Concern 1** by mona: Proxies may buffer the chunked response" in status
    assert [
        json.loads(r.body)["content"]
        for r in vcr.requests
        if r.path.endswith("/1061/reactions") and r.method == "POST"
    ] == ["eyes", "rocket"]


@pytest.mark.vcr
def test_deleting_the_status_comment_loses_no_proof(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """hubot approves (answered by 🚀 alone: the status comment was the only comment naming
    the bot's commit); someone deletes the status comment and the PR's author pushes a ledger
    adding mona's approval and an ended FCP.  `/rfd accept`: hubot's approval still counts
    (GitHub's record says the bot pushed that commit), the forged entries still do not."""
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd approve", "hubot", 1001)) == 0
    seed = tmp_path / "seed"
    git(seed, "pull", "-q", str(origin), BRANCH)
    written = json.loads(ELAPSED)
    written["approvals"] = [*ledger(origin)["approvals"], written["approvals"][1]]
    (seed / LEDGER).write_text(json.dumps(written, indent=2) + "\n", encoding="utf-8")
    git(seed, "commit", "-q", "-am", "sign-offs")
    git(seed, "push", "-q", str(origin), f"HEAD:refs/heads/{BRANCH}")
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "hubot", 1081)) == 0
    (refusal,) = [r.body for r in vcr.requests if r.body and b"c1081-accept" in r.body]
    said = json.loads(refusal)["body"]
    assert "approvals: 1 of 2, waiting on @\u200bCodertocat/architects" in said
    assert "Not counted on RFD 045: an approval by mona, a final comment period" in said
    assert "an approval by hubot" not in said
    assert "- **Status**: Discussion" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")


@pytest.mark.vcr
def test_sign_off_comments_count_as_they_stand_now(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """hubot and mona approve, mona raises a concern; then hubot's comment is deleted, mona
    edits her approval into a remark and rewords her concern.  `/rfd accept`: neither
    approval counts any more, the concern is open as it now reads, and the reply says why."""
    origin, checkout = world
    for body, sender, cid in (
        ("/rfd approve", "hubot", 1001),
        ("/rfd approve", "mona", 1002),
        ("/rfd concern Proxies may buffer the chunked response", "mona", 1003),
    ):
        assert run_bot(tmp_path, checkout, "issue_comment", comment(body, sender, cid)) == 0
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "hubot", 1091)) == 0
    (refusal,) = [r.body for r in vcr.requests if r.body and b"c1091-accept" in r.body]
    said = json.loads(refusal)["body"]
    assert "approvals: 0 of 2, waiting on hubot, @\u200bCodertocat/architects" in said
    assert "concern 1 by mona is open: Proxies buffer it, and retries repeat it" in said
    assert (
        "On RFD 045: the approval by hubot no longer counts: its comment was deleted; the "
        "approval by mona no longer counts: its comment was edited and no longer says "
        "`/rfd approve`; concern 1 counts as its comment now says (edited): Proxies buffer it, "
        "and retries repeat it."
    ) in said
    assert "Not counted" not in said  # nothing here was written by hand
    assert "- **Status**: Discussion" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
