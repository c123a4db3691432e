"""How an implement item ends: ``submit_item_result``, the model's structured verdict.

The model's prose never ticks an item (``I could NOT complete this item`` reads like a
report); the item is ``[x]`` only when the model submits ``done`` *and* the repository's
check passes (:mod:`bot.agent.implementation.item`).  The call ends the item's conversation: nothing
is asked of the model after it.  Its reason is model text that lands in the checklist,
so it is flattened to one short line that cannot be a marker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.agent.toolbox.base import Tool, ToolContext, schema
from bot.llm.base import Message

NAME = "submit_item_result"
DONE, FAILED = "done", "failed"
MAX_REASON = 200
NO_RESULT = f"the model ended without calling `{NAME}`"
CUT_OFF = "the answer was cut off at max_tokens (raise steps.implement.max_tokens)"
_MARKUP = re.compile(r"<!--|-->|\[|\]")
"""What the checklist line must not carry: HTML comments (markers) and the box brackets."""


@dataclass(frozen=True)
class Claim:
    """What the model says of its item."""

    done: bool
    reason: str
    summary: str


def _record(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    return f"recorded: {args['status']}"


SUBMIT_ITEM_RESULT = Tool(
    NAME,
    "End this item: `done` once the change is made and verified, or `failed` with the reason. "
    "Call it once, last; nothing else is asked after it.",
    schema(
        {"status": {"type": "string", "enum": [DONE, FAILED]}, "summary": "string"},
        {"reason": "string"},
    ),
    _record,
    confined=True,
)


def claim(messages: Sequence[Message]) -> Claim | None:
    """The last ``submit_item_result`` the model made in ``messages`` (None: it made none)."""
    for message in reversed(messages):
        for call in reversed(message.tool_calls):
            if call.name == NAME and message.role == "assistant":
                args = call.arguments
                done = args.get("status") == DONE
                return Claim(
                    done, one_line(str(args.get("reason") or "")), str(args.get("summary") or "")
                )
    return None


def _claim(args: Mapping[str, Any]) -> Claim:
    reason = one_line(str(args.get("reason") or ""))
    return Claim(args.get("status") == DONE, reason, str(args.get("summary") or ""))


def one_line(text: str, limit: int = MAX_REASON) -> str:
    """``text`` as one short line without markup (for a ``[Failed: reason]``)."""
    flat = " ".join(_MARKUP.sub(" ", text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
