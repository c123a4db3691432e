from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.agent.conversation.loop import Stop, final_text, run
from bot.agent.conversation.session import Session
from bot.agent.toolbox.base import Step, Tool, schema
from bot.agent.toolbox.catalog import toolset
from bot.agent.toolbox.permission import Approval, Choice, Mode
from bot.config.load import Config, StepSection, StepsSection
from bot.core.errors import Aborted, BudgetExceeded, ConfigError
from bot.events import (
    Event,
    Notice,
    ToolCallAfter,
    ToolCallComplete,
    ToolCallIntercept,
    ToolCallModified,
    TurnAborted,
    TurnComplete,
    TurnCycleComplete,
    TurnStarted,
)
from bot.llm.base import Message
from tests.fakes import ScriptedLLM, ScriptedPrompter, StubPrompts, recording_bus, reply

HELLO = Message("user", "hello")


def session_for(
    root: Path, llm: ScriptedLLM, *, config: Config | None = None, **kwargs: Any
) -> tuple[Session, list[Event]]:
    bus, seen = recording_bus()
    base = Session(root, config or Config(), llm, bus, prompts=StubPrompts(), **kwargs)
    return base, seen


def converse(session: Session, step: Step = Step.IMPLEMENT) -> Any:
    return run(session.conversation(step, "system", session.meter(step)), [HELLO])


def names(seen: list[Event]) -> list[str]:
    return [e.name for e in seen]


def test_the_final_assistant_message_is_the_result(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("content\n")
    llm = ScriptedLLM(
        [reply("let me look", ("read_file", {"path": "a.txt"})), reply("  it says content  ")]
    )
    session, seen = session_for(tmp_path, llm)
    result = converse(session, Step.REVIEW)
    assert (result.text, result.stop, result.cycles, result.tool_calls) == (
        "it says content",
        Stop.END,
        2,
        1,
    )
    assert llm.requests[1].messages[-1].tool_results[0].content == "content\n"
    assert names(seen) == [
        "query.before",
        "turn.started",
        "response.complete",
        "turn.cycle_complete",
        "tool_call.intercept",
        "tool_call.after",
        "tool_call.complete",
        "response.complete",
        "turn.cycle_complete",
        "turn.complete",
    ]
    assert result.usage.input_tokens == 20


def test_final_text_skips_empty_assistant_messages() -> None:
    messages = [Message("assistant", "answer"), Message("user", "x"), Message("assistant", " ")]
    assert final_text(messages) == "answer"


def test_tool_calls_go_prepare_intercept_permission_execute_after_complete(
    tmp_path: Path,
) -> None:
    order: list[str] = []
    llm = ScriptedLLM([reply("", ("write_file", {"path": "x.txt", "content": "A"})), reply("ok")])
    prompter = ScriptedPrompter(approvals=["y"])
    session, _ = session_for(tmp_path, llm, prompter=prompter)

    def intercept(ev: ToolCallIntercept) -> ToolCallIntercept:
        order.append("intercept")
        return dataclasses.replace(ev, arguments={**ev.arguments, "content": "B\n"})

    def after(ev: ToolCallAfter) -> ToolCallAfter:
        order.append(f"after:{(tmp_path / 'x.txt').read_text()!r}")
        return dataclasses.replace(ev, result=ev.result + " [checked]")

    session.bus.subscribe(ToolCallIntercept, intercept)
    session.bus.subscribe(ToolCallAfter, after)
    session.bus.subscribe(ToolCallComplete, lambda ev: order.append(f"complete:{ev.is_error}"))
    converse(session)
    assert prompter.shown[0][1].endswith("+B\n")  # the user approves the intercepted form
    assert order == ["intercept", "after:'B\\n'", "complete:False"]
    assert llm.requests[1].messages[-1].tool_results[0].content.endswith("[checked]")


def test_a_plugin_change_to_a_call_is_shown_and_recorded_under_yes(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("", ("write_file", {"path": "a.txt", "content": "A"})), reply("ok")])
    session, seen = session_for(tmp_path, llm, mode=Mode.YES)

    def redirect(ev: ToolCallIntercept) -> ToolCallIntercept:
        return dataclasses.replace(ev, arguments={**ev.arguments, "path": "b.txt"})

    session.bus.subscribe(ToolCallIntercept, redirect, owner="policy")
    converse(session)
    assert (tmp_path / "b.txt").read_text() == "A" and not (tmp_path / "a.txt").exists()
    notices = [e.message for e in seen if isinstance(e, Notice)]
    assert notices == ['policy changed `write_file`\'s path: "a.txt" → "b.txt"']
    [record] = [e for e in seen if isinstance(e, ToolCallModified)]
    assert record.payload() | {"at": 0} == {
        "event": "tool_call.modified",
        "rfd_id": "",
        "at": 0,
        "step": "implement",
        "tool": "write_file",
        "plugin": "policy",
        "changes": ['path: "a.txt" → "b.txt"'],
    }


def test_an_interceptor_returning_the_same_call_changes_nothing_visible(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("", ("write_file", {"path": "a.txt", "content": "A"})), reply("ok")])
    session, seen = session_for(tmp_path, llm, mode=Mode.YES)
    session.bus.subscribe(ToolCallIntercept, lambda ev: dataclasses.replace(ev), owner="policy")
    converse(session)
    assert not [e for e in seen if isinstance(e, (Notice, ToolCallModified))]


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (("delete_all\x1b[2J", {}), 'the model\'s call of "delete_all\\u001b[2J" was refused'),
        (("write_file", {"path": "a.txt"}), "write_file: missing argument content"),
        (("write_file", {"path": 3, "content": "x"}), "`path` must be of type string"),
    ],
)
def test_a_call_the_model_got_wrong_is_shown_to_the_user(
    tmp_path: Path, call: tuple[str, dict[str, Any]], shown: str
) -> None:
    llm = ScriptedLLM([reply("", call), reply("ok")])
    session, seen = session_for(tmp_path, llm, mode=Mode.YES)
    converse(session)
    [notice] = [e for e in seen if isinstance(e, Notice)]
    assert shown in notice.message and "\x1b" not in notice.message
    assert notice.level == "warning"
    assert llm.requests[1].messages[-1].tool_results[0].is_error


def test_an_interceptor_abort_reaches_the_model_and_the_user(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("", ("write_file", {"path": "x.txt", "content": "A"})), reply("ok")])
    session, seen = session_for(tmp_path, llm, mode=Mode.YES)

    def veto(ev: ToolCallIntercept) -> None:
        raise Aborted("no writes on Sundays")

    session.bus.subscribe(ToolCallIntercept, veto, owner="policy", tools=frozenset({"write_file"}))
    converse(session)
    result = llm.requests[1].messages[-1].tool_results[0]
    assert (result.is_error, result.content) == (True, "aborted: no writes on Sundays")
    assert [e.message for e in seen if isinstance(e, Notice)] == [
        "write_file: no writes on Sundays"
    ]
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize(
    ("answer", "written", "told"),
    [
        (
            Approval(Choice.NO, note="use y.txt"),
            None,
            'aborted: the person declined this call and said: "use y.txt"; their answer is'
            " final: do not make this change in another way, ask them instead",
        ),
        (Approval(Choice.EDIT, {"path": "x.txt", "content": "edited\n"}), "edited\n", "created"),
    ],
)
def test_ask_mode_denies_or_edits(
    tmp_path: Path, answer: Approval, written: str | None, told: str
) -> None:
    llm = ScriptedLLM([reply("", ("write_file", {"path": "x.txt", "content": "A"})), reply("ok")])
    approvals: list[Approval | str] = [answer, "y"]
    session, _ = session_for(tmp_path, llm, prompter=ScriptedPrompter(approvals=approvals))
    converse(session)
    target = tmp_path / "x.txt"
    assert (target.read_text() if target.exists() else None) == written
    assert llm.requests[1].messages[-1].tool_results[0].content.startswith(told)


def test_read_only_tools_never_ask(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("", ("list_files", {})), reply("done")])
    session, _ = session_for(tmp_path, llm, prompter=ScriptedPrompter())
    assert converse(session).text == "done"


def test_without_a_person_only_configured_writes_run(tmp_path: Path) -> None:
    unbounded = Tool("erase", "Erase things.", schema({}), lambda ctx, args: "erased", writes=True)
    llm = ScriptedLLM(
        [reply("", ("write_file", {"path": "x.txt", "content": "A"}), ("erase", {})), reply("ok")]
    )
    session, _ = session_for(tmp_path, llm, mode=Mode.CONFINED)
    calls = dataclasses.replace(
        session.conversation(Step.IMPLEMENT, "s", session.meter(Step.IMPLEMENT)).calls,
        tools=(*toolset(Step.IMPLEMENT), unbounded),
    )
    conv = dataclasses.replace(
        session.conversation(Step.IMPLEMENT, "s", session.meter(Step.IMPLEMENT)), calls=calls
    )
    run(conv, [HELLO])
    wrote, erased = llm.requests[1].messages[-1].tool_results
    assert (tmp_path / "x.txt").read_text() == "A" and not wrote.is_error
    assert erased.is_error and "`erase` needs a person to confirm it" in erased.content


def test_tools_of_other_steps_are_unknown(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("", ("write_file", {"path": "x", "content": "A"})), reply("ok")])
    session, _ = session_for(tmp_path, llm, mode=Mode.YES)
    converse(session, Step.REVIEW)
    assert "unknown tool `write_file`" in llm.requests[1].messages[-1].tool_results[0].content
    assert llm.tool_names[0] == ["read_file", "list_files", "grep_files"]
    assert not (tmp_path / "x").exists()


def test_max_turns_stops_the_conversation(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("still looking", ("list_files", {}))] * 2)
    session, seen = session_for(tmp_path, llm)
    conv = dataclasses.replace(
        session.conversation(Step.REVIEW, "s", session.meter(Step.REVIEW)), max_turns=2
    )
    result = run(conv, [HELLO])
    assert (result.stop, result.text, result.cycles) == (Stop.MAX_TURNS, "still looking", 2)
    assert [e for e in seen if isinstance(e, TurnAborted)]


@pytest.mark.parametrize(
    ("script", "stop", "calls"),
    [
        ([reply(""), reply(""), reply("third time")], Stop.END, 3),
        ([reply(""), reply(""), reply("")], Stop.EMPTY, 3),
    ],
)
def test_empty_replies_are_retried_twice(
    tmp_path: Path, script: list[Any], stop: Stop, calls: int
) -> None:
    llm = ScriptedLLM(script)
    session, _ = session_for(tmp_path, llm)
    assert converse(session).stop is stop
    assert len(llm.requests) == calls


def test_a_budget_stops_the_step_cleanly(tmp_path: Path) -> None:
    steps = StepsSection(implement=StepSection(model="opus", budget_tokens=40))
    llm = ScriptedLLM([reply("", ("list_files", {}), tokens=(20, 5))] * 3)
    session, seen = session_for(tmp_path, llm, config=Config(steps=steps))
    with pytest.raises(BudgetExceeded, match="implement used 50 tokens, over its budget of 40"):
        converse(session)
    assert len(llm.requests) == 2
    aborted = [e for e in seen if isinstance(e, TurnAborted)]
    assert len(aborted) == 1 and "budget" in aborted[0].reason


def test_a_cost_budget_uses_the_price_table(tmp_path: Path) -> None:
    steps = StepsSection(review=StepSection(budget_usd=0.02))
    opus = "claude-opus-4-1-20250805"  # $15 in, $75 out per million tokens
    llm = ScriptedLLM([reply("", ("list_files", {}), tokens=(200, 100), model=opus)] * 3)
    session, _ = session_for(tmp_path, llm, config=Config(steps=steps))
    with pytest.raises(BudgetExceeded, match=r"review cost \$0.0210, over its budget of \$0.0200"):
        converse(session, Step.REVIEW)
    assert len(llm.requests) == 2


def test_a_dollar_budget_on_an_unpriced_model_stops_before_the_first_call(
    tmp_path: Path,
) -> None:
    steps = StepsSection(explore=StepSection(model="llama3.1:8b", budget_usd=1.0))
    llm = ScriptedLLM([reply("never sent")])
    session, seen = session_for(tmp_path, llm, config=Config(steps=steps))
    with pytest.raises(ConfigError, match=r"steps.explore.budget_usd.*'llama3.1:8b' has no price"):
        converse(session, Step.EXPLORE)
    assert llm.requests == [] and seen == []


def test_turn_events_carry_the_step_model_and_tokens(tmp_path: Path) -> None:
    llm = ScriptedLLM([reply("hi", tokens=(7, 3))])
    session, seen = session_for(tmp_path, llm, model="haiku")
    converse(session, Step.EXPLORE)
    started = next(e for e in seen if isinstance(e, TurnStarted))
    done = next(e for e in seen if isinstance(e, TurnComplete))
    cycle = next(e for e in seen if isinstance(e, TurnCycleComplete))
    assert (started.step, started.model) == ("explore", "claude-haiku-4-5")
    assert (done.text, done.input_tokens, done.output_tokens) == ("hi", 7, 3)
    assert cycle.stop_reason == "end_turn"
    assert llm.requests[0].model == "claude-haiku-4-5"


def test_retried_empty_replies_count_in_the_result_as_in_the_ledger(tmp_path: Path) -> None:
    from bot.llm.base import Usage

    llm = ScriptedLLM([reply("", tokens=(100, 0)), reply("", tokens=(100, 0)), reply("ok")])
    session, _ = session_for(tmp_path, llm)
    spent: list[Usage] = []
    conv = dataclasses.replace(
        session.conversation(Step.IMPLEMENT, "system", session.meter(Step.IMPLEMENT)),
        on_usage=lambda _model, usage: spent.append(usage),
    )
    result = run(conv, [HELLO])
    assert result.usage.input_tokens == 210 == sum(u.input_tokens for u in spent)
    assert result.usage == conv.meter.usage


def test_turn_complete_prices_the_model_that_answered(tmp_path: Path) -> None:
    from bot.llm.base import Usage
    from bot.llm.pricing import cost

    answer = reply("done", tokens=(1_000_000, 1000), model="claude-haiku-4-5")
    session, seen = session_for(tmp_path, ScriptedLLM([answer]))  # configured: the opus alias
    converse(session)
    (complete,) = [e for e in seen if isinstance(e, TurnComplete)]
    assert complete.cost_usd == cost("claude-haiku-4-5", Usage(1_000_000, 1000))
    assert complete.cost_usd != cost(session.config.model_for("implement"), Usage(1_000_000, 1000))
