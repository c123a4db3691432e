"""Robustness rules around model calls (pure; seed 004's table).

* an empty input is refused with a clear message;
* an input larger than the context budget is truncated *visibly*: the cut is
  marked in the text and a notice says what was cut;
* an empty reply is retried, at most :data:`EMPTY_RETRIES` times;
* an answer cut off at ``max_tokens`` is said (:data:`CUT_OFF`), never taken as complete;
* a step stops cleanly (:class:`~bot.core.errors.BudgetExceeded`) once it has spent its
  token or dollar budget (``steps.<step>.budget_tokens`` / ``budget_usd``);
* a dollar budget on a model the price table does not know refuses to start
  (:meth:`Budget.require_price`): it could not be enforced, and the step would run unbounded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import BudgetExceeded, ConfigError, ProviderError, ValidationError
from bot.llm.base import Reply, Usage

if TYPE_CHECKING:
    from bot.config.load import Config

EMPTY_RETRIES = 2
CHARS_PER_TOKEN = 4
"""Rough size of a token in English prose and code; good enough to decide what to cut."""
CUT_MARK = "\n\n[… {what} truncated here: {lines:,} lines (~{tokens:,} tokens) cut …]\n"
MARK_TOKENS = 20
"""Room kept for the cut mark itself, so the truncated text stays within its budget."""


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def require_input(text: str, what: str) -> str:
    """``text`` itself, or ValidationError when there is nothing in it."""
    if not text.strip():
        raise ValidationError(f"{what} is empty: there is nothing to send to the model")
    return text


@dataclass(frozen=True)
class Part:
    """One piece of a prompt; ``cuttable`` pieces are truncated (last first) to fit."""

    name: str
    text: str
    cuttable: bool = True


def fit(parts: Sequence[Part], budget_tokens: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The texts of ``parts`` fitted into ``budget_tokens``, and one notice per cut."""
    texts = [p.text for p in parts]
    notices: list[str] = []
    for i in reversed(range(len(parts))):
        over = sum(estimate_tokens(t) for t in texts) - budget_tokens
        if over <= 0:
            break
        if parts[i].cuttable:
            texts[i], notice = truncate(texts[i], estimate_tokens(texts[i]) - over, parts[i].name)
            notices.extend([notice] if notice else [])
    return tuple(texts), tuple(notices)


def truncate(text: str, max_tokens: int, what: str) -> tuple[str, str | None]:
    """Keep the head of ``text`` within ``max_tokens`` (whole lines), marking the cut."""
    if estimate_tokens(text) <= max_tokens:
        return text, None
    lines = text.splitlines(keepends=True)
    keep, size = 0, 0
    limit = max(max_tokens - MARK_TOKENS, 0) * CHARS_PER_TOKEN
    while keep < len(lines) and size + len(lines[keep]) <= limit:
        size += len(lines[keep])
        keep += 1
    cut = "".join(lines[keep:])
    mark = CUT_MARK.format(what=what, lines=len(lines) - keep, tokens=estimate_tokens(cut))
    notice = (
        f"{what} was too large for the context budget: kept lines 1–{keep}, "
        f"cut lines {keep + 1}–{len(lines)} (~{estimate_tokens(cut):,} tokens)"
    )
    return "".join(lines[:keep]) + mark, notice


CUT_OFF_REASONS = frozenset({"max_tokens", "length"})
"""Stop reasons of an answer cut off at ``max_tokens`` (Messages API; chat completions)."""
CUT_OFF = (
    "the {step} answer was cut off at its max_tokens limit ({limit:,} tokens): it is "
    "incomplete; raise steps.{key}.max_tokens"
)


def is_cut_off(reply: Reply) -> bool:
    """Did the model stop because it reached ``max_tokens``, mid-answer?"""
    return reply.stop_reason in CUT_OFF_REASONS


def is_empty(reply: Reply) -> bool:
    return not reply.text.strip() and not reply.tool_calls


def retry_empty(call: Callable[[], Reply], *, retries: int = EMPTY_RETRIES) -> Reply:
    """``call()`` again while it answers nothing, at most ``retries`` more times.

    The returned reply carries the usage of every attempt, so the ledger and the
    budget count what was paid for.
    """
    spent = Usage()
    for _ in range(retries + 1):
        reply = call()
        spent = spent + reply.usage
        if not is_empty(reply):
            return dataclasses.replace(reply, usage=spent)
    raise ProviderError(
        f"the model returned an empty reply {retries + 1} times",
        hint="retry later, or choose another model with --model",
    )


@dataclass(frozen=True)
class Budget:
    """The most one step may spend; 0 means no limit."""

    step: str
    tokens: int = 0
    usd: float = 0.0

    @classmethod
    def from_config(cls, config: Config, step: str) -> Budget:
        s = getattr(config.steps, step)
        return cls(step=step, tokens=s.budget_tokens, usd=s.budget_usd)

    def require_price(self, model: str) -> None:
        """ConfigError when a dollar budget is set and ``model`` has no price to count it in."""
        from bot.llm.pricing import PRICES_FILE, price

        if not self.usd or price(model) is not None:
            return
        key = f"steps.{self.step}.budget_usd"
        raise ConfigError(
            f"{self.step} not started: {key} is ${self.usd:g}, but the model {model!r} has no "
            f"price in bot/llm/{PRICES_FILE}, so its cost cannot be counted against the budget",
            hint=f'add its price under [models."{model}"] in bot/llm/{PRICES_FILE}, or budget '
            f"the step in tokens: set steps.{self.step}.budget_tokens and {key} = 0",
        )

    def limit(self) -> str:
        """The limit as people read it: ``20,000 tokens``, ``$0.50``, or both."""
        parts = [f"{self.tokens:,} tokens"] if self.tokens else []
        parts += [f"${self.usd:.2f}"] if self.usd else []
        return " / ".join(parts) or "no limit"

    def check(self, spent: Usage, cost_usd: float | None) -> None:
        """Raise BudgetExceeded when ``spent`` (so far, in this step) is over a limit."""
        if self.tokens and spent.total > self.tokens:
            raise BudgetExceeded(
                f"{self.step} used {spent.total:,} tokens, over its budget of {self.tokens:,}",
                hint=f"raise steps.{self.step}.budget_tokens, or 0 for no limit",
            )
        if self.usd and cost_usd is not None and cost_usd > self.usd:
            raise BudgetExceeded(
                f"{self.step} cost ${cost_usd:.4f}, over its budget of ${self.usd:.4f}",
                hint=f"raise steps.{self.step}.budget_usd, or 0 for no limit",
            )


class Meter:
    """What a step has spent so far; :meth:`charge` after every call stops it past its budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.usage = Usage()
        self.cost_usd = 0.0

    def charge(self, usage: Usage, cost_usd: float | None) -> None:
        self.usage = self.usage + usage
        self.cost_usd += cost_usd or 0.0
        self.budget.check(self.usage, self.cost_usd)

    def reached(self) -> str:
        """Why a step stopped on its budget: ``budget reached (N tokens / $X of <limit>)``."""
        spent = f"{self.usage.total:,} tokens / ${self.cost_usd:.4f}"
        return f"budget reached ({spent} of {self.budget.limit()})"
