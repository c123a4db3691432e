from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.agent.implementation.phase_work import PhaseWork, next_phase, prepare
from bot.agent.implementation.run import implement
from bot.config.load import Config, ImplementSection, StepSection, StepsSection
from bot.core.errors import (
    BudgetExceeded,
    GateError,
    ProviderError,
    ValidationError,
)
from bot.events import Notice, PhaseFailed, ResultReady
from bot.model.checklist import ItemStatus
from bot.model.plan import PlanPhase
from tests.agent_support import RFD, Repo, make_repo
from tests.fakes import ScriptedLLM, StubPrompts, item_done, reply

PLAN = "# Plan\n- [ ] 1. Add module — in src\n- [ ] 2. Add tests — with pytest\n"
WORK = PhaseWork(1, "Skeleton", "Create the module.", RFD)
BASE = "implement/1"


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return make_repo(tmp_path)


def notices(seen: list[object]) -> list[str]:
    return [e.message for e in seen if isinstance(e, Notice)]


def test_research_plan_items_summary(repo: Repo) -> None:
    write = ("write_file", {"path": "src/mod.py", "content": "X = 1\n"})
    llm = ScriptedLLM(
        [
            reply("Research notes."),
            reply(PLAN),
            reply("", write),
            item_done("Wrote src/mod.py.\n- [ ] 3. Document the module"),
            item_done("Tests added."),
            item_done("Documented."),
            reply("Phase summary."),
        ]
    )
    session, seen = repo.session(llm)
    result = implement(session, WORK)
    assert result.summary == "Phase summary.\n"
    assert [(i.label, i.status) for i in result.items] == [
        ("Add module — in src", ItemStatus.DONE),
        ("Add tests — with pytest", ItemStatus.DONE),
        ("Document the module", ItemStatus.DONE),
    ]
    assert (repo.root / "src" / "mod.py").read_text() == "X = 1\n"
    assert repo.store.read_text("D1", f"{BASE}/research.md") == "Research notes.\n"
    assert (
        repo.store.read_text("D1", f"{BASE}/items/1.md")
        == "Wrote src/mod.py.\n- [ ] 3. Document the module\n"
    )
    items = repo.store.read_text("D1", f"{BASE}/items.md") or ""
    assert items.startswith("<!-- original_count: 2 -->\n- [x] 1. Add module")
    assert notices(seen) == [
        "Researching phase 1: Skeleton",
        "Planning phase 1: Skeleton",
        "Working on step 1 of 2: Add module — in src",
        "Working on step 2 of 3: Add tests — with pytest",
        "Working on step 3 of 3: Document the module",
        "Summarizing phase 1: Skeleton",
    ]


def test_each_stage_gets_its_own_tools_and_a_fresh_context(repo: Repo) -> None:
    llm = ScriptedLLM([reply("R."), reply(PLAN), item_done("one"), item_done("two"), reply("S.")])
    session, _ = repo.session(llm)
    implement(session, WORK)
    read_only = ["read_file", "list_files", "grep_files"]
    full = [*read_only, "write_file", "edit_file", "run_command", "submit_item_result"]
    assert llm.tool_names == [read_only, read_only, full, full, []]
    assert all(m.role == "user" for r in llm.requests for m in r.messages)  # fresh contexts


def test_a_failed_item_is_retried_once_then_marked(repo: Repo) -> None:
    prompts = StubPrompts()
    boom = ProviderError("overloaded")
    llm = ScriptedLLM([reply("R."), reply(PLAN), boom, boom, item_done("two"), reply("S.")])
    session, seen = repo.session(llm, prompts=prompts)
    result = implement(session, WORK)
    assert [(i.status, i.reason) for i in result.failed] == [(ItemStatus.FAILED, "overloaded")]
    items = repo.store.read_text("D1", f"{BASE}/items.md") or ""
    assert "- [!] 1. Add module — in src [Failed: overloaded]" in items
    assert "- [x] 2. Add tests" in items
    failures = [c["previous_failure"] for n, c in prompts.rendered if n == "implement_item"]
    assert failures == ["", "overloaded", ""]
    assert "Step 1 failed: overloaded" in notices(seen)
    (failed,) = [e for e in seen if isinstance(e, PhaseFailed)]
    assert (failed.rfd_id, failed.label, failed.title) == ("D1", "1", "Skeleton")
    assert failed.reason == "failed items: 1. Add module — in src"


def test_a_phase_that_finishes_emits_no_phase_failed(repo: Repo) -> None:
    llm = ScriptedLLM([reply("R."), reply(PLAN), item_done("one"), item_done("two"), reply("S.")])
    session, seen = repo.session(llm)
    implement(session, WORK)
    assert not [e for e in seen if isinstance(e, PhaseFailed)]


def test_a_provider_error_outside_the_items_emits_phase_failed(repo: Repo) -> None:
    llm = ScriptedLLM([ProviderError("model unavailable")])
    session, seen = repo.session(llm)
    with pytest.raises(ProviderError):
        implement(session, WORK)
    (failed,) = [e for e in seen if isinstance(e, PhaseFailed)]
    assert failed.reason == "stopped: model unavailable"


def test_a_retry_can_succeed(repo: Repo) -> None:
    empty = [reply("")] * 3
    llm = ScriptedLLM(
        [reply("R."), reply(PLAN), *empty, item_done("one"), item_done("two"), reply("S.")]
    )
    session, _ = repo.session(llm)
    assert implement(session, WORK).failed == ()


def test_amendments_stop_at_twice_the_original_count(repo: Repo) -> None:
    plan = "- [ ] 1. Only item\n"
    more = "done\n- [ ] 2. Second\n- [ ] 3. Third\n- [ ] 4. Fourth\n- [ ] 1. Only item\n"
    llm = ScriptedLLM([reply("R."), reply(plan), item_done(more), item_done("ok"), reply("S.")])
    session, seen = repo.session(llm)
    result = implement(session, WORK)
    assert [i.label for i in result.items] == ["Only item", "Second"]
    assert result.dropped == ("Third", "Fourth")
    assert "dropped 2 new items past the 2x cap" in notices(seen)


def test_the_plan_is_cut_to_max_items(repo: Repo) -> None:
    repo = make_repo(repo.root, Config(implement=ImplementSection(max_items=1)))
    llm = ScriptedLLM([reply("R."), reply(PLAN), item_done("one"), reply("S.")])
    session, seen = repo.session(llm)
    assert len(implement(session, WORK).items) == 1
    assert "the plan has 2 items; keeping the first 1" in notices(seen)


def test_a_plan_without_items_is_a_phase_with_nothing_to_do(repo: Repo) -> None:
    llm = ScriptedLLM([reply("R."), reply("The schema already has the table.")])
    session, seen = repo.session(llm)
    result = implement(session, WORK)
    assert result.items == () and not result.failed
    assert "nothing to do" in result.summary
    assert "> The schema already has the table." in result.summary
    assert "phase 1 has nothing to do: the plan has no checklist items" in notices(seen)
    assert len(llm.requests) == 2  # no item, no summary call
    assert repo.store.read_text("D1", f"{BASE}/research.md") == "R.\n"


def test_an_interrupted_run_resumes_at_the_first_pending_item(repo: Repo) -> None:
    steps = StepsSection(implement=StepSection(budget_tokens=50))
    tight = make_repo(repo.root, Config(steps=steps))
    llm = ScriptedLLM([reply("R."), reply(PLAN), item_done("one"), item_done("two")])
    session, stopped = tight.session(llm)
    with pytest.raises(BudgetExceeded):
        implement(session, WORK)
    assert [e.reason[:8] for e in stopped if isinstance(e, PhaseFailed)] == ["stopped:"]
    items = repo.store.read_text("D1", f"{BASE}/items.md") or ""
    assert "- [x] 1. Add module" in items and "- [ ] 2. Add tests" in items  # consistent

    prompts = StubPrompts()
    llm = ScriptedLLM([item_done("two again"), reply("S.")])
    session, seen = repo.session(llm, prompts=prompts)
    result = implement(session, WORK)
    assert [n for n, _ in prompts.rendered] == ["implement_item", "implement_summary"]
    assert notices(seen)[0] == "Working on step 2 of 2: Add tests — with pytest"
    assert all(i.status is ItemStatus.DONE for i in result.items)


def test_restart_clears_the_artifacts(repo: Repo) -> None:
    repo.store.write_text("D1", f"{BASE}/research.md", "stale\n")
    repo.store.write_text("D1", f"{BASE}/items.md", "- [x] 1. Old\n")
    llm = ScriptedLLM(
        [reply("Fresh."), reply(PLAN), item_done("one"), item_done("two"), reply("S.")]
    )
    session, _ = repo.session(llm)
    result = implement(session, WORK, restart=True)
    assert result.items[0].label == "Add module — in src"
    assert repo.store.read_text("D1", f"{BASE}/research.md") == "Fresh.\n"


def test_prepare_picks_the_next_phase_with_earlier_summaries(repo: Repo) -> None:
    phases = [PlanPhase("One", "first"), PlanPhase("Two", "second"), PlanPhase("Three", "third")]
    repo.store.write_plan("D1", phases)
    repo.store.write_phase_summary("D1", 1, "Did one.\n")
    session, _ = repo.session(ScriptedLLM([]))
    work = prepare(session, RFD)
    assert (work.number, work.title, work.description) == (2, "Two", "second")
    assert work.previous == (("1", "Did one.\n"),)
    assert prepare(session, RFD, phase=3).previous == (("1", "Did one.\n"),)
    with pytest.raises(ValidationError, match="phase 4 does not exist"):
        prepare(session, RFD, phase=4)


def test_prepare_takes_the_phase_by_its_label(repo: Repo) -> None:
    """``rfd implement --phase 3a`` means the phase labelled 3a; the model is told its label."""
    phases = [
        PlanPhase("Ground", "g", "0"),
        PlanPhase("Split", "s", "3a"),
        PlanPhase("End", "e", "4"),
    ]
    repo.store.write_plan("D1", phases)
    repo.store.write_phase_summary("D1", "0", "Laid.\n")
    session, _ = repo.session(ScriptedLLM([]))
    work = prepare(session, RFD)
    assert (work.number, work.name, work.title) == (2, "3a", "Split")
    assert work.previous == (("0", "Laid.\n"),)
    assert ("phase 3a", "Split\n\ns") in work.documents(session)
    assert prepare(session, RFD, phase="4").title == "End"
    for unknown in ("3c", "2"):  # 2 is a position, but no label: it names nothing
        with pytest.raises(
            ValidationError,
            match=rf"phase {unknown} does not exist \(the plan's phases: 0, 3a, 4\)",
        ):
            prepare(session, RFD, phase=unknown)


def test_prepare_needs_a_plan(repo: Repo) -> None:
    session, _ = repo.session(ScriptedLLM([]))
    with pytest.raises(GateError, match="no plan"):
        prepare(session, RFD)


def test_next_phase_when_all_are_done() -> None:
    assert next_phase(3, {1, 3}) == 2
    with pytest.raises(GateError, match="every phase is implemented"):
        next_phase(2, {1, 2})


def test_a_judges_feedback_is_answered_before_the_next_item(repo: Repo) -> None:
    seen: list[ResultReady] = []

    def judge(event: ResultReady) -> ResultReady:
        seen.append(event)
        verdict = "FAIL: no tests" if event.item.startswith("Add module") else ""
        return dataclasses.replace(event, feedback=(verdict,) if verdict else ())

    llm = ScriptedLLM(
        [
            reply("R."),
            reply(PLAN),
            item_done("module"),
            item_done("module + tests"),
            item_done("two"),
            reply("S."),
        ]
    )
    session, _ = repo.session(llm)
    session.bus.subscribe(ResultReady, judge, owner="judge")
    implement(session, WORK)
    assert [(e.step, e.item, e.result) for e in seen] == [
        ("implement", "Add module — in src", "module"),
        ("implement", "Add tests — with pytest", "two"),
    ]
    assert seen[0].phase == "Skeleton\n\nCreate the module." and seen[0].document == RFD
    answer = llm.requests[3].messages
    assert answer[-3].tool_calls[0].name == "submit_item_result"  # the verdict, then the judge
    assert (answer[-2].role, answer[-1].text) == ("user", "FAIL: no tests")
    assert repo.store.read_text("D1", f"{BASE}/items/1.md") == "module + tests\n"


def test_the_judge_sees_the_diff_of_what_the_item_wrote(repo: Repo) -> None:
    seen: list[ResultReady] = []
    (repo.root / "src").mkdir(exist_ok=True)
    (repo.root / "src/old.py").write_text("A = 1\n")
    write = ("write_file", {"path": "src/mod.py", "content": "X = 1\n"})
    edit = ("edit_file", {"path": "src/old.py", "old": "A = 1", "new": "A = 2"})
    plan = "- [ ] 1. Add module\n"
    llm = ScriptedLLM(
        [
            reply("R."),
            reply(plan),
            reply("", write),
            reply("", edit),
            item_done("Done, with tests."),
            reply("S."),
        ]
    )
    session, _ = repo.session(llm)
    session.bus.subscribe(ResultReady, lambda e: seen.append(e), owner="judge")
    implement(session, WORK)
    (event,) = seen
    assert event.result == "Done, with tests."
    lines = event.diff.splitlines()
    assert "+++ b/src/mod.py" in lines and "+X = 1" in lines
    assert "-A = 1" in lines and "+A = 2" in lines


def test_an_empty_rfd_is_refused_before_any_model_call(repo: Repo) -> None:
    llm = ScriptedLLM([reply("never asked")])
    session, _ = repo.session(llm)
    with pytest.raises(ValidationError, match=r"RFD docs/rfd/D1-tracing\.md is empty"):
        implement(session, dataclasses.replace(WORK, rfd_text=" \n"))
    assert llm.requests == []
    assert repo.store.read_text("D1", f"{BASE}/research.md") is None


def test_a_second_run_of_a_phase_already_running_refuses_before_any_model_call(
    repo: Repo,
) -> None:
    llm = ScriptedLLM([reply("never asked")])
    session, seen = repo.session(llm)
    running = "implement of phase 1 of RFD D1 is already running"
    with (
        repo.store.hold("D1", "implement/1.lock", "the first run"),
        pytest.raises(GateError, match=running),
    ):
        implement(session, WORK)
    assert llm.requests == []
    assert not [e for e in seen if isinstance(e, PhaseFailed)]  # the first run is not failed
