from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.agent.authoring.author import converge, draft, explore
from bot.agent.toolbox.base import Step
from bot.agent.toolbox.permission import Approval, Choice, Mode
from bot.core.errors import GateError, Interrupted, ProviderError, ValidationError
from bot.events import ConversationSaved, Notice
from bot.llm.base import Reply, Request
from tests.agent_support import RFD, Repo, make_repo
from tests.fakes import ScriptedLLM, ScriptedPrompter, StubPrompts, reply


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return make_repo(tmp_path)


def test_explore_saves_the_final_answer_when_the_tool_was_not_used(repo: Repo) -> None:
    prompter = ScriptedPrompter(answers=["dig into the hooks", ""])
    llm = ScriptedLLM([reply("First look."), reply("Deeper research.")])
    session, _ = repo.session(llm, mode=Mode.ASK, prompter=prompter)
    result = explore(session, "We need tracing.")
    assert (result.text, result.saved, result.exchanges) == ("Deeper research.", "explore.md", 2)
    assert repo.store.read_explore("D1") == "Deeper research.\n"
    assert llm.opening(0).endswith("We need tracing.")
    assert llm.requests[1].messages[-1].text == "dig into the hooks"  # the conversation goes on


def test_explore_summary_written_by_the_tool_is_kept(repo: Repo) -> None:
    summary = ("rfd_explore_summary", {"content": "# Findings\n"})
    prompter = ScriptedPrompter(approvals=["y"])
    llm = ScriptedLLM([reply("", summary), reply("Saved the findings.")])
    session, _ = repo.session(llm, mode=Mode.ASK, prompter=prompter)
    result = explore(session, "notes")
    assert result.saved == "explore.md"  # what `--json` reports: the tool saved it
    assert repo.store.read_explore("D1") == "# Findings\n"
    assert prompter.shown[0][0] == "rfd_explore_summary"


def test_converge_records_only_the_decisions_the_person_confirms(repo: Repo) -> None:
    add = ("rfd_decision", {"action": "add", "text": "Flat events", "status": "locked"})
    bad = ("rfd_decision", {"action": "add", "text": "Enum hierarchy"})
    no = Approval(Choice.NO, note="we said no enums")
    prompter = ScriptedPrompter(approvals=["y", no])
    llm = ScriptedLLM([reply("", add, bad), reply("Recorded one.")])
    session, _ = repo.session(llm, mode=Mode.ASK, prompter=prompter)
    converge(session)
    decisions = repo.store.read_decisions("D1")
    assert decisions is not None
    assert [d.text for d in decisions.locked] == ["Flat events"] and not decisions.discussing
    refused = llm.requests[1].messages[-1].tool_results[1]
    assert refused.is_error and "we said no enums" in refused.content
    assert "+1. Flat events" in prompter.shown[0][1].splitlines()


def test_draft_refuses_to_start_before_decisions_exist(repo: Repo) -> None:
    session, _ = repo.session(ScriptedLLM([]))
    with pytest.raises(GateError, match="no decisions") as err:
        draft(session)
    assert err.value.hint == "run `rfd converge D1` first"


def test_draft_states_intent_then_writes_a_section_when_approved(repo: Repo) -> None:
    repo.store.decide("D1", "add", text="Flat events", status="locked")
    prompts = StubPrompts()
    write = ("rfd_section", {"section": "Summary", "content": "Tracing, flat events."})
    prompter = ScriptedPrompter(approvals=["y"], answers=["go ahead", None])
    llm = ScriptedLLM([reply("Next: Summary. I will cover..."), reply("", write), reply("Done.")])
    session, _ = repo.session(llm, mode=Mode.ASK, prompter=prompter, prompts=prompts)
    result = draft(session)
    assert result.exchanges == 2 and result.step is Step.DRAFT
    assert repo.rfd.read_text() == RFD.replace("Old summary.", "Tracing, flat events.")
    assert prompts.rendered == [
        (
            "draft",
            {
                "rfd_id": "D1",
                "title": "Tracing",
                "sections": ["Summary", "Design"],
                "markup": "markdown",
            },
        )
    ]
    assert llm.tool_names[0] == [
        "read_file",
        "list_files",
        "grep_files",
        "rfd_draft",
        "rfd_section",
    ]
    first = llm.opening(0)
    assert '<document name="decisions.md">' in first and "Flat events" in first


def test_under_yes_a_draft_write_without_a_stated_intent_is_refused(repo: Repo) -> None:
    repo.store.decide("D1", "add", text="Flat events", status="locked")
    write = ("rfd_section", {"section": "Summary", "content": "Tracing, flat events."})
    llm = ScriptedLLM(
        [reply("", write), reply("Summary next: one paragraph on flat events.", write), reply("")]
    )
    session, seen = repo.session(llm, mode=Mode.YES)
    draft(session)
    refused = llm.requests[1].messages[-1].tool_results[0]
    assert refused.is_error and "state your intent first" in refused.content
    assert any("state your intent first" in e.message for e in seen if isinstance(e, Notice))
    assert llm.requests[2].messages[-1].tool_results[0].content.startswith("replaced section")
    assert repo.rfd.read_text() == RFD.replace("Old summary.", "Tracing, flat events.")


def test_without_a_person_a_conversation_is_one_exchange(repo: Repo) -> None:
    llm = ScriptedLLM([reply("Research.")])
    session, _ = repo.session(llm, mode=Mode.CONFINED)
    assert explore(session, "notes").exchanges == 1


def test_the_draft_system_prompt_carries_the_two_stage_rule(repo: Repo) -> None:
    repo.store.decide("D1", "add", text="Flat events")
    llm = ScriptedLLM([reply("Next: Summary. My plan is...")])
    session, _ = repo.session(llm, mode=Mode.CONFINED)
    draft(session)
    system = llm.requests[0].system
    assert "Intent." in system and "wait for the contributor's answer" in system
    assert "The sections, in order: Summary, Design." in system


def test_the_conversation_is_saved_as_a_transcript(repo: Repo) -> None:
    add = ("rfd_decision", {"action": "add", "text": "Flat events"})
    llm = ScriptedLLM([reply("Recording.", add), reply("Recorded.")])
    session, seen = repo.session(llm, mode=Mode.YES, clock=lambda: 1_700_000_000.0)
    converge(session, "Let us decide.")
    saved = [e for e in seen if isinstance(e, ConversationSaved)]
    assert [(e.step, e.path) for e in saved] == [
        ("converge", "docs/rfd/.state/D1/conversations/converge-1700000000.md")
    ]
    text = repo.store.read_text("D1", "conversations/converge-1700000000.md") or ""
    assert "## assistant\n\nRecording.\n\n→ `rfd_decision` {" in text
    assert "## user\n\n← decisions.md is now:" in text
    assert text.rstrip().endswith("## assistant\n\nRecorded.")


TIMEOUT = ProviderError(
    "Anthropic did not answer within 120 s", hint="raise provider.timeout_seconds"
)


def test_a_timeout_mid_explore_saves_the_partial_result_beside_the_complete_one(
    repo: Repo,
) -> None:
    repo.store.write_explore("D1", "# Earlier complete research\n")
    prompter = ScriptedPrompter(answers=["go deeper"])
    llm = ScriptedLLM([reply("First look: spans per job."), reply("", ("list_files", {})), TIMEOUT])
    session, seen = repo.session(llm, prompter=prompter)
    with pytest.raises(Interrupted) as err:
        explore(session, "notes")
    assert "did not answer within 120 s" in err.value.message
    assert "docs/rfd/.state/D1/explore.partial.md" in err.value.message
    assert "docs/rfd/.state/D1/conversations/explore.partial.md" in err.value.message
    assert "run `rfd explore D1` again to resume" in (err.value.hint or "")
    assert repo.store.read_explore("D1") == "# Earlier complete research\n"  # kept whole
    saved = repo.store.read_text("D1", "explore.partial.md") or ""
    assert saved.startswith("> **Partial**") and "First look: spans per job." in saved
    talk = repo.store.read_text("D1", "conversations/explore.partial.md") or ""
    assert "go deeper" in talk and "→ `list_files`" in talk
    assert any(isinstance(e, Notice) and e.level == "warning" for e in seen)


def test_ctrl_c_mid_converge_keeps_the_confirmed_decisions_and_the_exchange(repo: Repo) -> None:
    add = ("rfd_decision", {"action": "add", "text": "Flat events", "status": "locked"})
    llm = ScriptedLLM([reply("", add), KeyboardInterrupt()])
    session, _ = repo.session(llm)
    with pytest.raises(Interrupted, match=r"converge interrupted \(Ctrl-C\)"):
        converge(session)
    decisions = repo.store.read_decisions("D1")
    assert decisions is not None and [d.text for d in decisions.locked] == ["Flat events"]
    talk = repo.store.read_text("D1", "conversations/converge.partial.md") or ""
    assert talk.startswith("> **Partial** — `rfd converge` was interrupted (Ctrl-C)")
    assert "Flat events" in talk
    assert repo.store.read_text("D1", "explore.partial.md") is None


def test_the_next_run_resumes_from_the_partial_result_and_clears_it(repo: Repo) -> None:
    session, _ = repo.session(
        ScriptedLLM([reply("First look."), TIMEOUT]), prompter=ScriptedPrompter(answers=["more"])
    )
    with pytest.raises(Interrupted):
        explore(session, "notes")
    llm = ScriptedLLM([reply("Full research.")])
    result = explore(repo.session(llm)[0], "carry on")
    assert "explore.partial.md (interrupted earlier run)" in llm.opening(0)
    assert "First look." in llm.opening(0)
    assert result.saved == "explore.md" and repo.store.read_explore("D1") == "Full research.\n"
    assert repo.store.read_text("D1", "explore.partial.md") is None
    assert repo.store.read_text("D1", "conversations/explore.partial.md") is None


def test_a_timeout_before_any_answer_saves_nothing(repo: Repo) -> None:
    session, _ = repo.session(ScriptedLLM([TIMEOUT]))
    with pytest.raises(ProviderError, match="did not answer"):
        explore(session, "notes")
    assert repo.store.read_text("D1", "conversations/explore.partial.md") is None


class CutMidStream(ScriptedLLM):
    """Plays its script, then streams half a reply and is interrupted (Ctrl-C)."""

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        if self.replies:
            return super().complete(request, on_text=on_text)
        self.requests.append(request)
        assert on_text is not None
        on_text("Spans per job, ")
        on_text("and a trace id in every")
        raise KeyboardInterrupt


def test_ctrl_c_mid_stream_keeps_the_text_already_shown(repo: Repo) -> None:
    shown: list[str] = []
    prompter = ScriptedPrompter(answers=["go on"])
    llm = CutMidStream([reply("First look.")])
    session, _ = repo.session(llm, prompter=prompter, on_text=shown.append)
    with pytest.raises(Interrupted, match="Ctrl-C"):
        explore(session, "notes")
    assert shown == ["First look.", "Spans per job, ", "and a trace id in every"]
    saved = repo.store.read_text("D1", "explore.partial.md") or ""
    assert saved.endswith("\n\nSpans per job, and a trace id in every [… cut off here]\n")
    talk = repo.store.read_text("D1", "conversations/explore.partial.md") or ""
    assert talk.count("First look.") == 1 and "go on" in talk


def test_the_partial_transcript_holds_the_talk_not_the_documents(repo: Repo) -> None:
    session, _ = repo.session(
        ScriptedLLM([reply("First look."), TIMEOUT]), prompter=ScriptedPrompter(answers=["more"])
    )
    with pytest.raises(Interrupted):
        explore(session, "We need tracing.")
    talk = repo.store.read_text("D1", "conversations/explore.partial.md") or ""
    assert "We need tracing." in talk and "First look." in talk
    assert "Old design." not in talk  # the RFD itself is not copied into the transcript


@pytest.mark.parametrize("step", [explore, converge, draft])
def test_an_empty_rfd_is_refused_before_any_model_call(
    repo: Repo, step: Callable[..., object]
) -> None:
    repo.store.decide("D1", "add", text="Flat events", status="locked")
    repo.rfd.write_text("\n  \n")
    llm = ScriptedLLM([reply("never asked")])
    session, _ = repo.session(llm)
    with pytest.raises(ValidationError, match=r"RFD docs/rfd/D1-tracing\.md is empty"):
        step(session, "")
    assert llm.requests == []


def test_draft_refuses_empty_decisions(repo: Repo) -> None:
    repo.store.write_text("D1", "decisions.md", " \n")
    llm = ScriptedLLM([reply("never asked")])
    session, _ = repo.session(llm)
    with pytest.raises(ValidationError, match=r"decisions\.md of RFD D1 is empty"):
        draft(session)
    assert llm.requests == []


def test_an_rfd_larger_than_the_context_is_cut_visibly(tmp_path: Path) -> None:
    from bot.config.load import Config, ProviderSection

    repo = make_repo(tmp_path, Config(provider=ProviderSection(context_tokens=3000)))
    repo.rfd.write_text(RFD + "Detail line of the design.\n" * 3000)
    llm = ScriptedLLM([reply("Research done.")])
    session, seen = repo.session(llm)
    explore(session, "")
    warnings = [e.message for e in seen if isinstance(e, Notice) and e.level == "warning"]
    assert any(w.startswith("RFD docs/rfd/D1-tracing.md was too large") for w in warnings)
    sent = "".join(m.text for m in llm.requests[0].messages)
    assert "RFD docs/rfd/D1-tracing.md truncated here" in sent
    assert len(sent) + len(llm.requests[0].system) < 3000 * 4 + 2000


def test_empty_answers_stop_explore_and_save_nothing(repo: Repo) -> None:
    session, _ = repo.session(ScriptedLLM([reply("")] * 3))
    with pytest.raises(ProviderError, match="explore stopped: the model answered nothing"):
        explore(session, "")
    assert repo.store.read_text("D1", "explore.md") is None
    assert not (repo.store.dir("D1") / "conversations").exists()  # no transcript, no partial
