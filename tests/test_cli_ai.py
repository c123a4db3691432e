"""The AI commands through the ``rfd`` entry point (model scripted, no network)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.config.load import load_config
from bot.llm.base import Reply, ToolCall, Usage
from bot.state import StateStore
from tests.conftest import rfd_text, write_rfd
from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedLLM]:
    """Every workspace the CLI opens talks to the next scripted model."""
    from bot.llm.select import Providers

    models: list[ScriptedLLM] = []

    def next_model(cfg: Any, environ: Mapping[str, str]) -> Providers:
        return scripted_providers(models.pop(0))(cfg, environ) if models else Providers(cfg, {})

    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", next_model)
    return models


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


def test_ai_steps_offline_say_what_is_missing(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    for argv in (["refine", "1"], ["implement", "1"], ["explore", "1"], ["author", "X"]):
        assert run(git_repo, *argv) == 1
        assert "needs an AI model" in capsys.readouterr().err


def test_a_step_whose_provider_has_no_key_says_which_one(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the OpenAI-compatible key: Claude steps refuse (AI-only) or review offline, each
    naming the key its model needs; nothing is sent to the endpoint under a Claude id."""
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", status="Discussion"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-test-dummy-key")
    assert run(git_repo, "refine", "1") == 1
    assert "no ANTHROPIC_API_KEY set for claude-opus-5-5 (step refine)" in capsys.readouterr().err
    assert run(git_repo, "review", "1") == 0
    out = capsys.readouterr().out
    assert "no ANTHROPIC_API_KEY set for claude-sonnet-5-5 (step review): using the offline" in out


def test_refine_reports_passes_and_hints_at_dismiss(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    StateStore(git_repo, load_config(git_repo)).save_review("001", "# R\n\nVague.\n", now=1)
    notes = "CONVERGED\nThe review is already answered."
    scripted.append(ScriptedLLM([reply("", ("submit_revision", {"sections": [], "notes": notes}))]))
    assert run(git_repo, "refine", "1", "--yes", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stop"] == "converged"
    assert data["passes"][0]["notes"] == notes
    assert data["reviews"] == ["docs/rfd/.state/001/reviews/1.md"]


def test_implement_records_the_phase_and_ticks_the_issue(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    plan = "- [ ] 1. Only item\n"
    scripted.append(
        ScriptedLLM([reply("Research."), reply(plan), item_done("done"), reply("Schema added.")])
    )
    assert run(git_repo, "implement", "1", "--yes") == 0
    out = capsys.readouterr().out
    assert "phase 1 (Schema) done — 1/2 phases" in out
    summary = git_repo / "docs/rfd/.state/001/phases/1.md"
    assert summary.read_text() == "Schema added.\n"
    issue = (git_repo / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert "- [x] 1. Schema" in issue


def test_a_failed_item_leaves_the_phase_unrecorded(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[plugins]\nenabled = ["event-log"]\n')
    assert run(git_repo, "accept", "1") == 0
    from bot.core.errors import ProviderError

    boom = ProviderError("model unavailable")
    scripted.append(
        ScriptedLLM([reply("Research."), reply("- [ ] 1. Item\n"), boom, boom, reply("Sum.")])
    )
    assert run(git_repo, "implement", "1", "--yes") == 1
    out = capsys.readouterr().out
    assert "1 item failed" in out
    kept = "docs/rfd/.state/001/implement/1/summary.md"
    assert f"`rfd phase 1 done 1 --summary {kept}`" in " ".join(out.split())
    assert not (git_repo / "docs/rfd/.state/001/phases/1.md").exists()
    issue = (git_repo / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert "- [ ] 1. Schema" in issue
    items = (git_repo / "docs/rfd/.state/001/implement/1/items.md").read_text()
    assert "- [!] 1. Item [Failed:" in items
    log = (git_repo / "docs/rfd/.state/001/events.jsonl").read_text()
    assert log.count('"event": "phase.failed"') == 1  # emitted by the step, shown by the CLI


def test_spinner_runs_while_waiting_and_stops_for_text() -> None:
    import io

    from bot.cli.output import Output
    from bot.cli.stream import Spinner, TextStream

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Output(stdout=Tty())
    spinner = Spinner(out)
    spinner.start()
    assert spinner._running
    TextStream(out, before=spinner.stop).write("Hello")
    assert not spinner._running
    assert out.stdout.getvalue().endswith("Hello")  # type: ignore[attr-defined]
    spinner.stop()  # idempotent


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


MESSAGE = "# Plan\n\nUse **flat** events:\n\n- one\n- two\n"


def test_a_streamed_message_ends_rendered_as_markdown_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.cli.output import Output
    from bot.cli.stream import TextStream
    from bot.events import EventBus, TurnCycleComplete

    monkeypatch.delenv("NO_COLOR")
    out, bus = Output(stdout=_Tty()), EventBus()
    stream = TextStream(out)
    stream.subscribe(bus)
    for chunk in (MESSAGE[:9], MESSAGE[9:30], MESSAGE[30:]):
        stream.write(chunk)
    bus.emit(TurnCycleComplete(rfd_id="1", step="explore", stop_reason="end_turn"))
    shown = out.stdout.getvalue()  # type: ignore[attr-defined]
    after_live = shown.rsplit("\x1b[2K", 1)[-1]  # what stays once the live region is cleared
    after_live = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", after_live)  # colours and styles
    assert "**flat**" not in after_live and "# Plan" not in after_live
    assert "flat" in after_live and "• one" in after_live
    assert after_live.count("Plan") == 1


@pytest.mark.parametrize("styled", [False, True])
def test_streamed_text_stays_raw_when_piped_or_no_color(
    monkeypatch: pytest.MonkeyPatch, styled: bool
) -> None:
    from bot.cli.output import Output
    from bot.cli.stream import TextStream

    out = Output(stdout=_Tty() if styled else io.StringIO())  # a terminal, but NO_COLOR is set
    stream = TextStream(out)
    stream.write(MESSAGE[:9])
    stream.write(MESSAGE[9:])
    stream.end()
    assert out.stdout.getvalue() == MESSAGE  # type: ignore[attr-defined]


def test_refine_notes_are_rendered_as_markdown_on_a_terminal(
    git_repo: Path,
    scripted: list[ScriptedLLM],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import sys

    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr("bot.cli.stream.Spinner.start", lambda self, _e=None: None)
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    notes = "CONVERGED\n\nThe review is **already** answered."
    scripted.append(ScriptedLLM([reply("", ("submit_revision", {"sections": [], "notes": notes}))]))
    assert run(git_repo, "refine", "1", "--yes") == 0
    out = capsys.readouterr().out
    assert "already" in out and "**already**" not in out


def test_without_a_terminal_writes_need_yes(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    before = path.read_text()
    scripted.append(ScriptedLLM([]))  # never asked: nothing runs
    assert run(git_repo, "refine", "1") == 1
    assert "--yes" in capsys.readouterr().err
    assert path.read_text() == before


def test_an_honest_model_whose_check_fails_is_not_ticked_anywhere(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[implement]\nverify = "false"\n')
    says = "I could NOT complete this item: `pytest -q` fails"
    scripted.append(
        ScriptedLLM(
            [
                reply("Research."),
                reply("- [ ] 1. Item\n"),
                item_done(says),
                reply(says),
                reply("Sum."),
            ]
        )
    )
    assert run(git_repo, "implement", "1", "--yes") == 1
    out = capsys.readouterr().out
    assert "[!] 1. Item" in out and "phase 1 is not recorded: 1 item failed" in out
    state = git_repo / "docs/rfd/.state/001"
    items = (state / "implement/1/items.md").read_text()
    assert "- [!] 1. Item [Failed: the model ended without calling `submit_item_result`]" in items
    assert not (state / "phases/1.md").exists()
    issue = (git_repo / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert "- [ ] 1. Schema" in issue  # not ticked, but the failed items are shown on it
    assert "Phase 1 of RFD 001 (`Schema`) is not recorded: some items failed." in issue
    assert "- 1. `Item` — `the model ended without calling 'submit_item_result'`" in issue
    kept = (state / "implement/1/summary.md").read_text()
    assert "## Failed items" in kept and "`Item`" in kept
    # a person decides to record it as it is: the command the CLI printed does it
    summary = git_repo / "docs/rfd/.state/001/implement/1/summary.md"  # printed from the root
    assert run(git_repo, "phase", "1", "done", "1", "--summary", str(summary)) == 0
    assert (state / "phases/1.md").read_text() == kept
    assert "- [x] 1. Schema" in (git_repo / "docs/rfd/.state/.forge/issues/1.md").read_text()


def test_running_implement_again_retries_the_failed_items(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.core.errors import ProviderError

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    boom = ProviderError("model unavailable")
    scripted.append(
        ScriptedLLM([reply("Research."), reply("- [ ] 1. Item\n"), boom, boom, reply("Sum.")])
    )
    assert run(git_repo, "implement", "1", "--yes") == 1
    # the second run resumes: no new research or plan, the failed item is tried again
    scripted.append(ScriptedLLM([item_done("done now"), reply("Schema added.")]))
    assert run(git_repo, "implement", "1", "--yes") == 0
    assert "phase 1 (Schema) done" in capsys.readouterr().out
    items = (git_repo / "docs/rfd/.state/001/implement/1/items.md").read_text()
    assert "- [x] 1. Item" in items


def _review_reply(tokens: tuple[int, int, int, int]) -> Reply:
    review = {"summary": "Sound.", "findings": [], "questions": ["Why now?"]}
    usage = Usage(*tokens)
    return Reply(
        "", "claude-sonnet-4-5", "tool_use", usage, (ToolCall("t1", "submit_review", review),)
    )


def test_review_prints_its_usage_and_records_it_in_the_ledger_and_event_log(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[plugins]\nenabled = ["event-log"]\n')
    scripted.append(ScriptedLLM([_review_reply((300, 400, 2000, 0))]))
    assert run(git_repo, "review", "1") == 0
    out = capsys.readouterr().out
    assert "review · claude-sonnet-4-5 · 2,300 in (2,000 cache write) · 400 out · $0." in out
    (line,) = (git_repo / "docs/rfd/.state/001/usage.jsonl").read_text().splitlines()
    assert json.loads(line)["step"] == "review" and json.loads(line)["output_tokens"] == 400
    log = (git_repo / "docs/rfd/.state/001/events.jsonl").read_text()
    assert '"event": "turn.started"' in log and '"event": "turn.complete"' in log


def test_review_json_carries_the_usage(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    scripted.append(ScriptedLLM([_review_reply((100, 50, 0, 1800))]))
    assert run(git_repo, "review", "1", "--json") == 0
    usage = json.loads(capsys.readouterr().out)["usage"]
    assert (usage["input_tokens"], usage["output_tokens"]) == (100, 50)
    assert (usage["cache_read_tokens"], usage["cache_write_tokens"]) == (1800, 0)
    assert usage["cost_usd"] > 0


def test_accept_model_picks_the_model_of_the_plan_extraction(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", plan="Ship it in one go.\n"))
    phases = {"phases": [{"title": "Everything", "description": "Ship it.", "label": "1"}]}
    llm = ScriptedLLM([reply("", ("submit_plan", phases), model="claude-haiku-4-5")])
    scripted.append(llm)
    assert run(git_repo, "accept", "1", "--model", "haiku") == 0
    assert [r.model for r in llm.requests] == ["claude-haiku-4-5"]
    assert "plan extracted (model): 1 phase\n" in capsys.readouterr().out


def test_accept_by_the_model_shows_and_returns_its_usage(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", plan="Ship it in one go.\n"))
    phases = {"phases": [{"title": "Everything", "description": "Ship it.", "label": "1"}]}
    scripted.append(
        ScriptedLLM(
            [reply("", ("submit_plan", phases), model="claude-haiku-4-5", tokens=(900, 40))]
        )
    )
    assert run(git_repo, "accept", "1", "--model", "haiku") == 0
    out = capsys.readouterr().out
    assert "accept · claude-haiku-4-5 · 900 in · 40 out · $" in out


def test_accept_json_carries_the_model_usage(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", plan="Ship it in one go.\n"))
    phases = {"phases": [{"title": "Everything", "description": "Ship it.", "label": "1"}]}
    scripted.append(ScriptedLLM([reply("", ("submit_plan", phases), tokens=(900, 40))]))
    assert run(git_repo, "accept", "1", "--json") == 0
    usage = json.loads(capsys.readouterr().out)["usage"]
    assert (usage["input_tokens"], usage["output_tokens"]) == (900, 40)


def test_plan_shows_what_asking_the_model_cost(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", plan="Ship it in one go.\n"))
    phases = {"phases": [{"title": "Everything", "description": "Ship it.", "label": "1"}]}
    scripted.append(ScriptedLLM([reply("", ("submit_plan", phases), tokens=(900, 40))]))
    assert run(git_repo, "plan", "1") == 0
    out = capsys.readouterr().out
    assert "1 phase (model)" in out
    assert "accept · " in out and "900 in · 40 out" in out


def test_accept_from_the_headings_has_no_usage(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1", "--json") == 0
    assert json.loads(capsys.readouterr().out)["usage"] is None


def test_ctrl_c_during_explore_says_where_the_partial_result_is(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    scripted.append(ScriptedLLM([reply("", ("list_files", {})), KeyboardInterrupt()]))
    assert run(git_repo, "explore", "1", "--yes") == 1
    err = capsys.readouterr().err
    assert "explore interrupted (Ctrl-C)" in err
    assert "docs/rfd/.state/001/conversations/explore.partial.md" in err
    assert "run `rfd explore 001` again to resume from it" in err
    assert (git_repo / "docs/rfd/.state/001/conversations/explore.partial.md").is_file()


def test_the_spinner_runs_while_the_review_model_is_asked(
    git_repo: Path,
    scripted: list[ScriptedLLM],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import sys

    calls: list[str] = []

    class Recording:
        def __init__(self, out: object) -> None: ...
        def start(self, _event: object = None) -> None:
            calls.append("start")

        def stop(self, _event: object = None) -> None:
            calls.append("stop")

    monkeypatch.setattr("bot.cli.stream.Spinner", Recording)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    scripted.append(ScriptedLLM([_review_reply((100, 50, 0, 0))]))
    assert run(git_repo, "review", "1") == 0
    assert calls == ["start", "stop", "stop"]  # turn.started, cycle_complete, complete


def _revision(summary: str) -> Reply:
    sections = [{"section": "Summary", "content": summary}]
    return reply("", ("submit_revision", {"sections": sections, "notes": "tightened"}))


def test_a_refine_budget_stop_shows_the_kept_passes_the_reason_and_the_usage(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text("[steps.refine]\nbudget_tokens = 20\n")
    StateStore(git_repo, load_config(git_repo)).save_review("001", "# R\n\nVague.\n", now=1)
    scripted.append(ScriptedLLM([_revision("Kept summary."), _revision("Too far.")]))
    assert run(git_repo, "refine", "1", "--yes") == 1
    captured = capsys.readouterr()
    assert "+Kept summary." in captured.out  # pass 1's diff
    assert "stopped: budget reached" in captured.out
    assert "budget reached (30 tokens / $0.0000 of 20 tokens) during pass 2" in captured.err
    assert "refine · " in captured.out and "20 in · 10 out" in captured.out
    assert "rfd dismiss 1 <n…|all>" not in captured.out  # no dismiss prompt after a failed pass
    assert "refine did not finish (budget reached): the reviews are kept" in captured.err
    assert "Kept summary." in (git_repo / "docs/rfd/001-a.md").read_text()


def test_a_refine_pass_that_fails_exits_non_zero_without_the_dismiss_prompt(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.core.errors import ProviderError

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    StateStore(git_repo, load_config(git_repo)).save_review("001", "# R\n\nVague.\n", now=1)
    scripted.append(ScriptedLLM([ProviderError("overloaded")] * 3))
    assert run(git_repo, "refine", "1", "--yes") == 1
    captured = capsys.readouterr()
    assert "pass 1 failed (overloaded)" in captured.err
    assert "refine did not finish (interrupted)" in captured.err
    assert "rfd dismiss 1 <n…|all>`" in captured.err  # said as an option, never offered
    assert "dismiss addressed reviews" not in captured.out
    assert (git_repo / "docs/rfd/.state/001/reviews/1.md").exists()


def test_an_implement_budget_stop_keeps_the_items_and_shows_reason_and_usage(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text("[steps.implement]\nbudget_tokens = 40\n")
    plan = "- [ ] 1. First\n- [ ] 2. Second\n"
    scripted.append(ScriptedLLM([reply("Research."), reply(plan), item_done("did it")]))
    capsys.readouterr()
    assert run(git_repo, "implement", "1", "--yes") == 1
    captured = capsys.readouterr()
    assert "implement · " in captured.out and "30 in · 15 out" in captured.out
    assert "budget reached (45 tokens / $0.0000 of 40 tokens)" in captured.err
    assert "run `rfd implement 1` again to resume" in captured.err
    items = (git_repo / "docs/rfd/.state/001/implement/1/items.md").read_text()
    assert items.endswith(plan)  # the item it stopped in is still pending: a rerun resumes
    assert not (git_repo / "docs/rfd/.state/001/phases/1.md").exists()


def test_implement_shows_its_usage_when_a_step_fails(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.core.errors import ProviderError

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    scripted.append(ScriptedLLM([reply("Research."), ProviderError("model unavailable")]))
    capsys.readouterr()
    assert run(git_repo, "implement", "1", "--yes") == 1
    captured = capsys.readouterr()
    assert "model unavailable" in captured.err
    assert "implement · " in captured.out and "10 in · 5 out" in captured.out


def test_accept_offline_without_plan_headings_says_no_model_is_configured(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", plan="Ship it in one go.\n"))
    assert run(git_repo, "accept", "1") == 1
    err = capsys.readouterr().err
    assert "no AI model is configured to read the plan" in err
    assert "set ANTHROPIC_API_KEY" in err and "### Phase 1: Title" in err
    assert "**Status**: Discussion" in (git_repo / "docs/rfd/001-a.md").read_text()


def test_accept_says_what_was_cut_from_an_rfd_too_large_for_the_context(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    long_plan = "Ship it in one go.\n" + "A detail of the rollout.\n" * 3000
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", plan=long_plan))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text("[provider]\ncontext_tokens = 3000\n")
    phases = {"phases": [{"title": "Everything", "description": "Ship it.", "label": "1"}]}
    llm = ScriptedLLM([reply("", ("submit_plan", phases))])
    scripted.append(llm)
    assert run(git_repo, "accept", "1", "--json") == 0
    captured = capsys.readouterr()
    (notice,) = json.loads(captured.out)["notices"]
    assert notice.startswith("RFD 001 was too large for the context budget: kept lines 1–")
    assert f"warning: {notice}" in captured.err
    assert "RFD 001 truncated here" in llm.requests[0].system
