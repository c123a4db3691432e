"""The one scripted fake of each edge tests talk to: the model and the person.

``ScriptedLLM`` answers from a list of replies (or raises the exceptions put in it)
and records every request; ``ScriptedPrompter`` answers approvals and questions from
lists.  Both fail loudly when a test asks for more than it scripted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.agent.toolbox.permission import Approval, Choice
from bot.events import Event, EventBus
from bot.llm.base import Reply, Request, ToolCall, Usage

Scripted = Reply | BaseException | Callable[[Request], Reply]


def reply(
    text: str = "",
    *calls: tuple[str, Mapping[str, Any]],
    tokens: tuple[int, int] = (10, 5),
    model: str = "scripted-model",
) -> Reply:
    """A model reply: final text, or tool calls given as ``(name, arguments)`` pairs."""
    tool_calls = tuple(
        ToolCall(f"call_{n}", name, dict(args)) for n, (name, args) in enumerate(calls)
    )
    stop = "tool_use" if tool_calls else "end_turn"
    usage = Usage(input_tokens=tokens[0], output_tokens=tokens[1])
    return Reply(text, model, stop, usage, tool_calls)


def item_done(text: str = "", summary: str = "", **kwargs: Any) -> Reply:
    """An implement item's last reply: ``submit_item_result`` done (``summary``: ``text``)."""
    args = {"status": "done", "summary": summary or text or "Done."}
    return reply(text, ("submit_item_result", args), **kwargs)


def item_failed(reason: str, text: str = "", **kwargs: Any) -> Reply:
    """An implement item's last reply: ``submit_item_result`` failed, with ``reason``."""
    args = {"status": "failed", "reason": reason, "summary": text or reason}
    return reply(text, ("submit_item_result", args), **kwargs)


def scripted_providers(llm: Any) -> Callable[[Any, Mapping[str, str]], Any]:
    """A ``bot.lifecycle.workspace.make_providers`` whose Anthropic provider is ``llm``
    (``claude-*`` steps route to it; the real routing decides)."""
    from bot.llm.select import Providers

    def providers(config: Any, environ: Mapping[str, str]) -> Providers:
        return Providers(config, {"ANTHROPIC_API_KEY": "test-key"}, built={"anthropic": llm})

    return providers


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

    def opening(self, index: int) -> str:
        """The user text of request ``index`` before the model's first answer in it."""
        texts: list[str] = []
        for message in self.requests[index].messages:
            if message.role == "assistant":
                break
            texts.append(message.text)
        return "\n\n".join(texts)

    @property
    def tool_names(self) -> list[list[str]]:
        """The tools offered in each request, by name."""
        return [[t.name for t in r.tools] for r in self.requests]


@dataclass
class ScriptedPrompter:
    """A person at the terminal: approvals and free-text answers, in order."""

    approvals: list[Approval | str] = field(default_factory=list)
    answers: list[str | None] = field(default_factory=list)
    shown: list[tuple[str, str]] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)

    def approve(self, tool: str, arguments: Mapping[str, Any], preview: str) -> Approval:
        self.shown.append((tool, preview))
        if not self.approvals:
            raise AssertionError(f"unexpected approval asked for {tool}")
        answer = self.approvals.pop(0)
        return Approval(Choice(answer)) if isinstance(answer, str) else answer

    def ask(self, prompt: str) -> str | None:
        self.asked.append(prompt)
        return self.answers.pop(0) if self.answers else None


def recording_bus() -> tuple[EventBus, list[Event]]:
    """A bus that records every informational event it delivers."""
    bus, seen = EventBus(), []
    bus.subscribe("*", seen.append, owner="test")
    return bus, seen


@dataclass(frozen=True)
class StubRendered:
    system: str
    task: str


class StubPrompts:
    """Prompt templates that name themselves and their variables (no Jinja, no files)."""

    def __init__(self) -> None:
        self.rendered: list[tuple[str, dict[str, Any]]] = []

    def render(self, name: str, **context: Any) -> StubRendered:
        self.rendered.append((name, context))
        shown = ", ".join(f"{k}={v}" for k, v in sorted(context.items()))
        return StubRendered(f"[{name} system] {shown}", f"[{name} task]")

    def document(self, label: str, text: str, **context: Any) -> str:
        return f'<document name="{label}">\n{text}\n</document>'
