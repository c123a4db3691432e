"""The LLM interface every provider implements, the records it exchanges, and the offline
provider.

Providers are edges: the steps (review, refine, accept, implement...) build a
:class:`Request` from templates and state, call :meth:`LLM.complete`, and save the
reply through the state module.

The offline provider (:class:`OfflineLLM`) has no model at all: it sets
``offline = True`` and the steps take their deterministic path instead (structural
review, plan extraction from headings).  Calling :meth:`OfflineLLM.complete` is a bug in
the caller or a step that has no offline path, and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.core.errors import ProviderError


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: Mapping[str, Any]
    writes: bool = False
    """Does the tool change files or state?  Read-only steps may not carry such tools."""


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class ToolResult:
    call_id: str
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class Message:
    role: Literal["user", "assistant"]
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    cache: bool = False
    """Mark the end of this message as a prompt-cache breakpoint (stable prefix)."""
    blocks: tuple[Mapping[str, Any], ...] = ()
    """Provider-native content of an assistant turn, sent back verbatim when set (Anthropic
    thinking models require their signed ``thinking`` blocks back in tool loops); use
    :func:`assistant_message` to build the assistant turn from a reply."""


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
        )

    @property
    def total(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_write_tokens
            + self.cache_read_tokens
        )


@dataclass(frozen=True)
class SystemPart:
    """One block of a system prompt given in parts; ``cache``: a breakpoint follows it."""

    text: str
    cache: bool = False


@dataclass(frozen=True)
class Request:
    model: str
    system: str
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    tool_choice: str | None = None
    """Force this tool (structured output).  With several tools, all of them are answer
    tools (none writes): one list, identical in every request, so that requests forcing
    different tools share the cached prefix (see :mod:`bot.ai.shared`)."""
    max_tokens: int = 4096
    temperature: float | None = None
    cache_system: bool = True
    system_parts: tuple[SystemPart, ...] = ()
    """The system prompt in blocks with their own breakpoints (``system`` is their text
    joined, for providers without blocks); empty: ``system`` is one block."""
    metadata: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    text: str
    model: str
    stop_reason: str
    usage: Usage = Usage()
    tool_calls: tuple[ToolCall, ...] = ()
    blocks: tuple[Mapping[str, Any], ...] = ()
    """The provider-native content (see :attr:`Message.blocks`); empty when not needed."""


class PaidError(ProviderError):
    """A reply the API billed but that cannot be used (a structured answer cut off at
    ``max_tokens`` is no JSON): the caller still records ``usage`` in the ledger and the
    budget, then the error goes on."""

    def __init__(self, message: str, *, usage: Usage, model: str, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.usage = usage
        self.model = model


def assistant_message(reply: Reply, *, cache: bool = False) -> Message:
    """The assistant turn to append to the history after ``reply`` (tool loops)."""
    return Message(
        "assistant", reply.text, tool_calls=reply.tool_calls, cache=cache, blocks=reply.blocks
    )


class LLM(Protocol):
    name: str
    offline: bool

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        """One model call; ``on_text`` receives streamed text as it arrives."""


NO_MODEL = "the offline provider has no free-form model: this step needs an AI provider"
NO_MODEL_HINT = "set ANTHROPIC_API_KEY (or the key named by provider.api_key_env) and retry"


class OfflineLLM:
    """:class:`LLM` that never answers."""

    name = "offline"
    offline = True

    def __repr__(self) -> str:
        return "OfflineLLM()"

    def complete(self, request: Request, *, on_text: Callable[[str], None] | None = None) -> Reply:
        raise ProviderError(NO_MODEL, hint=NO_MODEL_HINT)
