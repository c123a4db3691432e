"""`rfd accept` on an RFD accepted before rfd-bot (its Status line edited by hand): on an
adopted corpus, in our format and in Oxide's AsciiDoc, the plan is extracted and the
tracking issue opened, and the status is left as the team wrote it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.adopt_repo import build_adopt_repo
from tests.conftest import git
from tests.dialect_corpora import build_oxide

JP_012 = "docs/rfd/012-per-workspace-config-overrides.md"
ISSUES = "docs/rfd/.state/.forge/issues"
PLAN_015 = """
== Implementation Plan

=== Phase 1: Schema

The tables and their migrations.

=== Phase 2: Queries

The queries Nexus runs.
"""


def run(repo: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["-C", str(repo), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    """The adopter's corpus after `rfd init`, committed: 13 RFDs Accepted by hand, no plan."""
    repo = build_adopt_repo(tmp_path / "jp")
    assert main(["-C", str(repo), "init"]) == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "rfd init")
    return repo


def test_status_offers_accept_for_an_rfd_accepted_before_the_bot(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(adopted, capsys, "status", "12")
    assert code == 0
    assert "Phases: 0/0 done" in out
    assert "plan.json is missing — `rfd accept 012` extracts it from the RFD and opens" in out
    assert "rfd accept 012   Extract its plan and open its tracking issue (stays Accepted)" in out
    assert "Accept: not yet" not in out  # accept is offered, not refused


def test_accept_extracts_the_plan_and_opens_the_tracking_issue_keeping_the_status(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (adopted / JP_012).read_text()
    code, out, err = run(adopted, capsys, "accept", "12")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "  → plan extracted (deterministic): 2 phases",
        f"  → tracking issue #1 opened: {ISSUES}/1.md",
        "  RFD 012 was already Accepted: its plan has 2 phases (deterministic), tracking issue"
        " #1; its status stays Accepted",
        "  1. Directory layers",
        "  2. `jp config explain` shows the directory",
        "✓ RFD 012: next, `rfd implement 012` — Implement phase 1: Directory layers (opus)",
    ]
    assert (adopted / JP_012).read_text() == before  # the status, as the team wrote it
    plan = json.loads((adopted / "docs/rfd/.state/012/plan.json").read_text())
    assert [p["title"] for p in plan] == [
        "Directory layers",
        "`jp config explain` shows the directory",
    ]
    issue = (adopted / ISSUES / "1.md").read_text()
    assert "- [ ] 1. Directory layers" in issue
    assert "- [ ] 2. `jp config explain` shows the directory" in issue


def test_accept_again_opens_no_second_issue_and_says_why(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(adopted, capsys, "accept", "12")[0] == 0
    code, out, err = run(adopted, capsys, "accept", "12")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"error: {JP_012}: RFD 012 is Accepted: only Draft or Discussion RFDs are accepted",
        "  hint: it is already Accepted; see `rfd status 012`",
    ]
    assert sorted(p.name for p in (adopted / ISSUES).glob("*.md")) == ["1.md"]


def test_accept_of_an_accepted_rfd_without_a_plan_section_says_what_to_write(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(adopted, capsys, "accept", "4")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "error: docs/rfd/004-toml-for-configuration.md: no plan to extract: there is no"
        " `## Implementation Plan` section; no AI model is configured to read the plan from the"
        " text instead",
        "  hint: set ANTHROPIC_API_KEY (or OPENAI_API_KEY with provider.base_url) to let the"
        " model read the plan, or write `### Phase 1: Title` blocks with a description under"
        " `## Implementation Plan`, then run accept again (nothing was promoted)",
    ]
    assert not (adopted / "docs/rfd/.state/004").exists()
    assert not (adopted / ISSUES).exists()


def test_an_implemented_rfd_stays_refused(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(adopted, capsys, "accept", "3")
    assert code == 1
    assert "RFD 003 is Implemented: only Draft or Discussion RFDs are accepted" in err
    assert not (adopted / ISSUES).exists()


def test_an_oxide_rfd_published_before_the_bot_is_taken_on_in_asciidoc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Oxide's `:state: published` is Accepted: its AsciiDoc plan is read, the attribute kept."""
    repo = shutil.copytree(build_oxide(tmp_path / "built"), tmp_path / "oxide")
    assert main(["-C", str(repo), "init"]) == 0
    rfd = repo / "rfd/0015/README.adoc"
    rfd.write_text(rfd.read_text() + PLAN_015)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "RFD 15: its plan")
    before = rfd.read_text()
    code, out, _ = run(repo, capsys, "accept", "15")
    assert code == 0
    assert "  RFD 0015 was already Accepted: its plan has 2 phases (deterministic)" in out
    assert rfd.read_text() == before  # `:state: published` as it was
    plan = json.loads((repo / "rfd/.state/0015/plan.json").read_text())
    assert [(p["title"], p["description"]) for p in plan] == [
        ("Schema", "The tables and their migrations."),
        ("Queries", "The queries Nexus runs."),
    ]
    assert "- [ ] 1. Schema" in (repo / "rfd/.state/.forge/issues/1.md").read_text()


def test_with_sign_offs_only_an_rfd_accepted_at_adoption_is_taken_on(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`[consensus]`: RFD 012 was Accepted when the team adopted the bot (the baseline says
    so); RFD 017's Status line was edited to Accepted since, which would skip its sign-offs."""
    config = adopted / ".github/rfd.toml"
    config.write_text(config.read_text() + '\n[consensus]\nreviewers = ["octocat"]\n')
    rfd_017 = adopted / "docs/rfd/017-persona-definitions.md"
    rfd_017.write_text(rfd_017.read_text().replace("Status**: Discussion", "Status**: Accepted"))
    assert run(adopted, capsys, "accept", "12")[0] == 0
    code, out, err = run(adopted, capsys, "accept", "17")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "error: docs/rfd/017-persona-definitions.md: RFD 017 is Accepted, but neither the"
        " adoption baseline nor its consensus record says it was accepted: `[consensus]` asks"
        " for sign-offs before an RFD is accepted",
        "  hint: set its Status back to Discussion, then run `rfd accept 017` once it is signed"
        " off (`rfd status 017` shows who may)",
    ]
    assert not (adopted / "docs/rfd/.state/017/plan.json").exists()


def test_with_sign_offs_status_does_not_offer_accept_for_an_rfd_marked_accepted_since(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = adopted / ".github/rfd.toml"
    config.write_text(config.read_text() + '\n[consensus]\nreviewers = ["octocat"]\n')
    rfd_017 = adopted / "docs/rfd/017-persona-definitions.md"
    rfd_017.write_text(rfd_017.read_text().replace("Status**: Discussion", "Status**: Accepted"))
    code, out, _ = run(adopted, capsys, "status", "17")
    assert code == 0
    assert "rfd accept 017" not in out.split("Actions:")[-1]
    assert "Accept: not yet: RFD 017 is Accepted, but neither the adoption baseline" in out


def test_a_forge_failure_leaves_no_plan_so_accept_runs_again(
    adopted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tracking issue could not be opened: no plan.json is left behind (it would make the
    next `rfd accept` answer "already Accepted"), and the next run takes the RFD on."""
    from bot.core.errors import ForgeUnreachable
    from bot.lifecycle.accept import accept
    from bot.lifecycle.workspace import Workspace

    ws = Workspace.open(adopted)

    def unreachable(*args: object, **kwargs: object) -> None:
        raise ForgeUnreachable("could not reach GitHub to create an issue: ConnectionError")

    with monkeypatch.context() as patch:
        patch.setattr(ws.forge, "create_issue", unreachable)
        with pytest.raises(ForgeUnreachable, match="could not reach GitHub"):
            accept(ws, "12")
    assert not (adopted / "docs/rfd/.state/012/plan.json").exists()
    assert accept(ws, "12").kept
    assert (adopted / "docs/rfd/.state/012/plan.json").is_file()
