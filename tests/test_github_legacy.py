"""An RFD Accepted before rfd-bot (by hand, with no plan.json and no tracking issue), on
GitHub: ``/rfd accept`` on a pull request that changes it takes it on as it is — its plan
extracted, its tracking issue opened, the status left alone — and ``/rfd implement`` says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import BRANCH, RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
WEB = "https://github.com/Codertocat/Hello-World"
ACCEPTED = RFD_TEXT.replace("Status**: Discussion", "Status**: Accepted")
EDITED = ACCEPTED.replace("Excel output.", "Excel output, and PDF.")
"""The pull request's change: a line of the RFD, its status untouched."""
PLAN = "docs/rfd/.state/045/plan.json"


RFC_CONFIG = """[bot]
seconds_between_writes = 0

[rfd]
dir = "text"

[conventions]
id_digits = 4
tracking_issue = "state"

[statuses]
accepted = "accepted"
ready-for-release = "implemented"
released = "implemented"
discontinued = "abandoned"
"""
"""What `rfd init` writes for an RFC repository (tests/dialect_corpora.py), shortened."""
RFC_PATH = "text/0011-requests-for-discussion.md"
RFC_TEXT = """\
---
stage: accepted
start-date: 2023-01-15T00:00:00.000Z
release-date:
release-versions:
teams: # delete teams that aren't relevant
  - learning
prs:
  accepted: https://github.com/acme/rfcs/pull/11
project-link:
---

# Requests for Discussion

## Summary

Requests for Discussion for everyone.

## Motivation

Users ask.

## Detailed design

The design.

## Implementation Plan

### Phase 1: Template

The template and its sections.

### Phase 2: Index

The index page lists every RFC by stage.
"""


def comment(body: str, sender: str = "hubot", cid: int = 492700400) -> dict[str, object]:
    changes = {"comment.body": body, "comment.user.login": sender, "sender.login": sender}
    return payload("issue_comment.created.pr", **changes, **{"comment.id": cid})


def legacy_world(tmp_path: Path, main_text: str = ACCEPTED) -> tuple[Path, Path]:
    """RFD 045 on main as ``main_text`` (Accepted by hand: no plan.json, no tracking issue),
    and pull request #2 editing one line of it."""
    pr_text = EDITED if main_text == ACCEPTED else EDITED.replace("Discussion", "Accepted")
    return make_world(tmp_path, {RFD_PATH: main_text}, {RFD_PATH: pr_text})


def on_branch(origin: Path, path: str) -> str:
    return git(origin, "show", f"{BRANCH}:{path}")


def issues_opened(vcr: Any) -> list[dict[str, Any]]:
    return [
        json.loads(r.body)
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues")
    ]


@pytest.mark.vcr
def test_accept_takes_on_an_rfd_accepted_before_the_bot(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = legacy_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    text = on_branch(origin, RFD_PATH)
    assert "- **Status**: Accepted" in text  # not promoted: it was Accepted already
    assert f"- **Tracking Issue**: [#12]({WEB}/issues/12)" in text
    plan = json.loads(on_branch(origin, PLAN))
    assert [p["title"] for p in plan] == ["Writer", "Endpoint"]
    log = git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert log == ["RFD 045: tracked by rfd-bot", "pr"]
    (opened,) = issues_opened(vcr)
    assert opened["title"] == "RFD 045: Streaming exports"
    assert lines(opened["body"])[0] == (  # discussed before the bot: no pull request named
        f"Tracking issue for [RFD 045: Streaming exports]({WEB}/blob/{BRANCH}/{RFD_PATH})."
    )
    assert lines(opened["body"])[-2:] == ["- [ ] 1. Writer", "- [ ] 2. Endpoint"]
    *_, reply = bodies_sent(vcr)
    pushed = git(origin, "rev-parse", BRANCH).strip()
    assert lines(reply) == [
        "🚀 RFD 045 was already Accepted on `main`: its plan has 2 phases, tracking issue #12"
        " (the status stays Accepted).",
        f"Committed as [`{pushed[:12]}`]({WEB}/commit/{pushed}).",
        "**Next step:** merge this pull request into `main`, then comment `/rfd implement` on"
        " tracking issue #12 to start phase 1: Writer.",
    ]


@pytest.mark.vcr
def test_accept_again_opens_no_second_tracking_issue(tmp_path: Path, vcr: Any) -> None:
    """A second `/rfd accept` (a new comment) finds the plan and the issue on the branch."""
    origin, checkout = legacy_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    first = git(origin, "rev-parse", BRANCH)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", cid=492700401)) == 0
    assert git(origin, "rev-parse", BRANCH) == first  # nothing committed the second time
    assert len(issues_opened(vcr)) == 1
    *_, again = bodies_sent(vcr)
    assert lines(again) == [
        "Every RFD of this pull request is already accepted: nothing to do.",
        f"- [RFD 045]({WEB}/blob/{BRANCH}/{RFD_PATH}) is Accepted, tracking issue #12",
    ]


@pytest.mark.vcr
def test_a_reader_cannot_take_on_an_accepted_rfd(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = legacy_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "octocat")) == 0
    assert [lines(text) for text in bodies_sent(vcr)] == [
        ["@octocat `/rfd accept` needs write access to this repository; you have read access."]
    ]
    assert git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines() == ["pr"]


@pytest.mark.vcr
def test_an_rfd_marked_accepted_on_the_pull_request_only_is_not_taken_on(
    tmp_path: Path, vcr: Any
) -> None:
    """Accepted by hand on the PR, Discussion on main: taking it on would skip the accept
    step (its sign-offs and checks), so the bot opens nothing and says how to accept it."""
    origin, checkout = legacy_world(tmp_path, main_text=RFD_TEXT)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    assert issues_opened(vcr) == []
    assert git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines() == ["pr"]
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            "RFD 045 is marked Accepted on this pull request but not on `main` (Discussion"
            " there): the bot's accept makes an RFD Accepted, after its checks and the sign-offs"
            " the repository asks for. **Next step:** set its Status back to Discussion on this"
            " branch, then comment `/rfd accept`."
        ]
    ]


@pytest.mark.vcr
def test_implement_on_the_pull_request_names_accept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """Before `/rfd accept` took the RFD on: not "merge first" (it is Accepted on main)."""
    from tests.test_github_slash import scripted_model

    scripted_model(monkeypatch)  # never asked: the answer comes before any model call
    _, checkout = legacy_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd implement")) == 0
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            "RFD 045 is Accepted on `main` but has no plan there and no tracking issue: it was"
            " accepted without the bot. **Next step:** comment `/rfd accept` on this pull"
            " request: the bot extracts the plan and opens the tracking issue (the status stays"
            " Accepted); merge this pull request, then comment `/rfd implement` on the tracking"
            " issue."
        ]
    ]


@pytest.mark.vcr
def test_implement_on_a_merged_pull_request_names_accept(tmp_path: Path, vcr: Any) -> None:
    """Only `main` holds the RFD, Accepted by hand: the answer says where `/rfd accept`
    works and what it does, instead of "it is opened when the RFD is accepted"."""
    _, checkout = make_world(tmp_path, {RFD_PATH: ACCEPTED}, {})
    data = comment("/rfd implement", "Codertocat")
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            f"RFD 045 is Accepted on [`main`]({WEB}/blob/main/{RFD_PATH}) but has no tracking"
            " issue: it was accepted without the bot. **Next step:** open a pull request that"
            " edits the file and comment `/rfd accept` there: the bot extracts the RFD's plan and"
            " opens its tracking issue (the status stays Accepted). `/rfd implement` works on"
            " the tracking issue afterwards."
        ]
    ]


@pytest.mark.vcr
@pytest.mark.parametrize(
    ("main_text", "next_step"),
    [
        (
            ACCEPTED,
            "**Next step:** it was accepted without the bot and has no plan or tracking issue"
            " yet: comment `/rfd accept` here to extract its plan and open its tracking issue"
            " (the status stays Accepted).",
        ),
        (
            RFD_TEXT,
            "**Next step:** its Status was set to Accepted by hand on this pull request: set it"
            " back to Discussion, then comment `/rfd accept` (the bot's accept checks the plan"
            " and the sign-offs).",
        ),
    ],
    ids=["accepted-on-main", "accepted-here-only"],
)
def test_the_status_comment_names_the_way_on(
    tmp_path: Path, vcr: Any, main_text: str, next_step: str
) -> None:
    """Not "merge this pull request; its plan has no phase to implement"."""
    _, checkout = legacy_world(tmp_path, main_text)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd status", "Codertocat")) == 0
    status, *_ = bodies_sent(vcr)
    assert next_step in lines(status)


@pytest.mark.vcr
def test_accept_of_an_rfd_without_a_plan_says_what_to_write(tmp_path: Path, vcr: Any) -> None:
    """The same error accept gives a Draft without a plan: the line, what to write."""
    planless = ACCEPTED.split("## Implementation Plan")[0] + "## Implementation Plan\n\nLater.\n"
    edited = planless.replace("Excel output.", "Excel output, and PDF.")
    origin, checkout = make_world(tmp_path, {RFD_PATH: planless}, {RFD_PATH: edited})
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    assert issues_opened(vcr) == []
    assert git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines() == ["pr"]
    (reply,) = bodies_sent(vcr)
    assert lines(reply)[:3] == [
        "😕 `/rfd accept` failed:",
        "```",
        f"{RFD_PATH}:36: no plan to extract: the Implementation Plan section has no phase"
        " headings; write one heading per phase, e.g. `### Phase 1: Title`, or a numbered list of"
        " phases, e.g. `1. **Title** what it does`; no AI model is configured to read the plan"
        " from the text instead",
    ]
    assert lines(reply)[-1] == "Nothing was left half-done: fix this, then comment again."


@pytest.mark.vcr
def test_an_rfc_accepted_before_the_bot_is_taken_on(tmp_path: Path, vcr: Any) -> None:
    """An RFC's front matter `stage: accepted`: the plan from its phases, the file left as the
    team wrote it (the repository keeps tracking issues in the state directory only), the
    tracking issue opened with both phases."""
    edited = RFC_TEXT.replace("Users ask.", "Users ask for it.")
    main = {".github/rfd.toml": RFC_CONFIG, RFC_PATH: RFC_TEXT}
    origin, checkout = make_world(tmp_path, main, {RFC_PATH: edited})
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    assert on_branch(origin, RFC_PATH) == edited  # `stage: accepted` kept, no header added
    plan = json.loads(on_branch(origin, "text/.state/0011/plan.json"))
    assert [p["title"] for p in plan] == ["Template", "Index"]
    (opened,) = issues_opened(vcr)
    assert opened["title"] == "RFD 0011: Requests for Discussion"
    assert lines(opened["body"])[-2:] == ["- [ ] 1. Template", "- [ ] 2. Index"]
    *_, reply = bodies_sent(vcr)
    assert lines(reply)[0] == (
        "🚀 RFD 0011 was already accepted on `main`: its plan has 2 phases, tracking issue #12"
        " (the status stays accepted)."  # the RFC's own word (`stage: accepted`)
    )


@pytest.mark.vcr
def test_the_accept_label_takes_it_on_too(tmp_path: Path, vcr: Any) -> None:
    """`rfd:accept` as `/rfd accept`: the same commit and reply, and the label comes off."""
    origin, checkout = legacy_world(tmp_path)
    labeled = payload("pull_request.labeled.accept", **{"sender.login": "hubot"})
    assert run_bot(tmp_path, checkout, "pull_request_target", labeled) == 0
    assert "- **Status**: Accepted" in on_branch(origin, RFD_PATH)
    assert len(issues_opened(vcr)) == 1
    *_, reply = bodies_sent(vcr)
    assert lines(reply)[0] == (
        "🚀 RFD 045 was already Accepted on `main`: its plan has 2 phases, tracking issue #12"
        " (the status stays Accepted)."
    )
    removed = [r for r in vcr.requests if r.method == "DELETE"]
    assert [r.path for r in removed] == [
        "/repos/Codertocat/Hello-World/issues/2/labels/rfd%3Aaccept"
    ]


PROPOSAL = "text/0000-cold-storage-tier.md"
PROPOSAL_TEXT = """\
---
stage: accepted
start-date: 2026-11-20T00:00:00.000Z
release-date:
release-versions:
teams: # delete teams that aren't relevant
  - data
prs:
  accepted: # Fill this in with the URL for the Proposal RFC PR
project-link:
---

# Cold storage tier

## Summary

Old records move to cheaper storage.

## Implementation Plan

### Phase 1: Tiering

Move records older than a year.

### Phase 2: Restore

Bring a record back on demand.
"""
"""An RFC proposal as Ember's template leaves it: ``stage: accepted`` and no PR yet."""


@pytest.mark.vcr
def test_accept_of_an_rfc_proposal_gives_it_the_pull_requests_number(
    tmp_path: Path, vcr: Any
) -> None:
    """The corpus numbers RFCs by pull request (RFC 0011 links pull/11): pull request #2's
    proposal becomes RFD 0002 — renamed, its `prs: accepted:` filled with the pull request —
    its plan extracted and its tracking issue opened, said in the reply."""
    main = {".github/rfd.toml": RFC_CONFIG, RFC_PATH: RFC_TEXT}
    origin, checkout = make_world(tmp_path, main, {RFC_PATH: RFC_TEXT, PROPOSAL: PROPOSAL_TEXT})
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    numbered = "text/0002-cold-storage-tier.md"
    names = git(origin, "ls-tree", "-r", "--name-only", BRANCH, "text").split()
    assert numbered in names and PROPOSAL not in names
    text = on_branch(origin, numbered)
    assert f"prs:\n  accepted: {WEB}/pull/2\n" in text
    assert text.replace(f"{WEB}/pull/2", "# Fill this in with the URL for the Proposal RFC PR") == (
        PROPOSAL_TEXT
    )
    plan = json.loads(on_branch(origin, "text/.state/0002/plan.json"))
    assert [p["title"] for p in plan] == ["Tiering", "Restore"]
    (opened,) = issues_opened(vcr)
    assert opened["title"] == "RFD 0002: Cold storage tier"
    *_, reply = bodies_sent(vcr)
    assert lines(reply)[:2] == [
        f"🔢 `{PROPOSAL}` is now RFD 0002 (`{numbered}`): the number of this pull request, #2,"
        " as the repository numbers its RFCs.",
        "🚀 RFD 0002 is accepted: 2 phases, tracking issue #12.",
    ]


WARM = "text/0000-warm-cache.md"
WARM_TEXT = PROPOSAL_TEXT.replace("# Cold storage tier", "# Warm cache")


@pytest.mark.vcr
def test_a_pull_request_adding_two_rfc_proposals_is_refused(tmp_path: Path, vcr: Any) -> None:
    """One pull request, one number: two proposals in it are refused, nothing renamed."""
    main = {".github/rfd.toml": RFC_CONFIG, RFC_PATH: RFC_TEXT}
    pr = {RFC_PATH: RFC_TEXT, PROPOSAL: PROPOSAL_TEXT, WARM: WARM_TEXT}
    origin, checkout = make_world(tmp_path, main, pr)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    names = git(origin, "ls-tree", "-r", "--name-only", BRANCH, "text").split()
    assert PROPOSAL in names and WARM in names and "text/.state/0002/plan.json" not in names
    *_, reply = bodies_sent(vcr)
    assert lines(reply)[0] == (
        "This pull request adds 2 RFC proposals (`cold-storage-tier`, `warm-cache`): one pull"
        " request numbers one. **Next step:** move all but one into pull requests of their own,"
        " then comment `/rfd accept` again."
    )
