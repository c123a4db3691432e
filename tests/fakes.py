"""The one scripted fake of the model edge, shared by every test that needs an LLM.

``ScriptedLLM`` answers from a list of replies (or raises the exceptions put in it)
and records every request; it fails loudly when asked for more than it scripted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.llm.base import Reply, Request, Usage

Scripted = Reply | BaseException | Callable[[Request], Reply]


def reply(text: str, *, model: str = "scripted-model") -> Reply:
    """A final text reply."""
    return Reply(text, model, "end_turn", Usage(input_tokens=10, output_tokens=5))


class ScriptedLLM:
    """An ``LLM`` that plays a script; ``requests`` holds what it was sent."""

    name = "scripted"
    offline = False

    def __init__(self, replies: Iterable[Scripted]) -> None:
        self.replies = list(replies)
        self.requests: list[Request] = []

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        self.requests.append(request)
        if not self.replies:
            raise AssertionError(f"the script has no reply left for request {len(self.requests)}")
        nxt = self.replies.pop(0)
        if isinstance(nxt, BaseException):
            raise nxt
        answer = nxt if isinstance(nxt, Reply) else nxt(request)
        if on_text and answer.text:
            on_text(answer.text)
        return answer
