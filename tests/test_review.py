from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.errors import TransitionError
from bot.events import EventBus, ReviewSaved
from bot.lifecycle import review
from bot.lifecycle.workspace import Workspace
from bot.model.reviews import Severity
from tests.conftest import rfd_text, write_rfd


def open_ws(repo: Path, now: float = 1_700_000_000.0) -> Workspace:
    return Workspace.open(repo, clock=lambda: now)


def messages(outcome: review.ReviewOutcome) -> list[str]:
    return [f.message for f in outcome.review.findings]


def test_offline_review_of_a_complete_rfd_finds_nothing(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    out = review.review(open_ws(git_repo), "1")
    assert out.review.findings == ()
    assert out.path.name == "1700000000.md"
    assert out.path.parent.name == "reviews"
    assert "structurally complete" in out.text


def test_offline_review_names_sections_and_lines(git_repo: Path) -> None:
    text = rfd_text("002", "B", requires="RFD 009", plan="### Phase 1: Only a title\n")
    text = text.replace("Written design text.", "Written design text. TODO: pick a cap.")
    text = text.replace("Written risks and open questions text.", "- [ ] Who owns the queue?")
    write_rfd(git_repo, "002-b.md", text)
    out = review.review(open_ws(git_repo), "2")
    found = {(f.section, f.severity) for f in out.review.findings}
    assert ("Design", Severity.MINOR) in found  # the TODO
    assert any("009" in m for m in messages(out))  # Requires a missing RFD
    assert any("no description" in m for m in messages(out))
    todo = next(f for f in out.review.findings if "TODO" in f.message)
    assert text.splitlines()[todo.line - 1].endswith("TODO: pick a cap.")  # type: ignore[operator]
    assert out.review.questions and "Who owns the queue?" in out.review.questions[0]
    assert "Risks and Open Questions (line " in out.review.questions[0]  # names where it is


def test_missing_plan_and_one_sided_supersede_are_reported(git_repo: Path) -> None:
    write_rfd(git_repo, "001-old.md", rfd_text("001", "Old", "Accepted"))
    text = rfd_text("002", "New").split("## Implementation Plan")[0]
    text = text.replace("- **Date**", "- **Supersedes**: RFD 001\n- **Date**")
    write_rfd(git_repo, "002-new.md", text)
    out = review.review(open_ws(git_repo), "2")
    assert any("Superseded by" in m for m in messages(out))
    assert any(f.section == "Implementation Plan" for f in out.review.findings)


def test_review_is_saved_and_announced(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    bus, seen = EventBus(), []
    bus.subscribe(ReviewSaved, seen.append)
    ws = Workspace.open(git_repo, bus=bus, clock=lambda: 1_700_000_000.0)
    review.review(ws, "1")
    second = review.review(ws, "1")  # same second: a new file, not an overwrite
    assert second.path.name == "1700000001.md"
    assert [e.path for e in seen][-1].endswith("reviews/1700000001.md")
    assert len(ws.store.list_reviews("001")) == 2


def test_accepted_rfds_get_an_implementation_review(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", "Accepted"))
    ws = open_ws(git_repo)
    from bot.model.plan import PlanPhase

    ws.store.write_plan("001", (PlanPhase("Schema", "d"), PlanPhase("Worker", "d")))
    ws.store.write_phase_summary("001", 1, "done the schema")
    out = review.review(ws, "1")
    assert out.impl and out.path.parent.name == "impl-reviews"
    assert "1 of 2 phases" in out.review.summary and "Worker" in out.review.summary


def test_implemented_rfds_are_not_reviewed(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", "Implemented"))
    with pytest.raises(TransitionError, match="nothing left to review"):
        review.review(open_ws(git_repo), "1")


def test_a_committed_oxide_rfd_is_not_reviewed_said_in_its_words(git_repo: Path) -> None:
    """The bot's rfd:review reply and the CLI say Oxide's words, rfd's stage once."""
    write_rfd(git_repo, "0015/README.md", "---\nstate: committed\n---\n\n# RFD 15 Console\n")
    with pytest.raises(TransitionError) as raised:
        review.review(open_ws(git_repo), "15")
    assert raised.value.message == (
        "RFD 0015 is committed (Implemented): there is nothing left to review"
    )
    assert raised.value.hint == (
        "reviews apply to prediscussion, discussion (design) and published (implementation)"
    )


def test_dismiss_by_number_and_all(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    ws = open_ws(git_repo)
    for _ in range(3):
        review.review(ws, "1")
    out = review.dismiss(ws, "1", [2])
    assert [p.name for p in out.dismissed] == ["1700000001.md"]
    assert [r.path.name for r in ws.store.list_reviews("001")] == [
        "1700000000.md",
        "1700000002.md",
    ]
    review.dismiss(ws, "1", "all")
    assert ws.store.list_reviews("001") == []


def test_implementation_review_knows_phases_by_label(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", "Accepted"))
    ws = open_ws(git_repo)
    from bot.model.plan import PlanPhase

    ws.store.write_plan("001", (PlanPhase("Schema", "d", "0"), PlanPhase("Worker", "d", "3a")))
    ws.store.write_phase_summary("001", "0", "done the schema")
    ws.store.write_phase_summary("001", "3c", "stray")
    out = review.review(ws, "1")
    assert "1 of 2 phases recorded; next: phase 3a (Worker)." in out.review.summary
    assert [f.message for f in out.review.findings] == [
        "phases/3c.md has no matching phase in plan.json"
    ]
