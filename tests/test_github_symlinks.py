"""PR branch content is data: symbolic links on a PR branch are refused, never followed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.github.checkout import links_in
from tests.conftest import bodies_sent, git, lines
from tests.github_world import BRANCH, RFD_PATH, RFD_TEXT, make_world, payload, run_bot

STATE = "docs/rfd/.state/045"
SECRET = "DB_PASSWORD=hunter2"


def test_links_are_found_without_being_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "x.md").write_text("x", encoding="utf-8")
    root = tmp_path / "checkout"
    (root / "docs/rfd/.state/045").mkdir(parents=True)
    (root / "docs/rfd/001-a.md").write_text("# RFD 001: A\n", encoding="utf-8")
    (root / "docs/rfd/.state/045/reviews").symlink_to(outside)
    (root / "docs/rfd/.state/045/explore.md").symlink_to("/proc/self/environ")
    (root / "docs/rfd/002-b.md").symlink_to("001-a.md")  # inside the checkout: a link all the same
    assert links_in(root, ["docs/rfd"]) == [
        "docs/rfd/.state/045/explore.md",
        "docs/rfd/.state/045/reviews",
        "docs/rfd/002-b.md",
    ]
    assert links_in(root, ["absent"]) == []


def pr_with_links(tmp_path: Path, secret: Path, elsewhere: Path) -> tuple[Path, Path]:
    origin, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})
    seed = tmp_path / "seed"  # the PR branch is still checked out there
    (seed / STATE).mkdir(parents=True)
    (seed / STATE / "explore.md").symlink_to(secret)
    (seed / STATE / "reviews").symlink_to(elsewhere)
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "links")
    git(seed, "push", "-q", str(origin), f"HEAD:refs/heads/{BRANCH}")
    return origin, checkout


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_a_symlink_on_the_pr_branch_is_refused_with_a_reply_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    from tests.fakes import ScriptedLLM, scripted_providers

    asked = ScriptedLLM([])  # any model call fails the test
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(asked))
    secret, elsewhere = tmp_path / "ci.env", tmp_path / "elsewhere"
    secret.write_text(SECRET, encoding="utf-8")
    elsewhere.mkdir()
    origin, checkout = pr_with_links(tmp_path, secret, elsewhere)
    before = git(origin, "rev-parse", BRANCH)
    data: dict[str, Any] = payload("pull_request.labeled.review")
    assert run_bot(tmp_path, checkout, "pull_request_target", data, ANTHROPIC_API_KEY="k") == 0
    assert list(elsewhere.iterdir()) == []  # nothing written through the link
    assert git(origin, "rev-parse", BRANCH) == before  # nothing committed
    assert not [p for p in tmp_path.glob("rfd-pr2-*") if p.is_dir()]  # worktree removed
    assert SECRET not in (tmp_path / "summary.md").read_text(encoding="utf-8")
    (reply,) = bodies_sent(vcr)
    assert lines(reply) == [
        "### 😕 rfd-bot could not finish",
        "```",
        f"{STATE}/explore.md: is a symbolic link on the pull request's branch: the bot reads PR"
        f" files as data and never follows a link (and 1 more: {STATE}/reviews)",
        "  hint: replace the link by the file (or directory) itself, push, then retry",
        "```",
        "Nothing was left half-done. Fix the problem above, then re-run the job or repeat the"
        " command.",
    ]


def override(root: Path, text: str) -> Path:
    path = root / ".rfd/prompts/review.md.j2"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("on_default", [True, False], ids=["default-has-one", "only-the-pr"])
def test_prompt_overrides_come_from_the_default_branch_never_the_pr(
    tmp_path: Path, on_default: bool
) -> None:
    from bot.config.load import Config
    from bot.github.ops import open_workspace
    from bot.github.run import Context, Summary

    default, pr = tmp_path / "default", tmp_path / "pr"
    pr.mkdir()
    override(pr, "{{ env }} — the PR's own instructions\n")
    ours = override(default, '{% extends "default/review.md.j2" %}\n') if on_default else None
    default.mkdir(exist_ok=True)
    ctx = Context(None, Config(), None, None, default, {}, Summary("test"))  # type: ignore[arg-type]
    source = open_workspace(ctx, pr).prompts().source("review")
    if ours is not None:
        assert source == ours
    else:
        assert pr not in source.parents  # the package's own template


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_reconcile_goes_on_past_a_pr_whose_branch_holds_a_link(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})
    seed = tmp_path / "seed"
    git(seed, "checkout", "-q", "-b", "linked")
    (seed / STATE).mkdir(parents=True)
    (seed / STATE / "plan.json").symlink_to("/proc/self/environ")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "link")
    git(seed, "push", "-q", str(origin), "HEAD:refs/heads/linked")
    assert run_bot(tmp_path, checkout, "workflow_dispatch", payload("workflow_dispatch")) == 0
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert f"`{STATE}/plan.json`: is a symbolic link on the pull request's branch" in summary
    assert "#2: status comment not rebuilt" in summary
    assert "status comment unchanged on #3" in summary
    assert bodies_sent(vcr) == []  # said in the job summary, never on the PR
