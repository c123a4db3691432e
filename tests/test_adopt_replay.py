"""Day one and after on the adopter's repository (`tests/data/adopt_repo/`): `rfd lint`
and the hooks over all files report exactly the planted problems, and a replay of the
commits such a team makes gets the verdict its process gives each one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli.main import main
from hooks import rfd_lint, rfd_state, rfd_status
from tests.adopt_repo import PLANTED, build_adopt_repo
from tests.conftest import git
from tests.hooks_support import run_hook

PROCESS_RFD = "docs/rfd/001-the-rfd-process.md"
PLANTED_CODES = {
    ("docs/rfd/021-cost-accounting.md", "RFD012"),
    ("docs/rfd/022-model-pricing-table.md", "RFD012"),
    ("docs/rfd/drafts/D55-inline-image-attachments.md", "RFD003"),
}
STRICT_NEW = '[process]\nnew_statuses = ["Draft", "Discussion"]\n'


@pytest.fixture
def adopted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    repo = build_adopt_repo(tmp_path / "jp")
    assert main(["-C", str(repo), "adopt"]) == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt rfd-bot")
    capsys.readouterr()
    return repo


def test_the_planted_problems_and_nothing_else(
    adopted: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert {p.kind for p in PLANTED} == {"heading-mismatch", "requires-cycle"}
    assert main(["-C", str(adopted), "lint", "--json"]) == 1
    import json

    found = json.loads(capsys.readouterr().out)["findings"]
    assert {(f["path"], f["code"]) for f in found} == PLANTED_CODES
    files = git(adopted, "ls-files").split()
    code, out = run_hook(rfd_lint.main, adopted, files, monkeypatch, capsys)
    assert code == 1
    reported = {line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")}
    assert reported == {path for path, _ in PLANTED_CODES}
    assert run_hook(rfd_status.main, adopted, files, monkeypatch, capsys) == (0, "")
    assert run_hook(rfd_state.main, adopted, files, monkeypatch, capsys) == (0, "")


def edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        text = (repo / path).read_text(encoding="utf-8")
        assert old in text, (path, old)
        (repo / path).write_text(text.replace(old, new, 1), encoding="utf-8")

    return change


def new_rfd(number: str, status: str, config: str = "") -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        if config:
            (repo / ".github/rfd.toml").write_text(config, encoding="utf-8")
        text = (
            f"# RFD {number}: Prompt caching\n\n- **Status**: {status}\n- **Category**: Decision\n"
            "- **Authors**: Ada <ada@example.com>\n- **Date**: 2026-02-01\n\n"
            "## Decision\n\nCache the system prompt.\n"
        )
        (repo / f"docs/rfd/{number}-prompt-caching.md").write_text(text, encoding="utf-8")

    return change


def cli(*argv: str) -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        assert main(["-C", str(repo), *argv]) == 0

    return change


def remove(path: str) -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        (repo / path).unlink()

    return change


OFFLINE = "docs/rfd/drafts/D23-offline-mode.md"
OFFLINE_PLAN = (
    "## Implementation Plan\n\n1. **Probe** the provider before long prompts.\n"
    "2. **Queue** queries as pending events.\n"
)


def accept_then_finish(repo: Path) -> None:
    """`rfd accept` on a draft, both phases and `rfd done`, all in one commit."""
    summary = repo.parent / "summary.md"
    summary.write_text("Done.\n", encoding="utf-8")
    assert main(["-C", str(repo), "accept", "D23"]) == 0
    (published,) = (repo / "docs/rfd").glob("*-offline-mode.md")
    rid = published.name.partition("-")[0]
    for label in ("1", "2"):
        assert main(["-C", str(repo), "phase", rid, "done", label, "--summary", str(summary)]) == 0
    assert main(["-C", str(repo), "done", rid]) == 0
    assert "**Status**: Implemented" in published.read_text(encoding="utf-8")


# (what the team does, the change, the verdict, what the hooks must say)
REPLAY: list[tuple[str, Callable[[Path], None], int, str]] = [
    ("a typo fix in the Process RFD", edit(PROCESS_RFD, "discussion", "discusion"), 0, ""),
    ("a draft promoted with rfd", cli("promote", "D12"), 0, ""),
    ("a plan written into a draft",
     edit(OFFLINE, "## Design sketch", OFFLINE_PLAN + "\n## Design sketch"), 0, ""),
    ("rfd accept on that draft, its phases and rfd done in one commit", accept_then_finish, 0, ""),
    ("a Discussion RFD accepted by editing its Status line, no plan",
     edit("docs/rfd/017-persona-definitions.md", "**Status**: Discussion", "**Status**: Accepted"),
     0, ""),
    ("an Accepted RFD moved to Implemented, work tracked in tickets",
     edit("docs/rfd/020-query-pipeline-rewrite.md", "**Status**: Accepted",
          "**Status**: Implemented"), 0, ""),
    ("a new RFD merged as Accepted (its PR was the discussion)", new_rfd("040", "Accepted"), 0, ""),
    ("the same where the process wants Draft first", new_rfd("041", "Accepted", STRICT_NEW), 1,
     "a new RFD cannot start as Accepted"),
    ("a published RFD deleted", remove("docs/rfd/011-local-embedding-index.md"), 1,
     "RFD016 published RFD 011 is deleted"),
    ("status written in lower case", edit("docs/rfd/023-editor-integration.md",
                                          "**Status**: Accepted", "**Status**: accepted"), 1,
     "RFD013 error: status 'accepted' is not written as 'Accepted'"),
    ("a cycle closed through Extends",
     edit("docs/rfd/006-conversation-storage-format.md", "- **Status**",
          "- **Extends**: [RFD 025]\n- **Status**"),
     1, "RFD012 error: Extends RFD 025 leads back to this RFD"),
]  # fmt: skip


def test_replayed_commits_get_the_verdict_of_the_process(
    adopted: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for what, change, verdict, says in REPLAY:
        change(adopted)
        git(adopted, "add", "-A")
        staged = git(adopted, "diff", "--cached", "--name-only", "--diff-filter=d").split()
        out = ""
        code = 0
        for hook in (rfd_lint.main, rfd_status.main, rfd_state.main):
            got, said = run_hook(hook, adopted, staged, monkeypatch, capsys)
            code, out = max(code, got), out + said
        assert code == verdict, f"{what}:\n{out}"
        assert says in out, f"{what}:\n{out}"
        if verdict == 0:
            git(adopted, "commit", "-qm", what)
        else:
            git(adopted, "reset", "-q", "--hard", "HEAD")
            git(adopted, "clean", "-qfd")
