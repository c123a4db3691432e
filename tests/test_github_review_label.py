"""Label rfd:review → reviews committed to the PR branch, posted, label removed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import (
    BRANCH,
    INLINE_CONFIG,
    MISDATED,
    PLANLESS,
    RFD_PATH,
    RFD_TEXT,
    UNPLANNED,
    make_world,
    payload,
    run_bot,
)

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
REVIEW = "docs/rfd/.state/045/reviews/1795831200.md"
LABELED = "pull_request.labeled.review"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    return make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})


def bot_commits(origin: Path) -> list[str]:
    return git(origin, "log", "--format=%an|%s", f"main..{BRANCH}").splitlines()


@pytest.mark.vcr
def test_review_is_committed_posted_and_label_removed(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert bot_commits(origin)[0] == "rfd-bot|RFD 045: review by rfd-bot"
    assert git(origin, "show", f"{BRANCH}:{REVIEW}").startswith("# Review of RFD 045")
    review, status = bodies_sent(vcr)
    assert lines(review)[:2] == [
        "### 🔍 Review 1 of RFD 045 — no findings",
        "**Nothing to fix** as far as this review sees.",
    ]
    assert "so this is the offline structural review." in review
    assert f"saved as `{REVIEW}`" in review
    assert "✓ Draft → **Discussion** → Accepted → Implemented" in lines(status)
    assert lines(status)[2].startswith("**Next step:** 1 open review (no findings)")


@pytest.mark.vcr
def test_redelivered_label_writes_nothing(tmp_path: Path, world: tuple[Path, Path]) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert bot_commits(origin) == ["Test User|pr"]


@pytest.mark.vcr
def test_reader_is_refused_with_a_reason(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    origin, checkout = world
    data = payload(LABELED, **{"sender.login": "octocat"})
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    assert bot_commits(origin) == ["Test User|pr"]
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            "@octocat the rfd:review label needs write access to this repository;"
            " you have read access."
        ]
    ]


@pytest.mark.vcr
def test_redelivered_refused_label_writes_nothing(tmp_path: Path, world: tuple[Path, Path]) -> None:
    _, checkout = world
    data = payload(LABELED, **{"sender.login": "octocat"})
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0


@pytest.mark.vcr
def test_bot_sender_is_refused(tmp_path: Path, world: tuple[Path, Path]) -> None:
    _, checkout = world
    data = payload(LABELED, **{"sender.login": "renovate[bot]", "sender.type": "Bot"})
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0


@pytest.mark.vcr
def test_fork_without_key_posts_but_does_not_commit(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {})
    data = payload(LABELED, **{"pull_request.head.repo.full_name": "forker/Hello-World"})
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    assert "rfd-bot" not in git(origin, "log", "--all", "--format=%an")
    review = bodies_sent(vcr)[0]
    assert lines(review)[0] == "### 🔍 Review of RFD 045 — no findings"
    assert "> This PR comes from a fork, which the bot cannot push to: nothing was committed." in (
        lines(review)
    )
    assert "· not saved to the branch</sub>" in review


@pytest.mark.vcr
@pytest.mark.default_cassette("test_fork_without_key_posts_but_does_not_commit.yaml")
def test_a_fork_prs_review_never_gets_the_model_key(tmp_path: Path) -> None:
    """Under `pull_request_target` the job holds the key; a fork's RFD still goes to no model:
    the same offline review is posted, with the same note, as without a key."""
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {})
    data = payload(LABELED, **{"pull_request.head.repo.full_name": "forker/Hello-World"})
    keys = {"ANTHROPIC_API_KEY": "sk-ant-test", "OPENAI_API_KEY": "sk-test"}
    assert run_bot(tmp_path, checkout, "pull_request_target", data, **keys) == 0


@pytest.mark.vcr
@pytest.mark.default_cassette("test_review_is_committed_posted_and_label_removed.yaml")
@pytest.mark.parametrize(
    ("config", "pauses"), [("", 0), ("[bot]\nwrite_burst = 1\n", 3)], ids=["default", "no-burst"]
)
def test_writes_are_paced_only_between_writes_past_the_burst(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str, pauses: int
) -> None:
    # the default configuration: the review event's four writes (review, status comment,
    # lifecycle label, trigger label off) go out without a pause; with no burst a pause
    # falls between each two writes, never before or after.
    slept: list[float] = []
    monkeypatch.setattr("bot.forge.github.time.sleep", slept.append)
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})
    (checkout / ".github" / "rfd.toml").write_text(config, encoding="utf-8")  # same commits
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert len(slept) == pauses
    assert all(0 < s <= 1.0 for s in slept)


@pytest.mark.vcr
def test_label_applied_again_on_a_reviewed_pr_is_answered(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    """A new labeling (after the review was posted) is answered and taken off, never ignored."""
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert bot_commits(origin) == ["Test User|pr"]


@pytest.mark.vcr
def test_rerun_after_posting_failed_posts_the_committed_review(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 1
    committed = git(origin, "rev-parse", BRANCH)
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert git(origin, "rev-parse", BRANCH) == committed  # reviewed and committed once
    folder = REVIEW.rsplit("/", 1)[0]
    assert git(origin, "ls-tree", "--name-only", f"{BRANCH}:{folder}").split() == ["1795831200.md"]


@pytest.mark.vcr
def test_rerun_after_a_failure_past_posting_takes_the_label_off(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    """Posted, then failed: the re-run reviews nothing again but finishes (label, report)."""
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert bot_commits(origin) == ["Test User|pr"]


@pytest.mark.vcr
def test_findings_lead_with_the_verdict_and_link_the_rfd_lines(tmp_path: Path, vcr: Any) -> None:
    """The major is visible with a link to its line at the reviewed commit; the minor folds."""
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: UNPLANNED})
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    (review,) = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues/2/comments")
    ]
    heading, _, verdict = review.split("\n")[3:6]  # after the review, head and blob markers
    assert heading == "### 🔍 Review 1 of RFD 045 — ⚠️ 1 major · 1 minor"
    assert verdict.startswith("**Needs changes**")
    at = "https://github.com/Codertocat/Hello-World/blob/ec26c3e57ca3a959ca5aad62de7213c562f8c821"
    design_line = (
        UNPLANNED.splitlines().index(
            next(line for line in UNPLANNED.splitlines() if "TODO" in line)
        )
        + 1
    )
    visible, folded = review.split("<details>")
    assert f"]({at}/{RFD_PATH}#L" in visible and "major" in visible and "TODO" not in visible
    assert f"[Design L{design_line}]({at}/{RFD_PATH}#L{design_line})" in folded
    assert "0 tokens" not in review and "$0.0000" not in review
    assert review.count("offline structural review") == 1
    commit = (
        "https://github.com/Codertocat/Hello-World/commit/ec26c3e57ca3a959ca5aad62de7213c562f8c821"
    )
    assert f"of [`ec26c3e57ca3`]({commit})" in review.splitlines()[-1]  # the footer


def inline_world(tmp_path: Path) -> tuple[Path, Path]:
    """``review.inline`` on; the PR changes one line of the RFD: its Date, to no real date."""
    main = {"README.md": "hello\n", ".github/rfd.toml": INLINE_CONFIG, RFD_PATH: PLANLESS}
    return make_world(tmp_path, main, {RFD_PATH: MISDATED})


def posted(vcr: Any, path: str) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in vcr.requests if r.method == "POST" and r.path == path]


@pytest.mark.vcr
def test_inline_review_comments_on_the_lines_of_the_diff(tmp_path: Path, vcr: Any) -> None:
    """The major on the changed Date line sits on that line; the major on the plan's heading,
    outside the diff, is only in the review comment, and the PR review says so."""
    _, checkout = inline_world(tmp_path)
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    (review,) = posted(vcr, "/repos/Codertocat/Hello-World/pulls/2/reviews")
    assert (review["event"], review["commit_id"]) == ("COMMENT", HEAD)
    (on_line,) = review["comments"]
    assert (on_line["path"], on_line["line"], on_line["side"]) == (RFD_PATH, 6, "RIGHT")
    assert MISDATED.splitlines()[5] == "- **Date**: 2026-11-31"
    assert on_line["body"].startswith("**⚠️ major** · Header:")
    assert review["body"].startswith("<!-- rfd-bot:pr-review:045:ec26c3e57ca3 -->\n")
    assert "1 finding on other lines is in the review comment only" in review["body"]
    (comment,) = posted(vcr, "/repos/Codertocat/Hello-World/issues/2/comments")
    assert "#L6)" in comment["body"] and "[Implementation Plan L" in comment["body"]


@pytest.mark.vcr
def test_inline_review_is_submitted_once_across_a_rerun(tmp_path: Path, vcr: Any) -> None:
    """A run that submitted the PR review but failed to post the review comment: its re-run
    posts the comment and finds the PR review by its marker instead of submitting another."""
    _, checkout = inline_world(tmp_path)
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 1
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    assert len(posted(vcr, "/repos/Codertocat/Hello-World/pulls/2/reviews")) == 1
