"""pull_request opened/synchronize/reopened → one status comment, edited in place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, lines
from tests.github_world import RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played")
WEB = "https://github.com/Codertocat/Hello-World"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the PR's head in the cassettes
HEADING = f"### [RFD 045: Streaming exports]({WEB}/blob/{HEAD}/{RFD_PATH}) — Discussion"
LIFECYCLE = "✓ Draft → **Discussion** → Accepted → Implemented"
NEXT = (
    "**Next step:** label `rfd:review` or comment `/rfd review` for a review. Once the"
    " discussion has settled, accept it with `/rfd accept` or the `rfd:accept` label."
)
FOOTER = (
    f"<sub>Updated for [`{HEAD[:12]}`]({WEB}/commit/{HEAD})"
    " · rfd-bot keeps this comment current</sub>"
)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    return make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})[1]


@pytest.mark.vcr
def test_opened_posts_one_status_comment(tmp_path: Path, checkout: Path, vcr: Any) -> None:
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    summary = (tmp_path / "summary.md").read_text()
    assert "status comment posted on #2" in summary
    (body,) = bodies_sent(vcr)  # who may act, named as GitHub lists the collaborators
    assert lines(body)[:3] == [HEADING, LIFECYCLE, NEXT]
    assert "No reviews yet." in lines(body)
    assert (
        "<sub>Who may: Codertocat, hubot, mona (write access or more); `/rfd accept` and "
        "`rfd:accept`: the same people, other than the RFD's author.</sub>"
    ) in body


@pytest.mark.vcr
def test_the_status_comment_says_which_commit_it_is_for_as_a_link(
    tmp_path: Path, checkout: Path, vcr: Any
) -> None:
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (body,) = bodies_sent(vcr)
    head = re.search(r"/blob/([0-9a-f]{40})/docs/rfd/", body)
    assert head is not None  # the RFD is linked at the pull request's head
    sha = head[1]
    commit = f"https://github.com/Codertocat/Hello-World/commit/{sha}"
    footer = f"<sub>Updated for [`{sha[:12]}`]({commit}) · rfd-bot keeps this comment current</sub>"
    assert body.splitlines()[-1] == footer


@pytest.mark.vcr
def test_planted_status_marker_is_ignored(tmp_path: Path, checkout: Path, vcr: Any) -> None:
    """mallory's comment carries the status marker: the bot posts its own, edits nothing of hers."""
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    assert "status comment posted on #2" in (tmp_path / "summary.md").read_text()
    (body,) = bodies_sent(vcr)  # a new comment: hers (949) is not edited
    assert [r.method for r in vcr.requests if "/comments" in r.path] == ["GET", "POST"]
    assert lines(body)[:3] == [HEADING, LIFECYCLE, NEXT]
    assert "Approved, merge me!" not in body


@pytest.mark.vcr
def test_redelivered_opened_writes_nothing(tmp_path: Path, checkout: Path, vcr: Any) -> None:
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    assert "status comment unchanged on #2" in (tmp_path / "summary.md").read_text()
    assert bodies_sent(vcr) == []


@pytest.mark.vcr
def test_redelivered_opened_as_an_app_writes_nothing(tmp_path: Path, vcr: Any) -> None:
    """With `bot.login` set to a GitHub App's bot, that account's status comment is the bot's."""
    config = '[bot]\nseconds_between_writes = 0\nlogin = "rfd-helper[bot]"\n'
    main = {"README.md": "hello\n", ".github/rfd.toml": config}
    checkout = make_world(tmp_path, main, {RFD_PATH: RFD_TEXT})[1]
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    assert "status comment unchanged on #2" in (tmp_path / "summary.md").read_text()
    assert bodies_sent(vcr) == []


@pytest.mark.vcr
def test_reopened_edits_the_status_comment_in_place(
    tmp_path: Path, checkout: Path, vcr: Any
) -> None:
    # the cassette holds one PATCH of comment 950 and no POST: no second status comment
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.reopened")) == 0
    assert "status comment updated on #2" in (tmp_path / "summary.md").read_text()
    (body,) = bodies_sent(vcr)  # it was for an older revision: now for the PR's head
    assert lines(body)[:3] == [HEADING, LIFECYCLE, NEXT]
    assert lines(body)[-1] == FOOTER


@pytest.mark.vcr
def test_reopened_with_a_current_status_comment_writes_nothing(
    tmp_path: Path, checkout: Path, vcr: Any
) -> None:
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.reopened")) == 0
    assert "status comment unchanged on #2" in (tmp_path / "summary.md").read_text()
    assert bodies_sent(vcr) == []


@pytest.mark.vcr
def test_pr_without_rfds_is_left_alone(tmp_path: Path, checkout: Path, vcr: Any) -> None:
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    assert "#2 changes no RFD: nothing to do" in (tmp_path / "summary.md").read_text()
    assert bodies_sent(vcr) == []  # no status comment on a PR that is not about an RFD


@pytest.mark.vcr
def test_synchronize_marks_older_reviews_and_survives_a_502(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    import urllib3.util.retry

    waits: list[float] = []
    monkeypatch.setattr(urllib3.util.retry.time, "sleep", waits.append)
    review = "docs/rfd/.state/045/reviews/1795830000.md"
    _, checkout = make_world(
        tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT, review: "# Review\n"}
    )
    data = payload("pull_request.synchronize")
    assert run_bot(tmp_path, checkout, "pull_request", data) == 0
    assert (
        "review of RFD 045 marked as of an older revision" in (tmp_path / "summary.md").read_text()
    )
    status, review = bodies_sent(vcr)
    old = "f95f852bd8fc"  # the revision the review is of
    assert lines(status)[2] == (
        "**Next step:** 1 open review (no findings): nothing there blocks acceptance."
        " `/rfd dismiss all` once read; accept with `/rfd accept` or the `rfd:accept` label."
    )
    assert (
        f"| [Review 1]({WEB}/pull/2#issuecomment-940) | no findings"
        f" | [`{old[:7]}`]({WEB}/commit/{old}) (older) |"
    ) in lines(status)
    assert lines(review)[:3] == [
        "> [!NOTE]",
        f"> This review is of an older revision (`{old}`); the PR has changed since. Apply the"
        " review label again or comment `/rfd review` for a fresh one.",
        "# Review of RFD 045: Streaming exports",  # the review itself is kept below the note
    ]


@pytest.mark.vcr
def test_lint_findings_become_annotations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], vcr: Any
) -> None:
    undated = RFD_TEXT.replace("- **Date**: 2026-11-01\n", "")
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: undated})
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    out = capsys.readouterr().out
    assert f"::error file={RFD_PATH},line=" in out and "Date" in out
    (status,) = bodies_sent(vcr)  # the status comment points at the annotations
    assert "Lint: 1 error, annotated on the changed lines (**Files changed** tab)." in lines(status)


@pytest.mark.vcr
def test_a_config_error_reported_earlier_is_cleared_once_the_config_reads(
    tmp_path: Path, checkout: Path, vcr: Any
) -> None:
    # the cassette: the status comment is posted, and the config-error comment an earlier
    # run left is edited to say it is fixed (no request to find it: the comments were listed)
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    assert "config-error comment updated on #2" in (tmp_path / "summary.md").read_text()
    status, fixed = bodies_sent(vcr)
    assert lines(status)[:3] == [HEADING, LIFECYCLE, NEXT]
    assert lines(fixed) == [
        "✅ rfd-bot reads its configuration again: the error reported here is fixed."
    ]


@pytest.mark.vcr  # no cassette: rendering makes no request
def test_titles_and_file_names_stay_inside_their_heading(tmp_path: Path) -> None:
    """A hostile title and file name: one heading holding one link, no HTML, image, mention
    or marker."""
    from markdown_it import MarkdownIt

    from bot.config.discovery import RfdFile
    from bot.github.checkout import ChangedRfd
    from bot.github.status_comment import Row, status_body
    from bot.model.ids import RfdId
    from bot.model.status import Status
    from tests.github_world import CONFIG
    from tests.test_github_plugins import bot_context

    root = tmp_path / "repo"
    (root / ".github").mkdir(parents=True)
    (root / ".github/rfd.toml").write_text(CONFIG, encoding="utf-8")
    name = "docs/rfd/045-a|b) @octocat.md"
    title = "Beta] | <img src=x> @github/security ![p](https://e.example/p.png)\n<!-- rfd-bot:x -->"
    row = Row(ChangedRfd(RfdFile(RfdId.parse("045"), "a", name), "added"), title, Status.DISCUSSION)
    ctx = bot_context(tmp_path, root)
    body = status_body(ctx, [row], {}, [], repo="Codertocat/Hello-World", head="ec26c3e57ca3")
    html = MarkdownIt("commonmark").enable("table").render(body)
    heading = html.split("<h3>", 1)[1].split("</h3>", 1)[0]
    assert html.count("<h3>") == 1 and heading.count("<a href=") == 1
    assert "@\u200bgithub/security" in heading and "<!-- rfd-bot:x" not in body
    assert not any(s in body for s in ("<img", "@octocat", "@github", "![", "<!-- rfd-bot:x"))


@pytest.mark.vcr
def test_who_may_is_described_when_github_lists_no_collaborators(
    tmp_path: Path, checkout: Path, vcr: Any
) -> None:
    """The token may not list the collaborators (404): the Who may line describes the
    people instead of naming them, and the status comment is posted all the same."""
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (body,) = bodies_sent(vcr)
    assert (
        "<sub>Who may: people with write access or more; `/rfd accept` and `rfd:accept`: "
        "people with write access or more other than the RFD's author.</sub>"
    ) in body
