"""What the bus hears of a model call: ``query.before``, ``response.chunk``, ``response.complete``.

Every step sends its model calls through here (the agent loop, refine's forced answers,
review and plan extraction).  ``query.before`` runs once per query — before a
conversation's first request, or before a single call — and a plugin that changes the
prompt is named in a warning: the person always knows what the model was asked.
Chunks are copies of what streams to the terminal (the terminal does not read them from
the bus); a step that does not stream gets only ``response.complete``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from bot.events import EventBus, Notice, QueryBefore, ResponseChunk, ResponseComplete
from bot.llm.base import LLM, Message, Reply, Request

CHANGED = "plugin `{plugin}` changed the prompt of {step} before it was sent"


def before_query(
    bus: EventBus, messages: Sequence[Message], *, step: str, model: str, rfd_id: str
) -> tuple[Message, ...]:
    """``messages`` with the last one (the prompt) as the ``query.before`` interceptors
    leave it; Aborted from an interceptor stops the step before anything is sent."""
    if not messages or messages[-1].role != "user":
        return tuple(messages)
    *head, last = messages

    def changed(plugin: str, before: QueryBefore, after: QueryBefore) -> None:
        if after.prompt != before.prompt:
            message = CHANGED.format(plugin=plugin, step=step)
            bus.emit(Notice(rfd_id=rfd_id, message=message, level="warning"))

    event = QueryBefore(rfd_id=rfd_id, step=step, model=model, prompt=last.text)
    prompt = bus.intercept(event, changed).prompt
    if prompt == last.text:
        return tuple(messages)
    return (*head, dataclasses.replace(last, text=prompt))


def before_request(bus: EventBus, request: Request, *, step: str, rfd_id: str) -> Request:
    """:func:`before_query` on a single call's request."""
    messages = before_query(bus, request.messages, step=step, model=request.model, rfd_id=rfd_id)
    return (
        request if messages == request.messages else dataclasses.replace(request, messages=messages)
    )


def complete(
    bus: EventBus,
    llm: LLM,
    request: Request,
    *,
    step: str,
    rfd_id: str,
    on_text: Callable[[str], None] | None = None,
) -> Reply:
    """``llm.complete(request)``, the chunks and the whole response told to the bus."""
    if on_text is None:
        reply = llm.complete(request)
    else:
        shown = on_text

        def chunk(text: str) -> None:
            bus.emit(ResponseChunk(rfd_id=rfd_id, step=step, text=text))
            shown(text)

        reply = llm.complete(request, on_text=chunk)
    bus.emit(
        ResponseComplete(
            rfd_id=rfd_id,
            step=step,
            model=reply.model or request.model,
            text=reply.text,
            stop_reason=reply.stop_reason,
            tool_calls=tuple(c.name for c in reply.tool_calls),
        )
    )
    return reply
