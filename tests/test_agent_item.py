"""An implement item is done only when the model says so *and* the repository's check passes."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from bot.agent.implementation.phase_work import PhaseWork
from bot.agent.implementation.run import implement
from bot.config.load import Config, ImplementSection
from bot.core.errors import ProviderError
from bot.events import Notice, PhaseFailed
from bot.llm.base import Reply
from tests.agent_support import RFD, Repo, make_repo
from tests.fakes import ScriptedLLM, StubPrompts, item_done, item_failed, reply

WORK = PhaseWork(1, "Skeleton", "Create the module.", RFD)
BASE = "implement/1"
ONE = "- [ ] 1. Add module\n"
PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider"
FAILING_TEST = "def test_mod():\n    assert 1 == 2, 'the module is not there'\n"


@pytest.fixture
def lean_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The repository's pytest without this suite's plugins (a real run, 4x faster)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def verified(root: Path, command: str) -> Repo:
    lean = ("PYTEST_DISABLE_PLUGIN_AUTOLOAD",)  # passed into the isolated check (lean_pytest)
    return make_repo(root, Config(implement=ImplementSection(verify=command, env=lean)))


def checklist_text(repo: Repo) -> str:
    return repo.store.read_text("D1", f"{BASE}/items.md") or ""


def cut_off(text: str) -> Reply:
    return dataclasses.replace(reply(text), stop_reason="max_tokens")


@pytest.mark.usefixtures("lean_pytest")
def test_an_honest_model_whose_tests_fail_gets_failed_and_no_recorded_phase(
    tmp_path: Path,
) -> None:
    repo = verified(tmp_path, PYTEST)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_mod.py").write_text(FAILING_TEST)
    prompts = StubPrompts()
    llm = ScriptedLLM(
        [reply("R."), reply(ONE), item_done("Added it."), item_done("Fixed it."), reply("S.")]
    )
    session, seen = repo.session(llm, prompts=prompts)
    result = implement(session, WORK)
    command = f"{sys.executable} -m pytest -q -p no:cacheprovider"
    reason = f"`{command}` failed (exit code 1)"
    assert f"- [!] 1. Add module [Failed: {reason}]" in checklist_text(repo)
    assert [i.reason for i in result.failed] == [reason]
    retry = [c["previous_failure"] for n, c in prompts.rendered if n == "implement_item"][1]
    assert retry.startswith(reason) and "the module is not there" in retry  # output in view
    failed_line = f"- 1. `Add module` — `{reason.replace('`', chr(39))}`"
    assert result.summary == f"S.\n\n## Failed items\n\n{failed_line}\n"
    assert repo.store.read_text("D1", f"{BASE}/summary.md") == result.summary
    assert [e.reason for e in seen if isinstance(e, PhaseFailed)] == ["failed items: 1. Add module"]
    assert repo.store.phase_files("D1") == {}  # the step never records a phase


@pytest.mark.usefixtures("lean_pytest")
def test_passing_tests_tick_the_item(tmp_path: Path) -> None:
    repo = verified(tmp_path, PYTEST)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_mod.py").write_text("def test_mod():\n    assert True\n")
    llm = ScriptedLLM([reply("R."), reply(ONE), item_done("Added it."), reply("S.")])
    session, _ = repo.session(llm)
    assert implement(session, WORK).failed == ()
    assert "- [x] 1. Add module" in checklist_text(repo)


@pytest.mark.parametrize(
    ("answers", "reason"),
    [
        (
            [reply("I could NOT complete this item: `pytest -q` fails")] * 2,
            "the model ended without calling `submit_item_result`",
        ),
        (
            [item_failed("pytest -q fails on <!-- original_count: 99 --> [x]")] * 2,
            "the model reports it failed: pytest -q fails on original_count: 99 x",
        ),
        (
            [cut_off("Verified caref")] * 2,
            "the answer was cut off at max_tokens (raise steps.implement.max_tokens)",
        ),
    ],
    ids=["prose", "failed-verdict", "cut-off"],
)
def test_only_a_structured_done_ticks(tmp_path: Path, answers: list[Reply], reason: str) -> None:
    repo = verified(tmp_path, "")
    llm = ScriptedLLM([reply("R."), reply(ONE), *answers, reply("S.")])
    session, _ = repo.session(llm)
    result = implement(session, WORK)
    assert [i.reason for i in result.failed] == [reason]
    assert f"- [!] 1. Add module [Failed: {reason}]" in checklist_text(repo)
    assert "original_count: 99" not in checklist_text(repo).splitlines()[0]


def test_a_cut_off_answer_is_said_in_every_step(tmp_path: Path) -> None:
    repo = verified(tmp_path, "")
    llm = ScriptedLLM([cut_off("Research ending mid-wo"), reply(ONE), item_done("ok"), reply("S.")])
    session, seen = repo.session(llm)
    implement(session, WORK)
    research = repo.store.read_text("D1", f"{BASE}/research.md") or ""
    assert research.startswith("Research ending mid-wo") and "cut off at max_tokens" in research
    warnings = [e.message for e in seen if isinstance(e, Notice) and e.level == "warning"]
    assert any(w.startswith("the research answer was cut off") for w in warnings)


@pytest.mark.parametrize("stage", ["research", "summary"])
def test_empty_answers_stop_the_step_and_save_nothing(tmp_path: Path, stage: str) -> None:
    repo = verified(tmp_path, "")
    empty = [reply("")] * 3
    script = empty if stage == "research" else [reply("R."), reply(ONE), item_done("ok"), *empty]
    session, seen = repo.session(ScriptedLLM(script))
    with pytest.raises(ProviderError, match=f"{stage} stopped: empty answers; nothing was saved"):
        implement(session, WORK)
    assert repo.store.read_text("D1", f"{BASE}/{stage}.md") is None
    assert [e for e in seen if isinstance(e, PhaseFailed)]


def test_the_amendment_bound_holds_when_the_count_comment_is_lost(tmp_path: Path) -> None:
    repo = verified(tmp_path, "")
    first = ScriptedLLM(
        [reply("R."), reply("- [ ] 1. One\n- [ ] 2. Two\n"), ProviderError("x")] * 1
    )
    session, _ = repo.session(first)
    with pytest.raises(AssertionError):  # the script ends inside item 1: the run stops there
        implement(session, WORK)
    text = checklist_text(repo).replace("<!-- original_count: 2 -->\n", "")
    repo.store.write_text("D1", f"{BASE}/items.md", text)  # a person edits the marker away
    more = "".join(f"- [ ] {n}. New {n}\n" for n in range(3, 9))
    llm = ScriptedLLM([item_done(more), item_done("two"), *[item_done("ok")] * 2, reply("S.")])
    session, _ = repo.session(llm)
    result = implement(session, WORK)
    assert len(result.items) == 4  # 2 planned, at most twice that
    assert result.dropped == ("New 5", "New 6", "New 7", "New 8")


def test_an_empty_research_an_older_run_saved_is_done_again(tmp_path: Path) -> None:
    repo = verified(tmp_path, "")
    repo.store.write_text("D1", f"{BASE}/research.md", "\n")
    llm = ScriptedLLM([reply("Real notes."), reply(ONE), item_done("ok"), reply("S.")])
    session, _ = repo.session(llm)
    implement(session, WORK)
    assert repo.store.read_text("D1", f"{BASE}/research.md") == "Real notes.\n"
