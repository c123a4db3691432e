from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.agent.authoring.refine import (
    Focus,
    ReviewText,
    StopReason,
    changed_sections,
    focus_for,
    refine,
)
from bot.agent.toolbox.permission import Mode
from bot.config.load import Config, StepSection, StepsSection
from bot.core.errors import ProviderError, ValidationError
from bot.events import Notice, ResultReady
from bot.llm.base import PaidError, Reply, Usage
from bot.llm.usage import parse_line
from tests.agent_support import RFD, RFD_PATH, Repo, make_repo
from tests.fakes import ScriptedLLM, ScriptedPrompter, StubPrompts, reply

REVIEWS = (ReviewText("reviews/1.md", "Summary is vague."), ReviewText("reviews/2.md", "Nit."))


def revision(summary: str, notes: str) -> Reply:
    """The model's answer to one pass: a new Summary section, and its notes."""
    sections = [{"section": "Summary", "content": summary}]
    return reply("", ("submit_revision", {"sections": sections, "notes": notes}))


def edit(summary: str, answer: str = "changed the summary") -> list[Reply]:
    """One pass that rewrites the Summary section."""
    return [revision(summary, answer)]


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return make_repo(tmp_path)


def test_converged_stops_the_loop(repo: Repo) -> None:
    llm = ScriptedLLM([*edit("Clear summary."), reply("CONVERGED\nNothing to add.")])
    session, _ = repo.session(llm)
    result = refine(session, REVIEWS)
    assert result.stop is StopReason.CONVERGED
    assert [(p.number, p.focus, p.changed_sections) for p in result.passes] == [
        (1, Focus.REVIEWS, ("Summary",)),
        (2, Focus.COMPLETENESS, ()),
    ]
    assert "+Clear summary." in result.passes[0].diff.splitlines()
    assert result.passes[1].diff == ""
    assert repo.rfd.read_text() == RFD.replace("Old summary.", "Clear summary.")
    assert result.reviews == ("reviews/1.md", "reviews/2.md")


def test_the_cap_is_five_passes(repo: Repo) -> None:
    llm = ScriptedLLM([r for n in range(1, 7) for r in edit(f"Version {n}.")])
    session, _ = repo.session(llm)
    result = refine(session, REVIEWS)
    assert (result.stop, len(result.passes)) == (StopReason.CAP, 5)
    assert "Version 5." in repo.rfd.read_text()
    assert len(llm.replies) == 1  # the sixth pass never ran


def test_two_unchanged_passes_stop(repo: Repo) -> None:
    llm = ScriptedLLM([*edit("Better."), reply("looks fine"), reply("still fine"), *edit("x")])
    session, _ = repo.session(llm)
    result = refine(session, REVIEWS)
    assert (result.stop, len(result.passes)) == (StopReason.UNCHANGED, 3)
    assert result.changed


def test_oscillation_stops(repo: Repo) -> None:
    llm = ScriptedLLM([*edit("A."), *edit("B."), *edit("A."), *edit("B.")])
    session, _ = repo.session(llm)
    result = refine(session)
    assert (result.stop, len(result.passes)) == (StopReason.OSCILLATION, 3)


def test_a_provider_failure_keeps_the_earlier_passes(repo: Repo) -> None:
    llm = ScriptedLLM([*edit("Kept."), ProviderError("Anthropic did not answer within 120 s")])
    session, seen = repo.session(llm)
    result = refine(session, REVIEWS)
    assert result.stop is StopReason.INTERRUPTED
    assert "pass 2 failed (Anthropic did not answer within 120 s)" in result.warning
    assert "Kept." in repo.rfd.read_text()
    assert [e.level for e in seen if isinstance(e, Notice)] == ["warning"]


def test_an_empty_revision_is_a_failed_pass_not_no_change(repo: Repo) -> None:
    """`{}` (no section, no note) is no answer: the pass failed, it did not find nothing
    to change."""
    llm = ScriptedLLM([*edit("Kept."), reply("", ("submit_revision", {}))])
    session, _ = repo.session(llm)
    result = refine(session, REVIEWS)
    assert result.stop is StopReason.INTERRUPTED
    assert "pass 2 failed (the model's submit_revision carried no section" in result.warning
    assert "Kept." in repo.rfd.read_text()


@pytest.mark.parametrize("error", [TimeoutError("read timed out"), KeyboardInterrupt()])
def test_an_interruption_inside_a_pass_keeps_its_written_sections(
    repo: Repo, error: BaseException
) -> None:
    llm = ScriptedLLM([*edit("Half."), error])
    session, _ = repo.session(llm)
    result = refine(session)
    assert result.stop is StopReason.INTERRUPTED
    assert result.passes[0].changed_sections == ("Summary",)


def test_a_budget_stop_ends_the_loop_and_keeps_the_earlier_passes(repo: Repo) -> None:
    steps = StepsSection(refine=StepSection(budget_tokens=20))
    repo = make_repo(repo.root, Config(steps=steps))
    llm = ScriptedLLM([*edit("Within budget."), *edit("Over budget.")])
    session, seen = repo.session(llm)
    result = refine(session, REVIEWS)
    assert repo.rfd.read_text() == RFD.replace("Old summary.", "Within budget.")
    assert (result.stop, len(result.passes)) == (StopReason.BUDGET, 2)
    assert result.passes[0].changed_sections == ("Summary",)
    assert result.warning.startswith("budget reached (30 tokens / $0.0000 of 20 tokens) during")
    assert result.usage.total == 30  # the call that went over is counted too
    assert [e.message for e in seen if isinstance(e, Notice)] == [result.warning]


def test_an_empty_rfd_is_refused_before_any_model_call(repo: Repo) -> None:
    repo.rfd.write_text("  \n")
    llm = ScriptedLLM([reply("CONVERGED")])
    session, _ = repo.session(llm)
    with pytest.raises(ValidationError, match="is empty: there is nothing to send"):
        refine(session, REVIEWS)
    assert llm.requests == []


def test_empty_replies_are_retried(repo: Repo) -> None:
    llm = ScriptedLLM([reply(""), reply(""), reply("CONVERGED")])
    session, _ = repo.session(llm)
    assert refine(session).stop is StopReason.CONVERGED
    assert len(llm.requests) == 3


def test_pass_one_sees_the_reviews_and_later_passes_rotate_focus(repo: Repo) -> None:
    prompts = StubPrompts()
    llm = ScriptedLLM([reply("ok"), reply("ok"), reply("ok")])
    session, _ = repo.session(llm, prompts=prompts)
    refine(session, REVIEWS)
    steps = [(name, ctx.get("focus")) for name, ctx in prompts.rendered]
    assert steps == [("refine_pass1", None), ("refine_pass", "completeness")]
    first, second = llm.requests
    assert "[refine_pass1 task]" in first.messages[-1].text
    assert "[refine_pass task]" in second.messages[-1].text
    # every pass sees the RFD and the reviews (as their digest), in the system prompt
    for request in (first, second):
        assert '<document name="RFD D1">' in request.system
        assert '<document name="review on file (1.md)">\nSummary is vague.' in request.system
    assert all(t == ["submit_review", "submit_revision", "submit_plan"] for t in llm.tool_names)
    assert [r.tool_choice for r in llm.requests] == ["submit_revision"] * 2


def test_every_pass_sends_the_prefix_review_and_accept_share(repo: Repo) -> None:
    """Same tools, same system blocks up to the last breakpoint; only the task differs."""
    llm = ScriptedLLM([reply("no change"), reply("none either")])
    session, _ = repo.session(llm)
    refine(session, REVIEWS)
    first, second = llm.requests
    assert first.tools == second.tools and first.system_parts == second.system_parts
    assert [p.cache for p in first.system_parts] == [True, True, False, True]
    assert "pass 1 of at most 5" in first.messages[-1].text.replace("\n", " ")
    assert "pass 2 of at most 5" in second.messages[-1].text
    assert "submit_revision" in first.messages[-1].text


@pytest.mark.parametrize(
    ("number", "reviews", "focus"),
    [
        (1, True, Focus.REVIEWS),
        (2, True, Focus.COMPLETENESS),
        (5, True, Focus.SCOPE_AND_CLARITY),  # the cap reaches every focus after reviews
        (1, False, Focus.COMPLETENESS),
        (5, False, Focus.CLARITY),
    ],
)
def test_focus_rotation(number: int, reviews: bool, focus: Focus) -> None:
    assert focus_for(number, reviews=reviews) is focus


@pytest.mark.parametrize("reviews", [True, False])
def test_every_focus_is_asked_within_the_cap(repo: Repo, reviews: bool) -> None:
    prompts = StubPrompts()
    llm = ScriptedLLM([r for n in range(5) for r in edit(f"Version {n}.")])
    session, _ = repo.session(llm, prompts=prompts)
    refine(session, REVIEWS if reviews else ())
    asked = [str(c.get("focus", "reviews")) for n, c in prompts.rendered if n.startswith("refine")]
    assert len(asked) == 5
    covered = {part for focus in asked for part in focus.split("_and_")}
    assert covered >= {"completeness", "correctness", "edge_cases", "scope", "clarity"}


def test_the_scope_and_clarity_pass_asks_both_questions(repo: Repo) -> None:
    llm = ScriptedLLM([r for n in range(5) for r in edit(f"Version {n}.")])
    session, _ = repo.session(llm)
    refine(session, REVIEWS)
    last = llm.requests[-1].messages[-1].text
    assert "focus is **scope and clarity**" in last
    assert "non-goals stated" in last and "used before it is defined" in last


def test_changed_sections_names_added_and_removed_ones() -> None:
    after = RFD.replace("Old design.", "New.") + "\n## Risks\n\nSome.\n"
    assert changed_sections(RFD, after, RFD_PATH) == ("Design", "Risks")
    assert changed_sections(RFD, "not an RFD", RFD_PATH) == ("Summary", "Design")


@pytest.mark.parametrize(
    ("mode", "approvals", "changed"),
    [(Mode.CONFINED, [], True), (Mode.ASK, ["n", "n"], False), (Mode.ASK, ["y", "n"], True)],
)
def test_sections_change_only_as_the_mode_allows(
    repo: Repo, mode: Mode, approvals: list[str], changed: bool
) -> None:
    llm = ScriptedLLM([*edit("Edited."), *edit("Again."), reply("CONVERGED")])
    prompter = ScriptedPrompter(approvals=list(approvals))
    session, _ = repo.session(llm, mode=mode, prompter=prompter)
    result = refine(session, REVIEWS)
    assert ("+Edited." in result.passes[0].diff.splitlines()) is changed
    assert result.passes[0].changed_sections == (("Summary",) if changed else ())


def test_every_call_lands_in_the_usage_ledger(repo: Repo) -> None:
    llm = ScriptedLLM([*edit("Better."), reply("CONVERGED")])
    session, _ = repo.session(llm)
    result = refine(session, REVIEWS)
    lines = (repo.store.read_text("D1", "usage.jsonl") or "").splitlines()
    entries = [parse_line(line) for line in lines]
    assert [(e.step, e.usage.input_tokens) for e in entries if e] == [("refine", 10)] * 2
    assert result.usage.input_tokens == 20


def test_a_judge_sees_each_pass_and_its_feedback_is_answered(repo: Repo) -> None:
    seen: list[ResultReady] = []

    def judge(event: ResultReady) -> ResultReady:
        seen.append(event)
        return dataclasses.replace(event, feedback=("FAIL: too short",) if len(seen) == 1 else ())

    fix = revision("Longer summary.", "lengthened")
    llm = ScriptedLLM([*edit("Short."), fix, reply("CONVERGED")])
    session, _ = repo.session(llm)
    session.bus.subscribe(ResultReady, judge, owner="judge")
    result = refine(session, REVIEWS)
    assert [e.item for e in seen] == ["refine pass 1 (reviews)", "refine pass 2 (completeness)"]
    assert seen[0].result == "changed the summary"
    assert seen[0].diff.startswith("--- a/docs/rfd/D1-tracing.md")
    assert "+Short." in seen[0].diff.splitlines()
    assert seen[0].phase.startswith("Apply the active reviews")
    assert "Summary is vague." in seen[0].reviews
    assert seen[1].phase.startswith("Completeness") and seen[1].reviews == ""
    assert result.passes[0].reply == "lengthened"
    assert "+Longer summary." in result.passes[0].diff.splitlines()
    assert "FAIL: too short" in llm.requests[1].messages[-1].text


def test_a_document_too_large_for_the_context_is_cut_visibly(tmp_path: Path) -> None:
    from bot.config.load import ProviderSection

    config = Config(provider=ProviderSection(context_tokens=3000))
    repo = make_repo(tmp_path, config)
    huge = ReviewText("reviews/1.md", "Finding.\n" * 4000)
    llm = ScriptedLLM([reply("CONVERGED")])
    session, seen = repo.session(llm)
    refine(session, [huge])
    warnings = [e.message for e in seen if isinstance(e, Notice)]
    assert len(warnings) == 1 and "review on file (1.md)" in warnings[0]
    assert "truncated here" in llm.requests[0].system
    assert len(llm.requests[0].system) < 3000 * 4 + 2000


def test_an_rfd_larger_than_the_context_is_cut_visibly(tmp_path: Path) -> None:
    from bot.config.load import ProviderSection

    config = Config(provider=ProviderSection(context_tokens=3000))
    repo = make_repo(tmp_path, config, rfd=RFD + "Detail line of the design.\n" * 3000)
    llm = ScriptedLLM([reply("CONVERGED")])
    session, seen = repo.session(llm)
    refine(session, REVIEWS)
    warnings = [e.message for e in seen if isinstance(e, Notice)]
    assert [w.split(" was")[0] for w in warnings] == [
        "review on file (2.md)",  # the reviews are cut first, the RFD last
        "review on file (1.md)",
        "RFD D1",
    ]
    assert "cut lines" in warnings[-1]
    assert "RFD D1 truncated here" in llm.requests[0].system
    assert len(llm.requests[0].system) < 3000 * 4 + 2000


def test_a_cut_off_answer_is_billed_in_the_ledger_and_the_budget(repo: Repo) -> None:
    cut = PaidError(
        "the model's structured answer is not a JSON object (stop reason max_tokens)",
        usage=Usage(input_tokens=1_500, output_tokens=8_192),
        model="claude-opus-5-5",
    )
    session, _ = repo.session(ScriptedLLM([cut]))
    result = refine(session, REVIEWS)
    assert result.stop is StopReason.INTERRUPTED
    lines = (repo.store.read_text("D1", "usage.jsonl") or "").splitlines()
    entries = [parse_line(line) for line in lines]
    assert [(e.step, e.usage.output_tokens) for e in entries if e] == [("refine", 8_192)]
    assert result.usage.output_tokens == 8_192  # the step's budget counted it


def test_a_pass_cut_off_at_max_tokens_says_so(repo: Repo) -> None:
    cut = dataclasses.replace(revision("Half a summ", "cut"), stop_reason="max_tokens")
    session, seen = repo.session(ScriptedLLM([cut, reply("CONVERGED")]))
    refine(session, REVIEWS)
    warned = [e.message for e in seen if isinstance(e, Notice) and e.level == "warning"]
    assert any(
        w.startswith("the refine answer was cut off at its max_tokens limit") for w in warned
    )
