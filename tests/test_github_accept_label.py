"""Label rfd:accept → plan, status, tracking issue, one commit; refusals; config errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import (
    BRANCH,
    RFD_PATH,
    RFD_TEXT,
    make_world,
    payload,
    run_bot,
)

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
LABELED = "pull_request.labeled.accept"
PLAN = '[{"title": "Writer", "description": "w"}, {"title": "Endpoint", "description": "e"}]\n'


def by(login: str) -> dict[str, object]:
    return payload(LABELED, **{"sender.login": login})


@pytest.mark.vcr
def test_accept_commits_once_and_opens_the_tracking_issue(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("hubot")) == 0
    log = git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert log == ["RFD 045: accepted by rfd-bot", "pr"]
    assert "- **Status**: Accepted" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
    tracking, status, reply = bodies_sent(vcr)
    assert "**Progress:** 0/2 phases ░░░░░░░░░░░░░░░░░░░░ 0%" in lines(tracking)
    assert "✓ Draft → ✓ Discussion → **Accepted** → Implemented" in lines(status)
    pushed = git(origin, "rev-parse", BRANCH).strip()  # the commit's page, not a bare sha
    assert lines(reply) == [
        "🚀 RFD 045 is Accepted: 2 phases, tracking issue #12.",
        f"Committed as [`{pushed[:12]}`](https://github.com/Codertocat/Hello-World/commit/{pushed}).",
        "**Next step:** merge this pull request into `main`, then comment `/rfd implement` on"
        " tracking issue #12 to start phase 1: Writer.",
    ]


@pytest.mark.vcr
def test_the_tracking_issue_links_the_rfd_at_the_pr_head_before_the_merge(
    tmp_path: Path, vcr: Any
) -> None:
    """Before the merge the RFD is only on the PR's branch: a link to `main` would be a 404."""
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("hubot")) == 0
    (opened,) = [
        json.loads(r.body)
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues")
    ]
    web = "https://github.com/Codertocat/Hello-World"
    assert f"[RFD 045: Streaming exports]({web}/blob/{BRANCH}/{RFD_PATH})" in opened["body"]
    assert f"Discussed in [#2]({web}/pull/2)" in opened["body"]
    assert "/blob/main/" not in opened["body"]


@pytest.mark.vcr
def test_redelivered_accept_writes_nothing(tmp_path: Path) -> None:
    accepted = RFD_TEXT.replace("Status**: Discussion", "Status**: Accepted")
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: accepted})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("hubot")) == 0


@pytest.mark.vcr
def test_accept_label_on_an_accepted_rfd_is_answered(tmp_path: Path, vcr: Any) -> None:
    """No answer to this labeling yet: the label comes off and the reply says it is accepted."""
    accepted = RFD_TEXT.replace("Status**: Discussion", "Status**: Accepted")
    by_the_bot = {RFD_PATH: accepted, "docs/rfd/.state/045/plan.json": PLAN}  # its accept's
    origin, checkout = make_world(tmp_path, {"README.md": "x\n"}, by_the_bot)
    assert run_bot(tmp_path, checkout, "pull_request_target", by("hubot")) == 0
    assert git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines() == ["pr"]
    (reply,) = bodies_sent(vcr)
    assert lines(reply)[0] == "Every RFD of this pull request is already accepted: nothing to do."
    assert lines(reply)[1].endswith(f"/blob/{BRANCH}/{RFD_PATH}) is Accepted")


@pytest.mark.vcr
def test_the_rfd_author_may_not_accept(tmp_path: Path, vcr: Any) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("octocat")) == 0
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            "@octocat an RFD's author cannot accept it: ask another maintainer,"
            " or set `accept.allow_author = true` in `.github/rfd.toml`."
        ]
    ]


@pytest.mark.vcr
def test_redelivered_refused_accept_writes_nothing(tmp_path: Path) -> None:
    """The refusal was answered after this event: no second reply, no label DELETE."""
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("octocat")) == 0
    assert "already answered" in (tmp_path / "summary.md").read_text()


@pytest.mark.vcr
def test_accept_applied_again_by_its_author_is_taken_off_again(tmp_path: Path) -> None:
    """The same refusal answered an earlier labeling: the label comes off, the reply stays."""
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("octocat")) == 0


@pytest.mark.vcr
def test_other_labels_are_ignored(tmp_path: Path) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {RFD_PATH: RFD_TEXT})
    data = payload(LABELED, **{"label.name": "bug"})
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0


@pytest.mark.vcr
def test_config_error_is_posted_on_the_pr(tmp_path: Path, vcr: Any) -> None:
    broken = {".github/rfd.toml": "[labels]\nreveiw = 'rfd:review'\n"}
    _, checkout = make_world(tmp_path, broken, {RFD_PATH: RFD_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request_target", by("hubot")) == 1
    assert "unknown key `labels.reveiw`" in (tmp_path / "summary.md").read_text()
    (error,) = bodies_sent(vcr)
    assert lines(error)[:4] == [
        "### rfd-bot cannot read its configuration",
        "```",
        ".github/rfd.toml:2: unknown key `labels.reveiw`",
        "  hint: known keys here: accept, review",
    ]
