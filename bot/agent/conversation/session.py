"""What every agent step needs from the workspace, and how it builds a conversation."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from bot.agent.conversation.loop import Conversation, material
from bot.agent.implementation.item_result import NAME as ITEM_RESULT
from bot.agent.toolbox import rfd
from bot.agent.toolbox.base import Step, Store, ToolContext
from bot.agent.toolbox.calls import CallRunner
from bot.agent.toolbox.catalog import toolset
from bot.agent.toolbox.permission import Mode, Prompter
from bot.config.load import Config
from bot.core.redact import SecretValues
from bot.events import EventBus, Notice
from bot.llm.base import LLM, Message, Usage
from bot.llm.guard import Budget, Meter, Part, fit


class Rendered(Protocol):
    @property
    def system(self) -> str: ...
    @property
    def task(self) -> str: ...


class PromptSource(Protocol):
    """``bot.llm.prompts.Prompts``: step templates and the data wrapper."""

    def render(self, name: str, **context: Any) -> Rendered: ...
    def document(self, label: str, text: str, **context: Any) -> str: ...


@dataclass(frozen=True)
class Staged:
    """A step prompt whose instructions follow the documents (see :meth:`Session.staged`)."""

    system: str
    task: str


MAX_TURNS = {Step.PLAN: 10, Step.SUMMARY: 2}
FINAL_TOOLS = {Step.IMPLEMENT: ITEM_RESULT}
"""The tool that ends a step's conversation (an implement item ends with its verdict)."""
DEFAULT_MAX_TURNS = 30


@dataclass(frozen=True)
class Session:
    """The repository, the model and the person (if any) behind one agent step."""

    root: Path
    config: Config
    llm: LLM
    bus: EventBus
    store: Store | None = None
    rfd_id: Any = None
    rfd_path: str | None = None
    rfd_title: str = ""
    mode: Mode = Mode.ASK
    prompter: Prompter | None = None
    model: str | None = None
    """``--model``: overrides the configured model of every step."""
    on_text: Callable[[str], None] | None = None
    clock: Callable[[], float] = time.time
    """Stamps the usage ledger's lines."""
    prompts: PromptSource | None = None
    """Prompt templates; ``None`` means ``bot.llm.prompts.Prompts`` with the repository's
    overrides."""
    steer: Callable[[str], str | None] | None = None
    """``--edit``: the person edits the step's first prompt before it is sent."""
    llm_for: Callable[[str, str | None], LLM] | None = None
    """The provider of a step and model (the workspace's routing); ``None``: ``llm`` for all."""
    work_root: Path | None = None
    """Where the model's tools and commands act (implement: its copy,
    :mod:`bot.agent.implementation.work_copy`); ``None``: ``root``."""
    secrets: SecretValues | None = None
    """The secret values no model request may hold (:mod:`bot.llm.outgoing`); ``None``: the
    process environment's."""

    @classmethod
    def from_workspace(cls, ws: Any, **kwargs: Any) -> Session:
        """A session on a ``bot.lifecycle.workspace.Workspace`` (``--yes`` / no terminal → mode)."""
        mode = Mode.YES if ws.assume_yes else Mode.ASK if ws.interactive else Mode.CONFINED
        base = dict(
            root=ws.root,
            config=ws.config,
            llm=ws.llm,
            llm_for=ws.llm_for,
            bus=ws.bus,
            store=ws.store,
            clock=ws.clock,
            prompts=ws.prompts(),
        )
        return cls(**{"mode": mode, **base, **kwargs})

    def for_rfd(self, rfd_id: Any, rfd_path: str | None, title: str = "") -> Session:
        return replace(self, rfd_id=rfd_id, rfd_path=rfd_path, rfd_title=title)

    @property
    def event_id(self) -> str:
        return "" if self.rfd_id is None else str(self.rfd_id)

    @cached_property
    def templates(self) -> PromptSource:
        if self.prompts is not None:
            return self.prompts
        from bot.llm.prompts import Prompts

        return Prompts(self.root)

    def prompt(self, name: str, **variables: Any) -> Rendered:
        """The step template ``name`` (``rfd_id`` and ``title`` are always given)."""
        return self.templates.render(name, rfd_id=self.event_id, title=self.rfd_title, **variables)

    def staged(self, shared: str, name: str, **variables: Any) -> Staged:
        """The step template ``name`` with the system prompt of template ``shared``.

        Stages that send the same tools to the same model (implement's research and plan;
        review, refine and accept share theirs through :mod:`bot.ai.shared`) share one
        system prompt; each stage's own instructions move
        after the documents, into the task message, without the closing paragraph they
        have in common with the shared prompt (the data rule).  The next stage then reads
        tools + system prompt + the documents they have in common from the prompt cache.
        """
        system, own = self.prompt(shared).system, self.prompt(name, **variables)
        common = system.strip().rsplit("\n\n", 1)[-1]
        instructions = own.system.strip().removesuffix(common).strip()
        return Staged(system, f"{instructions}\n\n{own.task}")

    def opening(
        self,
        prompt: Rendered,
        docs: Sequence[tuple[str, str]],
        notes: str = "",
        *,
        shared: int = 0,
        task_cached: bool = False,
    ) -> tuple[Message, ...]:
        """The first messages of a conversation: ``(label, text)`` documents as data, fitted
        into ``provider.context_tokens`` (the last ones are cut first, so the first one, the
        RFD, only when nothing else is left to cut; every cut is said), then the task and
        the person's notes."""
        parts = [Part("system prompt", prompt.system, cuttable=False)]
        parts += [Part(label, text) for label, text in docs]
        parts.append(Part("task", f"{prompt.task}\n{notes}", cuttable=False))
        texts, cuts = fit(parts, self.config.provider.context_tokens)
        for cut in cuts:
            self.bus.emit(Notice(rfd_id=self.event_id, message=cut, level="warning"))
        fitted = zip((label for label, _ in docs), texts[1:-1], strict=True)
        wrapped = [self.templates.document(label, text) for label, text in fitted]
        return material(wrapped, prompt.task, notes, shared=shared, task_cached=task_cached)

    def meter(self, step: Step) -> Meter:
        """What the step may spend (``steps.<step>.budget_*``), shared by its conversations.

        ConfigError before anything starts when a dollar budget is set on a model without a
        price (the budget could not be enforced)."""
        budget = Budget.from_config(self.config, step.config_key)
        budget.require_price(self.config.model_for(step.config_key, self.model))
        return Meter(budget)

    def record_usage(self, step: Step) -> Callable[[str, Usage], None] | None:
        """Appends each call to the RFD's usage ledger (``usage.jsonl``)."""
        store, rfd_id = self.store, self.rfd_id
        if store is None or rfd_id is None:
            return None
        from bot.llm.usage import LEDGER, entry

        def append(model: str, usage: Usage) -> None:
            line = entry(step.value, model, usage, at=self.clock()).to_line()
            store.append_line(rfd_id, LEDGER, line)

        return append

    def tool_context(self) -> ToolContext:
        return ToolContext.for_repo(
            self.work_root or self.root,
            self.config,
            store=self.store,
            rfd_id=self.rfd_id,
            rfd_path=self.rfd_path,
            rfd_title=self.rfd_title,
        )

    def conversation(self, step: Step, system: str, meter: Meter) -> Conversation:
        """A conversation of ``step``: its tools, model, limits, and this session's person."""
        unconfirmed = step is Step.DRAFT and self.mode is not Mode.ASK
        calls = CallRunner(
            toolset(step, web=self.config.research.web),
            self.tool_context(),
            self.bus,
            step,
            mode=self.mode,
            prompter=self.prompter,
            rfd_id=self.event_id,
            intent_first=rfd.WRITES if unconfirmed else frozenset(),
        )
        section = getattr(self.config.steps, step.config_key)
        llm = self.llm if self.llm_for is None else self.llm_for(step.config_key, self.model)
        return Conversation(
            llm,
            self.bus,
            calls,
            self.config.model_for(step.config_key, self.model),
            system,
            max_turns=MAX_TURNS.get(step, DEFAULT_MAX_TURNS),
            max_tokens=section.max_tokens,
            meter=meter,
            on_text=self.on_text,
            on_usage=self.record_usage(step),
            final_tool=FINAL_TOOLS.get(step, ""),
            secrets=self.secrets,
        )
