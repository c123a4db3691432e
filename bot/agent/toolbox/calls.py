"""One tool call, in the order plugins rely on, and what the person is told about a call
they did not write.

prepare (find the tool, check the arguments; a call the model got wrong is shown to the
user too) → ``tool_call.intercept`` (may change the arguments, which is shown and
recorded as ``tool_call.modified``, abort, or answer with a result of its own, which is
shown too: then nothing runs and nobody is asked) → permission (ask mode) → execute →
``tool_call.after`` (may change the result) → ``tool_call.complete``.  Whatever goes
wrong on the way becomes a tool error the model reads; an abort is also shown to the user.

The notices (a plugin's change to a call's arguments, its answer in the tool's place, a
call the model got wrong) are pure text.  Tool names, argument names and values come from
the model or a plugin, so they are shown as JSON (control characters escaped), without
invisible characters, and cut: one line each, never markup or terminal sequences.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.agent.toolbox import rfd
from bot.agent.toolbox.base import Step, Tool, ToolContext
from bot.agent.toolbox.catalog import check_arguments
from bot.agent.toolbox.permission import Declined, Mode, Prompter, permit
from bot.core.errors import Aborted, PluginFailed, RfdError, ValidationError
from bot.core.sanitize import sanitize
from bot.events import (
    EventBus,
    Notice,
    ToolCallAfter,
    ToolCallComplete,
    ToolCallIntercept,
    ToolCallModified,
)
from bot.llm.base import ToolCall, ToolResult


@dataclass(frozen=True)
class CallRunner:
    """Runs the model's tool calls for one step."""

    tools: Sequence[Tool]
    ctx: ToolContext
    bus: EventBus
    step: Step
    mode: Mode = Mode.ASK
    prompter: Prompter | None = None
    rfd_id: str = ""
    intent_first: frozenset[str] = frozenset()
    """Tools refused in a reply whose text states no intent (draft under ``--yes``)."""
    declined: list[str] = field(default_factory=list)
    """The tools whose proposals the person declined in this conversation, in order."""
    applied: list[str] = field(default_factory=list)
    """The tools that ran without error in this conversation, in order."""

    def run(self, call: ToolCall, said: str = "") -> ToolResult:
        """Run ``call``; ``said`` is the text of the reply that asked for it."""
        started = time.monotonic()
        arguments: Mapping[str, Any] = call.arguments
        try:
            tool, arguments = self._prepared(call, said)
            event = self._intercepted(tool, arguments)
            arguments = event.arguments
            if event.result is not None:  # a plugin answered: the tool does not run
                content, is_error = event.result, False
            else:
                arguments = permit(tool, dict(arguments), self.ctx, self.mode, self.prompter)
                content, is_error = tool.handler(self.ctx, arguments), False
                self.applied.append(call.name)
        except Aborted as exc:
            if isinstance(exc, Declined):
                self.declined.append(call.name)
            self._tell_user(call.name, exc.message)
            content, is_error = f"aborted: {exc.message}", True
        except PluginFailed:
            raise  # a broken plugin stops the step: its guarantees no longer hold
        except (RfdError, OSError) as exc:
            content, is_error = f"error: {exc}", True
        content, is_error = self._after(call.name, arguments, content, is_error)
        seconds = time.monotonic() - started
        self.bus.emit(
            ToolCallComplete(
                rfd_id=self.rfd_id,
                step=self.step.value,
                tool=call.name,
                is_error=is_error,
                seconds=seconds,
            )
        )
        return ToolResult(call.id, content, is_error)

    def _tool(self, name: str) -> Tool:
        for tool in self.tools:
            if tool.name == name:
                return tool
        known = ", ".join(t.name for t in self.tools) or "none"
        raise RfdError(f"unknown tool `{name}` in this step (available: {known})")

    def _prepared(self, call: ToolCall, said: str) -> tuple[Tool, dict[str, Any]]:
        """The tool and the checked arguments; a call the model got wrong is shown too."""
        try:
            tool = self._tool(call.name)
            checked = check_arguments(tool, call.arguments)
            refused = rfd.refusal(tool.name, said, self.intent_first)
            if refused is not None:
                raise ValidationError(refused)
            return tool, checked
        except RfdError as exc:
            message = invalid(call.name, exc.message)
            self.bus.emit(Notice(rfd_id=self.rfd_id, message=message, level="warning"))
            raise

    def _intercepted(self, tool: Tool, checked: dict[str, Any]) -> ToolCallIntercept:
        """The call as the ``tool_call.intercept`` interceptors leave it (arguments checked
        again; ``result`` set when one of them answered it)."""
        paths = tool.targets(self.ctx, checked) if tool.targets else ()
        event = ToolCallIntercept(
            rfd_id=self.rfd_id,
            step=self.step.value,
            tool=tool.name,
            arguments=checked,
            paths=paths,
        )
        after = self.bus.intercept(event, self._changed)
        return replace(after, arguments=check_arguments(tool, after.arguments))

    def _changed(self, plugin: str, before: ToolCallIntercept, after: ToolCallIntercept) -> None:
        """A plugin changed the call: shown (under ``--yes`` too) and recorded as an event."""
        if after.result is not None and after.result != before.result:
            message = ANSWERED.format(plugin=plugin, tool=before.tool)
            self.bus.emit(Notice(rfd_id=self.rfd_id, message=message, level="warning"))
        changes = argument_changes(before.arguments, after.arguments)
        if not changes:
            return
        self.bus.emit(
            ToolCallModified(
                rfd_id=self.rfd_id,
                step=self.step.value,
                tool=before.tool,
                plugin=plugin,
                changes=changes,
            )
        )
        message = changed(plugin, before.tool, changes)
        self.bus.emit(Notice(rfd_id=self.rfd_id, message=message, level="warning"))

    def _after(
        self, name: str, arguments: Mapping[str, Any], content: str, is_error: bool
    ) -> tuple[str, bool]:
        event = ToolCallAfter(
            rfd_id=self.rfd_id,
            step=self.step.value,
            tool=name,
            arguments=arguments,
            result=content,
            is_error=is_error,
        )
        try:
            after = self.bus.intercept(event)
        except Aborted as exc:
            self._tell_user(name, exc.message)
            return f"aborted: {exc.message}", True
        return after.result, after.is_error

    def _tell_user(self, tool: str, reason: str) -> None:
        message = f"{tool}: {reason}"
        self.bus.emit(Notice(rfd_id=self.rfd_id, message=message, level="warning"))


MAX_SHOWN = 80
CUT = "…"
CHANGED = "{plugin} changed `{tool}`'s {changes}"
ANSWERED = "{plugin} answered `{tool}` itself: the tool did not run"
INVALID = "the model's call of {tool} was refused (it was told why): {error}"


def shown(value: Any) -> str:
    """``value`` as one short, inert line."""
    text = sanitize(json.dumps(value, ensure_ascii=False, default=str))
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + CUT


def argument_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    """``key: old → new`` for each argument the change touched (``—`` for none)."""
    keys = [*before, *(k for k in after if k not in before)]
    return tuple(
        f"{_name(k)}: {_value(before, k)} → {_value(after, k)}"
        for k in keys
        if before.get(k) != after.get(k) or (k in before) != (k in after)
    )


def changed(plugin: str, tool: str, changes: tuple[str, ...]) -> str:
    return CHANGED.format(plugin=plugin, tool=tool, changes="; ".join(changes))


def invalid(tool: str, error: str) -> str:
    return INVALID.format(tool=shown(tool), error=_inert(error))


def _name(key: str) -> str:
    return key if key.isidentifier() else shown(key)


def _value(arguments: Mapping[str, Any], key: str) -> str:
    return shown(arguments[key]) if key in arguments else "—"


def _inert(text: str) -> str:
    """An error message that may quote the model: one line, control characters escaped."""
    line = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    line = sanitize(line)
    return line if len(line) <= 4 * MAX_SHOWN else line[: 4 * MAX_SHOWN - 1] + CUT
