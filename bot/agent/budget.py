"""A step's spending meter: tokens and dollars add up across every call of the step.

Past ``steps.<step>.budget_tokens`` or ``budget_usd`` the meter raises
:class:`~bot.errors.BudgetExceeded` *after* recording the call, so what was already
saved stays saved and the step stops cleanly.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.config import Config
from bot.errors import BudgetExceeded
from bot.llm.base import Usage

Price = Callable[[str, Usage], float]
"""Cost in US dollars of ``usage`` on a model (from the usage ledger's price table)."""


class Meter:
    """Accumulates the usage of one step and enforces its budget."""

    def __init__(self, *, tokens: int = 0, usd: float = 0.0, price: Price | None = None) -> None:
        self.limit_tokens = tokens
        self.limit_usd = usd
        self.price = price
        self.usage = Usage()
        self.cost_usd = 0.0

    @classmethod
    def for_step(cls, config: Config, step: str, price: Price | None = None) -> Meter:
        section = getattr(config.steps, step)
        return cls(tokens=section.budget_tokens, usd=section.budget_usd, price=price)

    def add(self, model: str, usage: Usage) -> float:
        """Record one call; its cost is returned; BudgetExceeded when over a limit."""
        cost = self.price(model, usage) if self.price else 0.0
        self.usage = self.usage + usage
        self.cost_usd += cost
        self._check()
        return cost

    def _check(self) -> None:
        if self.limit_tokens and self.usage.total > self.limit_tokens:
            raise BudgetExceeded(
                f"used {self.usage.total} tokens, over the budget of {self.limit_tokens}",
                hint="raise steps.<step>.budget_tokens or run the step again to resume",
            )
        if self.limit_usd and self.cost_usd > self.limit_usd:
            raise BudgetExceeded(
                f"spent ${self.cost_usd:.4f}, over the budget of ${self.limit_usd:.2f}",
                hint="raise steps.<step>.budget_usd or run the step again to resume",
            )
