"""A directory per RFD on GitHub (Oxide's ``rfd/0015/README.adoc``, front matter in
``docs/rfd/0042/README.md``): a pull request that changes the directory's document, or only
another file in it (a diagram), is a pull request on that RFD — the review, the status
comment and ``/rfd accept`` work on it as on a flat ``045-slug.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import (
    BRANCH,
    FRONT_PATH,
    FRONT_TEXT,
    OXIDE_MAIN,
    OXIDE_PATH,
    OXIDE_TEXT,
    make_world,
    payload,
    run_bot,
)

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")

LABELED = "pull_request.labeled.review"
WEB = "https://github.com/Codertocat/Hello-World"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
REVIEWED = "rfd/.state/0015/reviews/1795831200.md"


def oxide(tmp_path: Path, pr: dict[str, str] | None = None) -> tuple[Path, Path]:
    return make_world(tmp_path, OXIDE_MAIN, {OXIDE_PATH: OXIDE_TEXT} if pr is None else pr)


@pytest.mark.vcr
def test_review_label_on_an_oxide_rfd_reviews_and_saves_it(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = oxide(tmp_path)
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    log = git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert log == ["RFD 0015: review by rfd-bot", "pr"]
    assert git(origin, "show", f"{BRANCH}:{REVIEWED}").startswith("# Review of RFD 0015")
    review, status = bodies_sent(vcr)
    assert lines(review)[:2] == [
        "### 🔍 Review 1 of RFD 0015 — no findings",
        "**Nothing to fix** as far as this review sees.",
    ]
    assert f"saved as `{REVIEWED}`" in review
    head = git(origin, "rev-parse", BRANCH).strip()
    assert lines(status)[:2] == [
        f"### [RFD 0015: Console access]({WEB}/blob/{head}/{OXIDE_PATH}) — discussion",
        "✓ prediscussion → **discussion** → published → committed",
    ]
    assert "`/rfd dismiss all` once read; accept with `/rfd accept`" in status


@pytest.mark.vcr
def test_a_pr_changing_only_a_diagram_is_a_pr_on_its_rfd(tmp_path: Path, vcr: Any) -> None:
    """The diagram belongs to RFD 0015: the status comment shows that RFD, as on main."""
    _, checkout = oxide(tmp_path, {"rfd/0015/console.svg": "<svg><path/></svg>\n"})
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (status,) = bodies_sent(vcr)
    assert lines(status)[:2] == [
        f"### [RFD 0015: Console access]({WEB}/blob/{HEAD}/{OXIDE_PATH}) — discussion",
        "✓ prediscussion → **discussion** → published → committed",
    ]


@pytest.mark.vcr
def test_a_front_matter_directory_pr_gets_its_status_comment(tmp_path: Path, vcr: Any) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {FRONT_PATH: FRONT_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (status,) = bodies_sent(vcr)
    assert lines(status)[:2] == [
        f"### [RFD 0042: Customer API versioning]({WEB}/blob/{HEAD}/{FRONT_PATH}) — discussion",
        "✓ prediscussion → **discussion** → published → committed",
    ]
    assert lines(status)[2].startswith("**Next step:** label `rfd:review` or comment `/rfd review`")


def slash(body: str, sender: str = "hubot") -> dict[str, object]:
    """``body`` commented on PR 2 by ``sender``."""
    changes = {"comment.body": body, "comment.user.login": sender, "sender.login": sender}
    return payload("issue_comment.created.pr", **changes, **{"comment.id": 492700400})


@pytest.mark.vcr
def test_accept_on_an_oxide_pr_publishes_it_with_its_plan_and_tracking_issue(
    tmp_path: Path, vcr: Any
) -> None:
    origin, checkout = oxide(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", slash("/rfd accept")) == 0
    text = git(origin, "show", f"{BRANCH}:{OXIDE_PATH}")
    assert ":state: published\n" in text  # Oxide's word for accepted, in its place
    issue_line = f":tracking-issue: {WEB}/issues/12[#12]\n"
    assert issue_line in text  # an AsciiDoc attribute, after the others
    assert text.replace(":state: published", ":state: discussion").replace(issue_line, "") == (
        OXIDE_TEXT
    )
    plan = json.loads(git(origin, "show", f"{BRANCH}:rfd/.state/0015/plan.json"))
    assert [p["title"] for p in plan] == ["Proxy", "Audit log"]
    log = git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert log == ["RFD 0015: accepted by rfd-bot", "pr"]
    (opened,) = [
        json.loads(r.body)
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues")
    ]
    assert opened["title"] == "RFD 0015: Console access"
    assert lines(opened["body"])[0] == (
        f"Tracking issue for [RFD 0015: Console access]({WEB}/blob/{BRANCH}/{OXIDE_PATH})."
        f" Discussed in [#2]({WEB}/pull/2)."
    )
    assert lines(opened["body"])[-2:] == ["- [ ] 1. Proxy", "- [ ] 2. Audit log"]
    status, reply = bodies_sent(vcr)[-2:]
    assert lines(status)[1] == "✓ prediscussion → ✓ discussion → **published** → committed"
    assert lines(reply) == [  # Oxide's word, as the file and the label say it
        "🚀 RFD 0015 is published (Accepted): 2 phases, tracking issue #12.",
        f"Committed as [`6f853ba54152`]({WEB}/commit/6f853ba541525bd7e77465109b3348e5e3e9c637).",
        "**Next step:** merge this pull request into `main`, then comment `/rfd implement` on "
        "tracking issue #12 to start phase 1: Proxy.",
    ]


@pytest.mark.vcr
def test_review_label_on_a_diagram_pr_reviews_the_rfds_document(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = oxide(tmp_path, {"rfd/0015/console.svg": "<svg><path/></svg>\n"})
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    """The PR leaves the document as it is: the review is of it, saved on the PR's branch."""
    log = git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert log == ["RFD 0015: review by rfd-bot", "pr"]
    assert git(origin, "show", f"{BRANCH}:{REVIEWED}").startswith("# Review of RFD 0015")
    review, status = bodies_sent(vcr)
    assert lines(review)[0] == "### 🔍 Review 1 of RFD 0015 — no findings"
    assert "1 open review (no findings)" in lines(status)[2]


@pytest.mark.vcr
def test_a_pr_removing_an_rfd_directory_removes_that_rfd(tmp_path: Path, vcr: Any) -> None:
    _, checkout = oxide(tmp_path, {"README.md": "x\n"})
    """The PR's file list removes the document and the diagram: that RFD is removed."""
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (status,) = bodies_sent(vcr)
    assert lines(status)[:2] == [
        f"### [RFD 0015]({WEB}/blob/{HEAD}/{OXIDE_PATH})",
        "⚠️ The bot cannot read this RFD: the pull request removes this RFD",
    ]


@pytest.mark.vcr
def test_a_merged_oxide_pr_gets_its_final_status_comment(tmp_path: Path, vcr: Any) -> None:
    """The RFD as `main` has it after the merge, linked there; its label kept."""
    _, checkout = make_world(tmp_path, {**OXIDE_MAIN, OXIDE_PATH: OXIDE_TEXT}, {})
    data = payload("pull_request.reopened", action="closed")
    data["pull_request"].update(state="closed", merged=True, labels=[])
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 0
    (final,) = bodies_sent(vcr)
    assert lines(final) == [  # in Oxide's word for the stage
        f"### [RFD 0015: Console access]({WEB}/blob/main/{OXIDE_PATH})",
        "**Merged into `main`** as discussion.",
        "<sub>Final: this pull request is merged · rfd-bot updates this comment only when the "
        "RFD's status changes</sub>",
    ]


@pytest.mark.vcr
def test_implement_on_a_merged_oxide_pr_says_where_in_oxides_words(
    tmp_path: Path, vcr: Any
) -> None:
    """RFD 0015 published by hand on `main`: where `/rfd accept` works, in Oxide's word."""
    published = OXIDE_TEXT.replace(":state: discussion", ":state: published")
    _, checkout = make_world(tmp_path, {**OXIDE_MAIN, OXIDE_PATH: published}, {})
    data = slash("/rfd implement", "Codertocat")
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            f"RFD 0015 is published (Accepted) on [`main`]({WEB}/blob/main/{OXIDE_PATH}) but has"
            " no tracking issue: it was accepted without the bot. **Next step:** open a pull"
            " request that edits the file and comment `/rfd accept` there: the bot extracts the"
            " RFD's plan and opens its tracking issue (the status stays published)."
            " `/rfd implement` works on the tracking issue afterwards."
        ]
    ]
