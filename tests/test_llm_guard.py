"""Seed 004's robustness rules: empty input, oversized input, empty replies, budgets."""

from __future__ import annotations

import pytest

from bot.config.load import parse
from bot.core.errors import BudgetExceeded, ConfigError, ProviderError, ValidationError
from bot.llm.base import Reply, ToolCall, Usage
from bot.llm.guard import (
    Budget,
    Meter,
    Part,
    estimate_tokens,
    fit,
    require_input,
    retry_empty,
    truncate,
)


@pytest.mark.parametrize("text", ["", "   \n\t"])
def test_empty_input_is_refused(text: str) -> None:
    with pytest.raises(ValidationError, match="RFD 045 is empty"):
        require_input(text, "RFD 045")


def test_truncation_keeps_the_head_and_says_what_was_cut() -> None:
    text = "".join(f"line {n:03d} of the diff\n" for n in range(1, 101))  # 100 lines of 21 chars
    kept, notice = truncate(text, 60, "the diff")  # 60 tokens, 20 kept for the mark: 7 lines
    assert kept.startswith("line 001") and "line 007" in kept and "line 008" not in kept
    assert "[… the diff truncated here: 93 lines (~489 tokens) cut …]" in kept
    assert notice == (
        "the diff was too large for the context budget: "
        "kept lines 1–7, cut lines 8–100 (~489 tokens)"
    )
    assert estimate_tokens(kept) <= 60


def test_text_within_budget_is_untouched() -> None:
    assert truncate("short\n", 100, "x") == ("short\n", None)


def test_fit_cuts_the_last_cuttable_part_first() -> None:
    parts = [
        Part("system prompt", "s" * 400, cuttable=False),
        Part("RFD 045", "r\n" * 200),
        Part("diff", "d\n" * 2000),
        Part("task", "t" * 40, cuttable=False),
    ]
    texts, notices = fit(parts, 500)
    assert texts[0] == parts[0].text and texts[1] == parts[1].text and texts[3] == parts[3].text
    assert len(texts[2]) < len(parts[2].text)
    assert len(notices) == 1 and notices[0].startswith("diff was too large")


def reply(text: str, *calls: ToolCall) -> Reply:
    return Reply(text, "m", "end_turn", Usage(10, 2), calls)


@pytest.mark.parametrize(
    ("answers", "calls", "text"),
    [
        (["ok"], 1, "ok"),
        (["", "ok"], 2, "ok"),
        (["", " \n", "ok"], 3, "ok"),
    ],
)
def test_empty_reply_is_retried_at_most_twice(answers: list[str], calls: int, text: str) -> None:
    pending = iter(answers)
    got = retry_empty(lambda: reply(next(pending)))
    assert got.text == text
    assert got.usage == Usage(10 * calls, 2 * calls)  # every attempt is paid for


def test_three_empty_replies_fail() -> None:
    with pytest.raises(ProviderError, match="empty reply 3 times"):
        retry_empty(lambda: reply(""))


def test_a_tool_call_without_text_is_not_empty() -> None:
    call = ToolCall("c", "submit", {})
    assert retry_empty(lambda: reply("", call)).tool_calls == (call,)


def test_budget_from_config_stops_cleanly() -> None:
    config = parse("[steps.review]\nbudget_tokens = 1000\nbudget_usd = 0.05\n")
    budget = Budget.from_config(config, "review")
    assert (budget.tokens, budget.usd) == (1000, 0.05)
    meter = Meter(budget)
    meter.charge(Usage(600, 100), 0.01)
    with pytest.raises(BudgetExceeded, match="review used 1,200 tokens, over its budget of 1,000"):
        meter.charge(Usage(400, 100), 0.01)


def test_dollar_budget() -> None:
    with pytest.raises(
        BudgetExceeded, match=r"cost \$0\.0600, over its budget of \$0\.0500"
    ) as err:
        Budget("refine", usd=0.05).check(Usage(1), 0.06)
    assert err.value.hint == "raise steps.refine.budget_usd, or 0 for no limit"


def test_no_budget_means_no_limit() -> None:
    Budget("review").check(Usage(10**9, 10**9), 10_000.0)


def test_a_dollar_budget_on_an_unpriced_model_refuses_to_start() -> None:
    with pytest.raises(ConfigError) as err:
        Budget("review", usd=0.5).require_price("llama3.1:8b")
    assert "'llama3.1:8b' has no price" in err.value.message
    assert "steps.review.budget_usd is $0.5" in err.value.message
    assert err.value.hint is not None
    assert '[models."llama3.1:8b"] in bot/llm/prices.toml' in err.value.hint
    assert "steps.review.budget_tokens" in err.value.hint


@pytest.mark.parametrize(
    "budget, model",
    [(Budget("review", usd=0.5), "claude-sonnet-4-5-20250929"), (Budget("review"), "llama3.1:8b")],
)
def test_a_priced_model_or_no_dollar_budget_starts(budget: Budget, model: str) -> None:
    budget.require_price(model)  # no error
