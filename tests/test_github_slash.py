"""/rfd commands in PR and issue comments, end to end through `rfd bot`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.llm.base import Reply
from tests.conftest import bodies_sent, git, lines
from tests.fakes import item_done
from tests.github_world import (
    BRANCH,
    RFD_PATH,
    RFD_TEXT,
    make_world,
    payload,
    run_bot,
)

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
OLD_REVIEW = "docs/rfd/.state/045/reviews/1795830000.md"
PR_COMMENT = "issue_comment.created.pr"


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    files = {RFD_PATH: RFD_TEXT, OLD_REVIEW: "# Review of RFD 045\n\nShorter, please.\n"}
    return make_world(tmp_path, {"README.md": "hello\n"}, files)


def comment(body: str, sender: str = "Codertocat", name: str = PR_COMMENT) -> dict[str, object]:
    changes = {"comment.body": body, "comment.user.login": sender, "sender.login": sender}
    return payload(name, **changes)


def tracking_issue(data: dict[str, object], author: str = "github-actions[bot]") -> None:
    """Make the commented issue RFD 045's tracking issue, as written by ``author``."""
    issue = data["issue"]
    assert isinstance(issue, dict)
    issue["body"] = "<!-- rfd-bot:tracking:045 -->\nTracking issue"
    issue["user"] = {**issue["user"], "login": author, "type": "Bot"}


def accepted_world(tmp_path: Path, *labels: str) -> tuple[Path, Path]:
    """RFD 045 Accepted on main with a two-phase plan (Writer, Endpoint; ``labels`` if given)."""
    from bot.model.plan import PlanPhase, dumps

    first, second = labels or ("", "")
    plan = dumps((PlanPhase("Writer", "w", first), PlanPhase("Endpoint", "e", second)))
    accepted = RFD_TEXT.replace("Discussion", "Accepted")
    return make_world(tmp_path, {RFD_PATH: accepted, "docs/rfd/.state/045/plan.json": plan}, {})


def implement_comment(body: str = "/rfd implement") -> dict[str, object]:
    """``body`` commented on RFD 045's tracking issue."""
    data = comment(body, name="issue_comment.created.issue")
    tracking_issue(data)
    return data


def scripted_model(monkeypatch: pytest.MonkeyPatch, *texts: str | Reply) -> Any:
    """Every step's model answers ``texts`` in turn (none: asking it fails the test)."""
    from tests.fakes import ScriptedLLM, reply, scripted_providers

    llm = ScriptedLLM([t if isinstance(t, Reply) else reply(t) for t in texts])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    return llm


WRITER = (
    "Research.",
    "- [ ] 1. Write the CSV writer\n",
    item_done("done"),
    "The writer streams rows.",
)


def on_branch(origin: Path, path: str) -> str:
    return git(origin, "show", f"{BRANCH}:{path}")


@pytest.mark.vcr
def test_status(tmp_path: Path, world: tuple[Path, Path], vcr: Any) -> None:
    assert run_bot(tmp_path, world[1], "issue_comment", comment("/rfd status")) == 0
    link = "https://github.com/Codertocat/Hello-World/pull/2#issuecomment-950"
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [f"The [status comment]({link}) is up to date."]
    ]


@pytest.mark.vcr
def test_help(tmp_path: Path, world: tuple[Path, Path], vcr: Any) -> None:
    assert run_bot(tmp_path, world[1], "issue_comment", comment("/rfd help")) == 0
    (reply,) = bodies_sent(vcr)
    assert lines(reply)[:2] == [
        "### RFD bot commands",
        "| command | what it does | who may use it |",
    ]
    commands = [line.split("`")[1].split()[0:2] for line in lines(reply) if line.startswith("| `")]
    assert [" ".join(c) for c in commands][:3] == ["/rfd review", "/rfd refine", "/rfd dismiss"]


@pytest.mark.vcr
def test_review(tmp_path: Path, world: tuple[Path, Path], vcr: Any) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd review")) == 0
    assert "Review of RFD 045" in on_branch(origin, "docs/rfd/.state/045/reviews/1795831200.md")
    review, status = bodies_sent(vcr)
    assert lines(review)[0] == "### 🔍 Review 2 of RFD 045 — no findings"  # after the old one
    assert lines(status)[2].startswith("**Next step:** 2 open reviews (no findings)")


@pytest.mark.vcr
def test_review_rerun_after_posting_failed_posts_the_committed_review(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd review")) == 1
    committed = git(origin, "rev-parse", BRANCH)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd review")) == 0
    assert git(origin, "rev-parse", BRANCH) == committed  # reviewed and committed once
    reviews = git(origin, "ls-tree", "--name-only", f"{BRANCH}:docs/rfd/.state/045/reviews")
    assert reviews.split() == ["1795830000.md", "1795831200.md"]  # the earlier one, one new


@pytest.mark.vcr
def test_dismiss_all(tmp_path: Path, world: tuple[Path, Path], vcr: Any) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd dismiss all")) == 0
    files = git(origin, "ls-tree", "-r", "--name-only", BRANCH).split()
    assert OLD_REVIEW not in files and RFD_PATH in files
    (status,) = bodies_sent(vcr)
    assert lines(status)[2] == (
        "**Next step:** label `rfd:review` or comment `/rfd review` for a review."
        " Once the discussion has settled, accept it with `/rfd accept` or the `rfd:accept` label."
    )


@pytest.mark.vcr
def test_dismiss_by_number_keeps_the_others(tmp_path: Path, vcr: Any) -> None:
    # reviews are numbered oldest first, as `/rfd status` lists them
    reviews = [f"docs/rfd/.state/045/reviews/{stamp}.md" for stamp in (1795820000, 1795825000)]
    files = {RFD_PATH: RFD_TEXT, OLD_REVIEW: "# Review 3\n"}
    files |= {path: f"# Review {n}\n" for n, path in enumerate(reviews, start=1)}
    origin, checkout = make_world(tmp_path, {"README.md": "hello\n"}, files)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd dismiss 1 3")) == 0
    kept = [
        p for p in git(origin, "ls-tree", "-r", "--name-only", BRANCH).split() if "/reviews/" in p
    ]
    assert kept == [reviews[1]]
    (status,) = bodies_sent(vcr)
    assert lines(status)[2].startswith("**Next step:** 1 open review (no findings)")


@pytest.mark.vcr
def test_dismiss_folds_the_dismissed_review_comments_and_moves_the_rest_up(
    tmp_path: Path, vcr: Any
) -> None:
    """Reviews 1 and 3 dismissed: their comments say so, by whom, their text folded; review
    2 is review 1 now, in its comment as in the status comment, which folds the others."""
    reviews = [f"docs/rfd/.state/045/reviews/{stamp}" for stamp in (1795820000, 1795825000)]
    files = {RFD_PATH: RFD_TEXT, OLD_REVIEW: "# Review 3\n"}
    files |= {f"{path}.md": f"# Review {n}\n" for n, path in enumerate(reviews, start=1)}
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, files)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd dismiss 1 3")) == 0
    edits = {
        r.path.rsplit("/", 1)[1]: json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "PATCH" and "/issues/comments/94" in r.path
    }
    first, second, third = edits["941"], edits["942"], edits["943"]
    for gone in (first, third):
        assert "> **Dismissed** by Codertocat with `/rfd dismiss`: this review of RFD 045" in gone
        assert "<details><summary>The dismissed review</summary>" in gone
    assert "### 🔍 Review 1 of RFD 045 — no findings" in second and "Dismissed" not in second
    (status,) = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues/2/comments")
    ]
    table, folded = status.split("<details><summary>2 dismissed reviews</summary>")
    assert (
        "| [Review 1](https://github.com/Codertocat/Hello-World/pull/2#issuecomment-942) |" in table
        and "941" not in table
        and "943" not in table
    )
    assert "issuecomment-941" in folded.split("</details>")[0]


@pytest.mark.vcr
def test_rerun_after_a_failure_finishes_the_command(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any
) -> None:
    """The first run got 👀 and a failure report, no final reply: the re-run does the work,
    and its answer is written over the failure report — the PR shows one, current, reply."""
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd dismiss all")) == 0
    assert OLD_REVIEW not in git(origin, "ls-tree", "-r", "--name-only", BRANCH).split()
    writes = [(r.method, r.path) for r in vcr.requests if r.method != "GET"]
    assert writes[-1] == ("PATCH", "/repos/Codertocat/Hello-World/issues/comments/958")
    new = ("POST", "/repos/Codertocat/Hello-World/issues/2/comments")
    posted = [json.loads(r.body)["body"] for r in vcr.requests if (r.method, r.path) == new]
    assert [p.splitlines()[0] for p in posted] == ["<!-- rfd-bot:status:2 -->"]  # no 2nd reply
    (edit,) = [r for r in vcr.requests if r.method == "PATCH"]
    text = json.loads(edit.body)["body"]
    assert "rfd-bot:reply:c492700400-dismiss" in text and "could not finish" not in text


@pytest.mark.vcr
def test_accept_by_a_maintainer(tmp_path: Path, world: tuple[Path, Path]) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "hubot")) == 0
    text = on_branch(origin, RFD_PATH)
    assert "- **Status**: Accepted" in text
    assert (
        "- **Tracking Issue**: [#12](https://github.com/Codertocat/Hello-World/issues/12)" in text
    )
    assert '"title": "Writer"' in on_branch(origin, "docs/rfd/.state/045/plan.json")


@pytest.mark.vcr
def test_accept_by_the_pr_author_is_refused(tmp_path: Path, world: tuple[Path, Path]) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept")) == 0
    assert "- **Status**: Discussion" in on_branch(origin, RFD_PATH)


@pytest.mark.vcr
def test_accept_by_an_author_named_by_email_is_refused(tmp_path: Path) -> None:
    """`Authors: Hu Bot <hubot@example.com>` (the README's format): hubot may not accept."""
    text = RFD_TEXT.replace("- **Authors**: @octocat", "- **Authors**: Hu Bot <hubot@example.com>")
    origin, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: text})
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "hubot")) == 0
    assert "- **Status**: Discussion" in on_branch(origin, RFD_PATH)


@pytest.mark.vcr
def test_a_command_whose_comment_was_deleted_is_not_run(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    """The 👀 answers 404: the run (or every re-run) ends cleanly and does nothing."""
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd accept", "hubot")) == 0
    assert "- **Status**: Discussion" in on_branch(origin, RFD_PATH)
    assert "was deleted before it ran" in (tmp_path / "summary.md").read_text(encoding="utf-8")


@pytest.mark.vcr
def test_reader_is_refused(tmp_path: Path, world: tuple[Path, Path]) -> None:
    assert run_bot(tmp_path, world[1], "issue_comment", comment("/rfd review", "octocat")) == 0


@pytest.mark.vcr
def test_command_in_a_code_block_does_nothing(tmp_path: Path, world: tuple[Path, Path]) -> None:
    body = "To accept, a maintainer writes:\n\n```\n/rfd accept\n```\n"
    assert run_bot(tmp_path, world[1], "issue_comment", comment(body)) == 0


@pytest.mark.vcr  # no cassette: not one request is made
@pytest.mark.parametrize(
    "body",
    [
        "LGTM\n\n<!-- maintainers only\n\n/rfd accept\n",
        "~~~\n```\n/rfd accept\n```\n~~~\n",
        "<pre>\n/rfd accept\n</pre>",
        "> I would not\u2028/rfd accept",
    ],
)
def test_a_command_a_reader_cannot_see_does_nothing(
    tmp_path: Path, world: tuple[Path, Path], body: str
) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment(body, "hubot")) == 0
    assert "- **Status**: Discussion" in on_branch(origin, RFD_PATH)
    assert "no /rfd command" in (tmp_path / "summary.md").read_text(encoding="utf-8")


@pytest.mark.vcr
def test_redelivered_comment_writes_nothing(tmp_path: Path, world: tuple[Path, Path]) -> None:
    assert run_bot(tmp_path, world[1], "issue_comment", comment("/rfd status")) == 0


@pytest.mark.vcr
def test_planted_reply_marker_does_not_silence_a_command(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    """mallory's comment carries this command's reply marker: the command is answered anyway."""
    assert run_bot(tmp_path, world[1], "issue_comment", comment("/rfd status")) == 0


@pytest.mark.vcr
def test_status_on_an_issue_with_a_planted_tracking_marker(tmp_path: Path) -> None:
    accepted = RFD_TEXT.replace("Discussion", "Accepted")
    _, checkout = make_world(tmp_path, {RFD_PATH: accepted}, {})
    data = comment("/rfd status", name="issue_comment.created.issue")
    tracking_issue(data, author="mallory")
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0


@pytest.mark.vcr
def test_own_comment_is_ignored(tmp_path: Path, world: tuple[Path, Path]) -> None:
    data = comment("/rfd accept", "github-actions[bot]")
    assert run_bot(tmp_path, world[1], "issue_comment", data) == 0


@pytest.mark.vcr
def test_usage_errors_get_a_reply(tmp_path: Path, world: tuple[Path, Path]) -> None:
    data = comment("/rfd dismiss\n/rfd deploy")
    assert run_bot(tmp_path, world[1], "issue_comment", data) == 0


@pytest.mark.vcr
def test_a_flood_of_bad_commands_gets_one_short_reply(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    """3,000 bad commands: the first 20 errors and a count, never a body GitHub rejects."""
    data = comment("\n".join(f"/rfd x{n}" for n in range(1, 3001)))
    assert run_bot(tmp_path, world[1], "issue_comment", data) == 0


@pytest.mark.vcr
def test_status_on_a_tracking_issue(tmp_path: Path) -> None:
    """The reply lists the phases with their pull requests and says what to run next."""
    _, checkout = accepted_world(tmp_path)
    data = comment("/rfd status", name="issue_comment.created.issue")
    tracking_issue(data)
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0


@pytest.mark.vcr
def test_refine_without_a_key_says_so(tmp_path: Path, world: tuple[Path, Path]) -> None:
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd refine")) == 0
    assert on_branch(origin, RFD_PATH) == RFD_TEXT


@pytest.mark.vcr
def test_implement_without_a_key_says_so(tmp_path: Path, vcr: Any) -> None:
    _, checkout = accepted_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    (reply,) = bodies_sent(vcr)
    assert lines(reply)[0].startswith(
        "`/rfd implement` needs an AI provider key and this run has none"
        " (fork PRs never get one): nothing was changed. **Next step:** a maintainer adds the"
        " `ANTHROPIC_API_KEY` secret (or `OPENAI_API_KEY`)"
    )


@pytest.mark.vcr
def test_done_on_a_pr_commits_the_status_and_leaves_the_issue_to_the_merge(
    tmp_path: Path,
) -> None:
    # the cassette holds no tracking-issue request: the issue is closed by the push to
    # main once this PR is merged (test_github_push), and the reply says so
    from bot.model.plan import PlanPhase, dumps

    accepted = RFD_TEXT.replace("Discussion", "Accepted\n- **Tracking Issue**: #12")
    state = "docs/rfd/.state/045"
    plan = dumps((PlanPhase("Writer", "w"), PlanPhase("Endpoint", "e")))
    files = {
        RFD_PATH: accepted,
        f"{state}/plan.json": plan,
        f"{state}/phases/1.md": "done\n",
        f"{state}/phases/2.md": "done\n",
    }
    origin, checkout = make_world(tmp_path, {"README.md": "x\n"}, files)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd done")) == 0
    assert "- **Status**: Implemented" in on_branch(origin, RFD_PATH)


@pytest.mark.vcr
def test_refine_commits_the_refined_rfd(
    tmp_path: Path, world: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """One comment for the run: its progress ends in what changed, the reviews by number
    and the commit; no reply repeats it."""
    from tests.fakes import ScriptedLLM, reply, scripted_providers

    section = {"section": "Summary", "content": "Stream large reports row by row."}
    revision = {"sections": [section], "notes": "Rewrote the summary."}
    llm = ScriptedLLM(
        [reply("", ("submit_revision", revision)), reply("CONVERGED\nNothing to add.")]
    )
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd refine")) == 0
    assert "Stream large reports row by row." in on_branch(origin, RFD_PATH)
    posted = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "POST" and r.path.endswith("/issues/2/comments")
    ]
    assert [p.splitlines()[0] for p in posted] == [
        "<!-- rfd-bot:progress:c492700400-refine -->",
        "<!-- rfd-bot:status:2 -->",
    ]
    (final,) = [json.loads(r.body)["body"] for r in vcr.requests if r.method == "PATCH"]
    assert "- **Pass 1** (reviews): Summary — Rewrote the summary.\n" in final
    assert (
        "Reviews addressed: review 1. Once you agree they are settled: `/rfd dismiss 1`." in final
    )


@pytest.mark.vcr
def test_refine_whose_pass_fails_keeps_the_reviews(
    tmp_path: Path, world: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass that fails: what came before is committed, and the reply neither says the
    reviews are addressed nor suggests dismissing them."""
    from bot.core.errors import ProviderError
    from tests.fakes import ScriptedLLM, reply, scripted_providers

    section = {"section": "Summary", "content": "Stream large reports row by row."}
    revision = {"sections": [section], "notes": "Rewrote the summary."}
    boom = ProviderError("model unavailable")
    llm = ScriptedLLM([reply("", ("submit_revision", revision)), boom])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd refine")) == 0
    assert "Stream large reports row by row." in on_branch(origin, RFD_PATH)
    assert OLD_REVIEW.rsplit("/", 1)[1] in git(origin, "ls-tree", "-r", "--name-only", BRANCH)


@pytest.mark.vcr
def test_refine_whose_status_comment_fails_is_answered_and_not_run_again(
    tmp_path: Path, world: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """The run commits and answers, then GitHub fails the status comment (502): a warning in
    the job summary, not a failed run; the job run again finds the answer and does nothing."""
    from tests.fakes import ScriptedLLM, reply, scripted_providers

    section = {"section": "Summary", "content": "Stream large reports row by row."}
    revision = {"sections": [section], "notes": "Rewrote the summary."}
    llm = ScriptedLLM(
        [reply("", ("submit_revision", revision)), reply("CONVERGED\nNothing to add.")]
    )
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    origin, checkout = world
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd refine")) == 0
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "⚠️ refreshing the status comment failed (" in summary and "502" in summary
    answer = json.loads(vcr.requests[7].body)["body"]  # the progress comment's last edit
    assert "refined in 2 passes" in answer and "Committed as" in answer
    refined = git(origin, "rev-parse", BRANCH)
    assert run_bot(tmp_path, checkout, "issue_comment", comment("/rfd refine")) == 0
    assert git(origin, "rev-parse", BRANCH) == refined  # committed once
    assert len(llm.requests) == 2  # the model was asked in the first run only


@pytest.mark.vcr
def test_implement_opens_a_pr_for_the_next_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """The phase's PR is opened and linked from its line on the tracking issue; the run's one
    comment, its progress, ends in the pull request and is the answer (no second reply)."""
    scripted_model(monkeypatch, *WRITER)
    origin, checkout = accepted_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    summary = git(origin, "show", "rfd/045-phase-1:docs/rfd/.state/045/phases/1.md")
    assert summary == "The writer streams rows.\n"
    posts = [r for r in vcr.requests if r.method == "POST" and r.path.endswith("/12/comments")]
    assert len(posts) == 1  # the phase's comment, posted once, then edited
    edits = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "PATCH" and "/issues/comments/" in r.path
    ]
    assert "### ✅ RFD 045, phase 1: Writer — pull request [#3](" in edits[-1]
    assert "<!-- rfd-bot:reply:c492700400-implement -->" in edits[-1]  # a re-delivery: answered
    (tracking,) = [
        json.loads(r.body)["body"]
        for r in vcr.requests
        if r.method == "PATCH" and r.path.endswith("/issues/12")
    ]
    assert "- [ ] 1. Writer — [#3](https://github.com/Codertocat/Hello-World/pull/3)\n" in tracking


FAILING = (
    "Research.",
    "- [ ] 1. Write the CSV writer\n",
    item_done("Wrote it."),
    item_done("Fixed it."),
    "The writer does not stream rows yet: its tests fail.",
)


def failing_world(tmp_path: Path) -> tuple[Path, Path]:
    """RFD 045 Accepted with two phases, and an item check (``implement.verify``) that fails."""
    from bot.model.plan import PlanPhase, dumps

    plan = dumps((PlanPhase("Writer", "w"), PlanPhase("Endpoint", "e")))
    main = {
        RFD_PATH: RFD_TEXT.replace("Discussion", "Accepted"),
        "docs/rfd/.state/045/plan.json": plan,
        ".github/rfd.toml": '[implement]\nverify = "false"\n',
    }
    return make_world(tmp_path, main, {})


@pytest.mark.vcr
def test_implement_with_failing_checks_opens_a_pr_that_records_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An honest model whose check fails: `[!] … [Failed: …]`, the PR and the tracking issue
    say so, and the branch holds no `phases/1.md` (merging it records nothing)."""
    scripted_model(monkeypatch, *FAILING)
    origin, checkout = failing_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    state = "rfd/045-phase-1:docs/rfd/.state/045"
    items = git(origin, "show", f"{state}/implement/1/items.md")
    assert "- [!] 1. Write the CSV writer [Failed: `false` failed (exit code 1)]" in items
    assert "phases/1.md" not in git(origin, "ls-tree", "-r", "--name-only", "rfd/045-phase-1")


@pytest.mark.vcr
def test_implement_takes_the_phase_by_its_label(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """`/rfd implement 3a`: branch rfd/045-phase-3a, PR "RFD 045, phase 3a: …", phases/3a.md."""
    texts = (
        "Research.",
        "- [ ] 1. Add the endpoint\n",
        item_done("done"),
        "The endpoint streams the export.",
    )
    llm = scripted_model(monkeypatch, *texts)
    origin, checkout = accepted_world(tmp_path, "0", "3a")
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment("/rfd implement 3a")) == 0
    summary = git(origin, "show", "rfd/045-phase-3a:docs/rfd/.state/045/phases/3a.md")
    assert summary == "The endpoint streams the export.\n"
    assert "Research phase 3a" in str(llm.requests[0])
    progress, pr_body, _, outcome = bodies_sent(vcr)
    assert lines(progress)[0] == "### ⏳ Implementing RFD 045, phase 3a: Endpoint"
    assert lines(pr_body)[:2] == [
        "Phase 3a of RFD 045: Endpoint.",
        "The endpoint streams the export.",
    ]
    assert lines(outcome)[0].startswith("### ✅ RFD 045, phase 3a: Endpoint — pull request [#3](")
    assert "- [x] 1. Add the endpoint" in lines(outcome)


@pytest.mark.vcr
def test_implement_of_a_phase_the_plan_lacks_names_its_phases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    scripted_model(monkeypatch)
    origin, checkout = accepted_world(tmp_path, "0", "3a")
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment("/rfd implement 3c")) == 0
    assert "rfd/045-phase-3c" not in git(origin, "branch", "--list")
    assert [lines(text) for text in bodies_sent(vcr)] == [
        ["RFD 045 has no phase 3c: its phases are 0, 3a."]
    ]


@pytest.mark.vcr
def test_implement_recovers_when_opening_its_pr_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run 1 pushes the branch, then GitHub answers 502 to the PR; run 2 opens that branch's PR."""
    llm = scripted_model(monkeypatch, *WRITER)
    origin, checkout = accepted_world(tmp_path)
    data = implement_comment()
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 1
    pushed = git(origin, "rev-parse", "rfd/045-phase-1")
    assert run_bot(tmp_path, checkout, "issue_comment", data) == 0
    assert git(origin, "rev-parse", "rfd/045-phase-1") == pushed  # not implemented twice
    assert len(llm.requests) == 4  # the model was asked in run 1 only


@pytest.mark.vcr
def test_implement_reuses_the_pr_a_failed_run_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub made the PR, then answered 502: the re-run finds it by its branch, opens none."""
    scripted_model(monkeypatch)  # asking the model would fail the test
    _, checkout = accepted_world(tmp_path)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0


@pytest.mark.vcr
def test_implement_refuses_a_stray_branch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """Someone's own `rfd/045-phase-1` without a phase summary is neither reused nor overwritten."""
    scripted_model(monkeypatch)
    origin, checkout = accepted_world(tmp_path)
    git(origin, "branch", "rfd/045-phase-1", "main")
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    assert git(origin, "rev-parse", "rfd/045-phase-1") == git(origin, "rev-parse", "main")
    assert [lines(text) for text in bodies_sent(vcr)] == [
        [
            "Branch `rfd/045-phase-1` exists but holds no `docs/rfd/.state/045/phases/1.md`,"
            " so it is not an earlier run's work: delete the branch (or rename it), then comment"
            " `/rfd implement 1` again."
        ]
    ]


def hand_pushed_phase(tmp_path: Path, origin: Path) -> str:
    """Someone's own ``rfd/045-phase-1``, a ``phases/1.md`` on main pushed by hand; its sha."""
    hand = tmp_path / "hand"
    git(tmp_path, "clone", "-q", "--branch", "main", str(origin), str(hand))
    (hand / "docs/rfd/.state/045/phases").mkdir(parents=True)
    (hand / "docs/rfd/.state/045/phases/1.md").write_text("Mine.\n", encoding="utf-8")
    git(hand, "add", "-A")
    git(hand, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "mine")
    git(hand, "push", "-q", "origin", "HEAD:refs/heads/rfd/045-phase-1")
    return git(hand, "rev-parse", "HEAD").strip()


def not_the_bots(head: str) -> list[str]:
    """The reply to a phase branch the bot did not push (one job and two say the same)."""
    return [
        f"Branch `rfd/045-phase-1` exists, but GitHub does not record the bot pushing its last "
        f"commit `{head}`, so it is not opened as the pull request of phase 1 of RFD 045: "
        "nothing was opened. If the branch holds the phase's work, open its pull request "
        "yourself; else delete the branch (or rename it), then comment `/rfd implement 1` again."
    ]


@pytest.mark.vcr
def test_implement_does_not_open_a_branch_the_bot_did_not_push(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """A `rfd/045-phase-1` with a `phases/1.md` that GitHub's activity record shows no push of
    by the bot's account is neither opened as the phase's pull request nor overwritten."""
    scripted_model(monkeypatch)  # asking the model would fail the test
    origin, checkout = accepted_world(tmp_path)
    head = hand_pushed_phase(tmp_path, origin)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    assert git(origin, "rev-parse", "rfd/045-phase-1").strip() == head
    assert [lines(text) for text in bodies_sent(vcr)] == [not_the_bots(head)]
