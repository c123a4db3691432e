"""rfd-sync: after a commit (or before a push), tick phases on the tracking issue."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.forge.local import LocalForge
from bot.lifecycle.tracking import render_body, ticked
from bot.model.plan import loads
from bot.state.files import SharedFiles
from hooks._git import origin_repository
from hooks.rfd_sync import main, run
from tests.conftest import git
from tests.hooks_support import STATE, commit, plan_json, rfd, run_hook

A = "docs/rfd/001-alpha.md"
PLAN = f"{STATE}/001/plan.json"
TOKEN = {"RFD_GITHUB_TOKEN": "not-a-real-token"}


def phase(n: int) -> dict[str, str]:
    return {f"{STATE}/001/phases/{n}.md": f"Phase {n} done.\n"}


@pytest.fixture
def forge(git_repo: Path) -> LocalForge:
    """The local forge (files outside the repository) with RFD 001's tracking issue."""
    forge = LocalForge(SharedFiles(git_repo.parent / "forge", git_repo.parent))
    phases = loads(plan_json(3), PLAN)
    forge.create_issue("RFD 001: Alpha", render_body("001", "Alpha", A, phases, set()))
    commit(git_repo, {A: rfd(status="Accepted", phases=3), PLAN: plan_json(3)})
    return forge


def sync(repo: Path, forge: LocalForge, from_ref: str = "", to_ref: str = "") -> int:
    return run(repo, from_ref, to_ref, TOKEN, lambda root, token: forge)


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (phase(1), "RFD 001: tick phase 1 on its tracking issue"),
        ({**phase(1), **phase(2)}, "RFD 001: tick phases 1, 2 on its tracking issue"),
        ({A: rfd(status="Abandoned", phases=3)}, "RFD 001: close it (status now Abandoned)"),
        (
            {A: rfd(status="Implemented", phases=3), **phase(3)},
            "tick phase 3 and close it (status now Implemented)",
        ),
    ],
)
def test_without_a_token_it_says_what_it_would_do(
    git_repo: Path,
    forge: LocalForge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    expected: str,
) -> None:
    commit(git_repo, files)
    code, out = run_hook(main, git_repo, [], monkeypatch, capsys)
    assert code == 0
    assert "no GitHub token (set RFD_GITHUB_TOKEN)" in out
    assert expected in out
    assert forge.writes == ["forge/issues/1.md"]  # only the set-up wrote


@pytest.mark.parametrize(
    "files", [{f"{STATE}/001/explore.md": "notes\n"}, {A: rfd(status="Accepted", phases=3)}]
)
def test_commits_that_change_nothing_tracked_are_silent(
    git_repo: Path,
    forge: LocalForge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
) -> None:
    commit(git_repo, {**files, "notes.txt": "x\n"})
    assert run_hook(main, git_repo, [], monkeypatch, capsys) == (0, "")


def test_with_a_token_the_phase_is_ticked_once(
    git_repo: Path, forge: LocalForge, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, phase(2))
    assert sync(git_repo, forge) == 0
    assert "updated tracking issue #1 (1/3 phases)" in capsys.readouterr().out
    assert ticked(forge.get_issue(1).body) == {2}
    assert sync(git_repo, forge) == 0
    assert "already up to date" in capsys.readouterr().out
    assert len(forge.writes) == 2


def test_implemented_closes_the_issue(
    git_repo: Path, forge: LocalForge, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {**phase(1), **phase(2)})
    commit(git_repo, {A: rfd(status="Implemented", phases=3), **phase(3)})
    assert sync(git_repo, forge) == 0
    issue = forge.get_issue(1)
    assert (ticked(issue.body), issue.state) == ({1, 2, 3}, "closed")
    assert "(3/3 phases) and closed it" in capsys.readouterr().out


def test_pre_push_syncs_every_pushed_commit(git_repo: Path, forge: LocalForge) -> None:
    base = commit(git_repo, {"notes.txt": "x\n"})
    commit(git_repo, phase(1))
    head = commit(git_repo, phase(3))
    assert sync(git_repo, forge, base, head) == 0
    assert ticked(forge.get_issue(1).body) == {1, 3}


def test_pre_push_syncs_nothing_when_rfd_status_refuses_the_push(
    git_repo: Path,
    forge: LocalForge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = commit(git_repo, {"notes.txt": "x\n"})
    commit(git_repo, phase(1))
    head = commit(git_repo, {A: rfd(status="Implemented", phases=3)})  # phases 2, 3 not done
    monkeypatch.chdir(git_repo)
    assert sync(git_repo, forge, base, head) == 0
    assert "rfd-status refuses this push" in capsys.readouterr().out
    assert ticked(forge.get_issue(1).body) == set()


def test_issue_named_in_the_rfd_header_is_used(git_repo: Path, forge: LocalForge) -> None:
    forge.create_issue("unrelated", "no marker here")
    header = rfd(status="Accepted", phases=3).replace(
        "- **Date**", "- **Tracking Issue**: #2\n- **Date**"
    )
    commit(git_repo, {A: header, **phase(1)})
    assert sync(git_repo, forge) == 0
    assert ticked(forge.get_issue(2).body) == {1}
    assert ticked(forge.get_issue(1).body) == set()


def test_no_tracking_issue_is_not_an_error(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = LocalForge(SharedFiles(git_repo.parent / "empty", git_repo.parent))
    commit(git_repo, {A: rfd(status="Accepted"), **phase(1)})
    assert sync(git_repo, empty) == 0
    assert "no tracking issue yet" in capsys.readouterr().out


def test_token_without_the_github_forge_fails_clearly(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Until bot.forge.github exists (or when it cannot load), the hook says so."""
    commit(git_repo, {A: rfd(status="Accepted"), **phase(1)})
    monkeypatch.setenv("GITHUB_TOKEN", "not-a-real-token")
    monkeypatch.setitem(sys.modules, "bot.forge.github", None)
    code, out = run_hook(main, git_repo, [], monkeypatch, capsys)
    assert code == 1
    assert "the GitHub forge cannot be loaded" in out
    assert "not-a-real-token" not in out


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("git@github.com:acme/rfds.git", "acme/rfds"),
        ("https://github.com/acme/rfds.git", "acme/rfds"),
        ("https://github.com/acme/rfds", "acme/rfds"),
        ("ssh://git@ghe.example.com:2222/acme/rfds.git/", "acme/rfds"),
        (None, None),
    ],
)
def test_repository_from_the_origin_remote(git_repo: Path, url: str | None, expected: str) -> None:
    if url is not None:
        git(git_repo, "remote", "add", "origin", url)
    assert origin_repository(git_repo) == expected


def test_github_unreachable_warns_and_never_blocks_the_push(
    git_repo: Path, forge: LocalForge, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.core.errors import ForgeUnreachable as ForgeError

    class Offline(LocalForge):
        def find_issue(self, marker: str) -> None:
            raise ForgeError("could not reach GitHub to find an issue: ConnectionError")

        def get_issue(self, number: int) -> None:  # type: ignore[override]
            raise ForgeError("could not reach GitHub to read an issue: ConnectionError")

    offline = Offline(forge.files)
    commit(git_repo, phase(2))
    assert run(git_repo, "", "", TOKEN, lambda root, token: offline) == 0
    assert "tracking issues not updated" in capsys.readouterr().out
