"""The implementation review's diff: since the commit that accepted the RFD (real git)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ai.impl_diff import acceptance_commit, review_diff
from bot.cli.main import main
from bot.lifecycle.workspace import Workspace
from tests.conftest import git, rfd_text, write_rfd
from tests.fakes import ScriptedLLM, reply, scripted_providers

RFD = "001-a.md"
REVIEW = {"summary": "Matches.", "findings": [], "questions": []}


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def set_status(repo: Path, status: str, extra: str = "") -> None:
    write_rfd(repo, RFD, rfd_text("001", "A", status) + extra)


@pytest.fixture
def accepted(git_repo: Path) -> tuple[Path, str]:
    """Discussion + early code, then the acceptance commit, then later work."""
    set_status(git_repo, "Discussion")
    (git_repo / "early.py").write_text("BEFORE = 1\n")
    commit(git_repo, "discuss")
    set_status(git_repo, "Accepted")
    sha = commit(git_repo, "accept")
    set_status(git_repo, "Accepted", "\nTracking issue linked.\n")  # still Accepted: same run
    (git_repo / "worker.py").write_text("def claim():\n    return None\n")
    commit(git_repo, "phase 1")
    (git_repo / "early.py").write_text("BEFORE = 2\n")  # uncommitted work counts too
    return git_repo, sha


def test_the_acceptance_commit_is_found_in_history(accepted: tuple[Path, str]) -> None:
    repo, sha = accepted
    ws = Workspace.open(repo)
    assert acceptance_commit(ws.vcs.file_history(repo / "docs/rfd" / RFD), ws.vcs.read_at) == sha  # type: ignore[union-attr]


def test_the_diff_runs_from_acceptance_to_the_working_tree(accepted: tuple[Path, str]) -> None:
    repo, sha = accepted
    ws = Workspace.open(repo)
    diff = review_diff(ws, ws.document("1"))
    assert diff.notices == ()
    assert diff.label == f"diff since acceptance (commit {sha[:12]})"
    assert "+++ b/worker.py" in diff.text  # committed after acceptance, on the main branch
    assert "-BEFORE = 1\n+BEFORE = 2" in diff.text
    assert "Tracking issue linked." in diff.text


def test_acceptance_followed_across_the_rename_of_a_draft(git_repo: Path) -> None:
    write_rfd(git_repo, "D1-a.md", rfd_text("D1", "A", "Draft"))
    commit(git_repo, "draft")
    git(git_repo, "mv", "docs/rfd/D1-a.md", f"docs/rfd/{RFD}")
    set_status(git_repo, "Accepted")
    sha = commit(git_repo, "accept from draft: renumbered and accepted")
    ws = Workspace.open(git_repo)
    assert review_diff(ws, ws.document("1")).label == f"diff since acceptance (commit {sha[:12]})"


def test_a_shallow_clone_that_stops_before_acceptance_falls_back(
    accepted: tuple[Path, str], tmp_path: Path
) -> None:
    origin, _ = accepted
    git(origin, "commit", "-qam", "uncommitted work, committed")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(shallow))
    ws = Workspace.open(shallow)
    diff = review_diff(ws, ws.document("1"))
    assert diff.label.startswith("diff against main")
    assert "is the clone shallow?" in diff.notices[0]


def test_an_rfd_added_accepted_in_full_history_was_accepted_there(git_repo: Path) -> None:
    set_status(git_repo, "Accepted")
    sha = commit(git_repo, "add an accepted RFD")
    ws = Workspace.open(git_repo)
    assert review_diff(ws, ws.document("1")).label == f"diff since acceptance (commit {sha[:12]})"


def test_an_uncommitted_acceptance_falls_back_to_the_main_branch_and_says_so(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_status(git_repo, "Discussion")
    commit(git_repo, "discuss")
    set_status(git_repo, "Accepted")  # accepted in the working tree only
    llm = ScriptedLLM([reply("", ("submit_review", REVIEW))])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    assert main(["-C", str(git_repo), "review", "1"]) == 0
    err = capsys.readouterr().err
    assert "the commit that accepted RFD 001 was not found" in err
    assert "diff against 'main' instead" in err
    sent = "\n".join(m.text for m in llm.requests[0].messages)
    assert (
        '<document name="diff against main (the commit that accepted the RFD was not found)">'
        in sent
    )


def test_the_fallback_notice_reaches_the_review_posted_on_the_pr() -> None:
    from bot.github.review import review_comment
    from bot.github.review_post import Kept, Where
    from bot.lifecycle.review import ReviewOutcome
    from bot.llm.base import Usage
    from bot.model.reviews import Review

    notice = "the commit that accepted RFD 045 was not found in the git history"
    result = ReviewOutcome(
        "045",
        Path("r.md"),
        Review(
            kind="implementation",
            summary="S.",
            findings=(),
            questions=(),
            reviewer="anthropic",
            model="m",
        ),
        "# Review\n",
        Usage(),
        "m",
        0.0,
        (),
        "saved",
        (notice,),
    )
    where = Where("https://github.com/o/r", "docs/rfd/045-x.md", "a" * 40)
    body = review_comment(result, ("b" * 40, ""), Kept(None), ["offline note"], where)
    assert "> offline note\n> " + notice in body
