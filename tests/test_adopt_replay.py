"""Day one and after on the adopter's repository (`tests/data/adopt_repo/`): `rfd lint`
and the hooks over all files report exactly the planted problems, and a replay of the
commits such a team makes gets the verdict its process gives each one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    """The team's first step, as the README gives it: `rfd init`, then commit."""
    repo = build_adopt_repo(tmp_path / "jp")
    assert main(["-C", str(repo), "init"]) == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt rfd-bot")
    capsys.readouterr()
    return repo


def lint_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["-C", str(repo), "lint", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_planted_problems_and_nothing_else_before_adoption(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Directory links (`../../crates/jp_queue/`) included: a folder that exists is no
    broken link."""
    assert {p.kind for p in PLANTED} == {"heading-mismatch", "requires-cycle"}
    code, result = lint_json(build_adopt_repo(tmp_path / "jp"), capsys)
    assert code == 1
    assert {(f["path"], f["code"]) for f in result["findings"]} == PLANTED_CODES


def test_day_one_is_green_the_findings_from_before_are_recorded(
    adopted: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = json.loads((adopted / "docs/rfd/.state/baseline.json").read_text())["findings"]
    assert {(f["path"], f["code"]) for f in recorded} == PLANTED_CODES
    assert main(["-C", str(adopted), "lint"]) == 0
    assert "38 RFDs checked, no errors; 3 findings from before adoption not reported" in (
        capsys.readouterr().out
    )
    files = git(adopted, "ls-files").split()
    for hook in (rfd_lint.main, rfd_status.main, rfd_state.main):
        assert run_hook(hook, adopted, files, monkeypatch, capsys) == (0, "")


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


EVENTS = "docs/rfd/drafts/D18-plugin-event-subscriptions.md"
COMPLETION = "docs/rfd/drafts/D31-shell-completion.md"


def drafts_linked(repo: Path) -> None:
    """D31 extends D18, and D18 says so, as this team keeps `Extended by`."""
    edit(COMPLETION, "- **Category**", "- **Extends**: [RFD D18]\n- **Category**")(repo)
    edit(EVENTS, "- **Category**", "- **Extended by**: [RFD D31]\n- **Category**")(repo)


def published(repo: Path, slug: str) -> str:
    (path,) = (repo / "docs/rfd").glob(f"[0-9]*-{slug}.md")
    return path.read_text(encoding="utf-8")


def promote_extended_draft(repo: Path) -> None:
    """Its header keeps no link to draft D31 (whose number is about to change)."""
    cli("promote", "D18")(repo)
    header = published(repo, "plugin-event-subscriptions").split("## Summary")[0]
    assert "Extended by" not in header and "D31" not in header, header


def promote_extending_draft(repo: Path) -> None:
    """The RFD it extends lists it under its new number (the corpus keeps `Extended by`)."""
    cli("promote", "D31")(repo)
    number = published(repo, "shell-completion").split(":")[0].removeprefix("# RFD ")
    assert f"- **Extended by**: [RFD {number}]" in published(repo, "plugin-event-subscriptions")


# (what the team does, the change, the verdict, what the hooks must say)
REPLAY: list[tuple[str, Callable[[Path], None], int, str]] = [
    ("a typo fix in the Process RFD", edit(PROCESS_RFD, "discussion", "discusion"), 0, ""),
    ("a draft promoted with rfd", cli("promote", "D12"), 0, ""),
    (
        "a plan written into a draft",
        edit(OFFLINE, "## Design sketch", OFFLINE_PLAN + "\n## Design sketch"),
        0,
        "",
    ),
    ("rfd accept on that draft, its phases and rfd done in one commit", accept_then_finish, 0, ""),
    (
        "a Discussion RFD accepted by editing its Status line, no plan",
        edit(
            "docs/rfd/017-persona-definitions.md", "**Status**: Discussion", "**Status**: Accepted"
        ),
        0,
        "",
    ),
    (
        "an Accepted RFD moved to Implemented, work tracked in tickets",
        edit(
            "docs/rfd/020-query-pipeline-rewrite.md",
            "**Status**: Accepted",
            "**Status**: Implemented",
        ),
        0,
        "",
    ),
    ("a new RFD merged as Accepted (its PR was the discussion)", new_rfd("040", "Accepted"), 0, ""),
    ("a draft that extends another draft, both headers saying so", drafts_linked, 0, ""),
    ("the extended draft promoted with rfd", promote_extended_draft, 0, ""),
    ("the extending draft promoted with rfd", promote_extending_draft, 0, ""),
    (
        "a published RFD's back-link to a draft written by hand",
        edit(
            "docs/rfd/028-command-plugin-system.md",
            "- **Tracking Issue**",
            "- **Required by**: [RFD D05]\n- **Tracking Issue**",
        ),
        1,
        "RFD009 error: Required by: a published RFD links to draft RFD D05",
    ),
    (
        "a link to a crate folder mistyped",
        edit("docs/rfd/006-conversation-storage-format.md", "crates/jp_queue/", "crates/jp_quue/"),
        1,
        "RFD015 error: link [queue crate] points to ../../crates/jp_quue/, which does not exist",
    ),
    (
        "the same where the process wants Draft first",
        new_rfd("041", "Accepted", STRICT_NEW),
        1,
        "a new RFD cannot start as Accepted",
    ),
    (
        "a published RFD deleted",
        remove("docs/rfd/011-local-embedding-index.md"),
        1,
        "RFD016 published RFD 011 is deleted",
    ),
    (
        "status written in lower case",
        edit("docs/rfd/023-editor-integration.md", "**Status**: Accepted", "**Status**: accepted"),
        1,
        "RFD013 error: status 'accepted' is not written as 'Accepted'",
    ),
    (
        "a cycle closed through Extends",
        edit(
            "docs/rfd/006-conversation-storage-format.md",
            "- **Status**",
            "- **Extends**: [RFD 025]\n- **Status**",
        ),
        1,
        "RFD012 error: Extends RFD 025 leads back to this RFD",
    ),
]


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
