"""Finished work is offered to ``result.ready`` interceptors (judges) before moving on.

Each message an interceptor appends to ``feedback`` goes back into the same
conversation as a user message, and the model answers it (it may fix things with its
tools) before the step goes to the next item or pass.  A judge's own model calls are
recorded in the step's usage ledger and count against the step's budget.
"""

from __future__ import annotations

import dataclasses
import functools

from bot.agent.loop import Conversation, LoopResult, charge, run
from bot.events import ResultReady
from bot.llm.base import Message


def answered(conv: Conversation, result: LoopResult, event: ResultReady) -> LoopResult:
    """``result``, or the model's answer to the feedback the interceptors gave on it.

    What a judge spends on its own model calls is charged to this conversation's step.
    """
    event = dataclasses.replace(event, charge=functools.partial(charge, conv))
    feedback = conv.bus.intercept(event).feedback
    if not feedback:
        return result
    return run(conv, (*result.messages, *(Message("user", text) for text in feedback)))
