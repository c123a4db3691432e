from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from bot.cli.next_step import status_of
from bot.config.load import ConventionsSection
from bot.core.errors import GateError, InvalidStructure, TransitionError
from bot.forge.base import Issue
from bot.lifecycle import accept, phases, tracking
from bot.lifecycle.lifecycle import done
from bot.lifecycle.workspace import Workspace
from tests.conftest import rfd_text, write_rfd


def test_accept_extracts_promotes_and_opens_the_tracking_issue(git_repo: Path) -> None:
    path = write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue"))
    ws = Workspace.open(git_repo)
    out = accept.accept(ws, "1")
    assert [p.title for p in out.phases] == ["Schema", "Worker"]
    assert out.method == "deterministic"
    text = path.read_text()
    assert "- **Status**: Accepted" in text
    assert "Tracking Issue" not in text  # a local issue stays in the state directory
    shown = f"#{out.issue.number} (docs/rfd/.state/.forge/issues/{out.issue.number}.md)"
    assert ("Tracking Issue", shown) in status_of(ws, "1").lines  # rfd status still shows it
    assert "- [ ] 1. Schema" in out.issue.body and "- [ ] 2. Worker" in out.issue.body
    assert ws.store.read_plan("001") == out.phases


def test_accept_without_a_plan_changes_nothing(git_repo: Path) -> None:
    text = rfd_text("001", "A", plan="<!-- TODO: describe the phases -->\n")
    path = write_rfd(git_repo, "001-a.md", text)
    ws = Workspace.open(git_repo)
    with pytest.raises(InvalidStructure) as exc:
        accept.accept(ws, "1")
    assert "nothing was promoted" in str(exc.value)
    assert path.read_text() == text
    assert ws.store.read_plan("001") is None
    assert ws.forge.find_issue("rfd-bot:tracking") is None


def test_accepting_a_draft_publishes_it_first(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    write_rfd(git_repo, "D3-b.md", rfd_text("D3", "B", "Draft"))
    out = accept.accept(Workspace.open(git_repo), "D3")
    assert out.rfd_id == "002"
    assert (git_repo / "docs/rfd/002-b.md").exists()


def test_phases_tick_the_issue_and_done_closes_it(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue"))
    ws = Workspace.open(git_repo)
    issue = accept.accept(ws, "1").issue
    one = phases.phase_done(ws, "1", 1, "schema added")
    assert (one.done, one.total) == (1, 2)
    body = ws.forge.get_issue(issue.number).body
    assert "- [x] 1. Schema" in body and "- [ ] 2. Worker" in body
    # a person edits the issue outside the bot's region: kept
    ws.forge.edit_issue(issue.number, body=body + "\nNotes from the team.\n")
    phases.phase_done(ws, "1", 2, "worker added")
    done(ws, "1")
    final = ws.forge.get_issue(issue.number)
    assert final.state == "closed"
    assert "- [x] 2. Worker" in final.body and "Notes from the team." in final.body


def test_phase_numbers_and_empty_summaries_are_refused(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue"))
    ws = Workspace.open(git_repo)
    accept.accept(ws, "1")
    with pytest.raises(Exception, match="no phase 3"):
        phases.phase_done(ws, "1", 3, "x")
    with pytest.raises(Exception, match="empty"):
        phases.phase_done(ws, "1", 1, "  \n")


def test_accepting_again_refuses_and_keeps_the_plan(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue"))
    ws = Workspace.open(git_repo)
    accept.accept(ws, "1")
    plan = ws.store.dir("001") / "plan.json"
    before = plan.read_text()
    with pytest.raises(TransitionError, match="already Accepted"):
        accept.accept(ws, "1")
    assert plan.read_text() == before


def test_a_draft_blocked_by_its_requires_is_not_published(git_repo: Path) -> None:
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base"))  # only in Discussion
    draft = write_rfd(git_repo, "D3-b.md", rfd_text("D3", "B", "Draft", requires="RFD 001"))
    before = draft.read_text()
    with pytest.raises(GateError, match="001"):
        accept.accept(Workspace.open(git_repo), "D3")
    assert draft.read_text() == before
    assert not (git_repo / "docs/rfd/002-b.md").exists()


def test_accept_keeps_crlf_line_endings_and_changes_only_its_lines(git_repo: Path) -> None:
    lf = rfd_text("001", "Queue")
    path = write_rfd(git_repo, "001-a.md", "")
    path.write_bytes(lf.replace("\n", "\r\n").encode())
    accept.accept(Workspace.open(git_repo), "1")
    after = path.read_bytes()
    assert b"\n" not in after.replace(b"\r\n", b"")  # every line still ends in CRLF
    added = set(after.split(b"\r\n")) - set(lf.replace("\n", "\r\n").encode().split(b"\r\n"))
    assert added == {b"- **Status**: Accepted"}


@pytest.mark.parametrize(
    ("url", "where", "name", "header"),
    [
        (
            "https://github.com/o/r/issues/7",
            "header",
            "001-x.md",
            "[#7](https://github.com/o/r/issues/7)",
        ),
        (
            "https://github.com/o/r/issues/7",
            "header",
            "README.adoc",
            "https://github.com/o/r/issues/7[#7]",
        ),
        ("https://github.com/o/r/issues/7", "state", "001-x.md", None),
        ("local:docs/rfd/.state/.forge/issues/7.md", "header", "README.adoc", None),
    ],
)
def test_the_tracking_issue_is_recorded_where_the_repository_records_it(
    url: str, where: Literal["header", "state"], name: str, header: str | None
) -> None:
    issue = Issue(number=7, title="RFD 001", body="", url=url, state="open")
    style = ConventionsSection(tracking_issue=where)
    assert accept.tracking_header(issue, style, name) == header


def test_a_title_carrying_another_rfds_tracking_marker_takes_nothing_over(git_repo: Path) -> None:
    """RFD 002 titled with RFD 001's marker: accepting 001 opens 001's own issue."""
    hostile = rfd_text("002", "Beta <!-- rfd-bot:tracking:001 -->")
    write_rfd(git_repo, "002-beta.md", hostile)
    write_rfd(git_repo, "001-alpha.md", rfd_text("001", "Alpha"))
    ws = Workspace.open(git_repo)
    beta = accept.accept(ws, "2").issue
    assert "<!-- rfd-bot:tracking:001" not in beta.body  # the title reads as text
    alpha = accept.accept(ws, "1").issue
    assert alpha.number != beta.number
    assert ws.forge.get_issue(beta.number).body == beta.body  # RFD 002's issue untouched
    assert alpha.title == "RFD 001: Alpha"


def test_a_phase_title_with_the_checklist_end_marker_keeps_ticks(git_repo: Path) -> None:
    plan = (
        "### Phase 1: Schema <!-- rfd-bot:checklist:end -->\n\nAdd it.\n\n"
        "### Phase 2: Worker @octocat\n\nRun it.\n"
    )
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue", plan=plan))
    ws = Workspace.open(git_repo)
    issue = accept.accept(ws, "1").issue
    phases.phase_done(ws, "1", 1, "schema added")
    phases.phase_done(ws, "1", 2, "worker added")
    body = ws.forge.get_issue(issue.number).body
    items = [line for line in body.splitlines() if line.startswith("- [")]
    assert len(items) == 2 and all(line.startswith("- [x]") for line in items)
    assert body.count(tracking.END) == 1 and "@octocat" not in body
