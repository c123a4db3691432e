"""Judge: a second model checks each finished piece of work and answers the first one.

It intercepts :class:`~bot.events.ResultReady` (raised by the implement step after each
item and by refine after each pass), asks its own model whether the result meets the
phase description and the RFD, shows the verdict to the user (a ``Notice``), and on
FAIL appends the reasons to the event's ``feedback`` — which the step adds to the
conversation as a user message for the model to act on.

Its prompt is the template ``judge.md.j2``, found through the prompt override chain
like every step's.  Each of its calls is charged to the step it judges (the event's
``charge``): a line in that RFD's ``usage.jsonl``, counted against the step's budget —
going over it stops the step like any other call would.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import re
from collections.abc import Mapping
from typing import Any

from bot.core.errors import BudgetExceeded, RfdError
from bot.events import Notice, ResultReady
from bot.llm import outgoing
from bot.llm.base import LLM, Message, Request
from bot.llm.prompts import Prompts
from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl

TEMPLATE = "judge"

NAME = "judge"
log = logging.getLogger(__name__)

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "model": {"type": "string", "minLength": 1, "default": "sonnet"},
        "provider": {
            "type": "string",
            "enum": ["auto", "anthropic", "openai", "offline"],
            "description": "Who serves `model` (default: `provider.name`, routed by model id).",
        },
        "criteria": {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "default": [
                "The work does what the phase description asks, all of it and nothing else.",
                "It agrees with the RFD's decisions (names, interfaces, behaviour).",
                "Nothing claimed as done is missing from the result.",
            ],
        },
        "steps": {
            "type": "array",
            "items": {"type": "string", "enum": ["implement", "refine"]},
            "default": ["implement", "refine"],
        },
        "max_tokens": {"type": "integer", "minimum": 64, "default": 1024},
        "report_pass": {
            "type": "boolean",
            "default": False,
            "description": "Also send PASS verdicts back to the model (as a confirmation).",
        },
    },
}

FEEDBACK = "The judge ({model}) checked “{item}” against the phase and the RFD:\n\n{verdict}"


class Verdict(enum.Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    UNCLEAR = "UNCLEAR"


_VERDICT = re.compile(r"^\W*(PASS|FAIL)\b", re.IGNORECASE)  # "PASS", "**FAIL**", "fail:"


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name=NAME,
        description="A second model checks each implement item / refine pass and answers",
        events=(ResultReady.name,),
        intercepts=(ResultReady.name,),
        options_schema=OPTIONS_SCHEMA,
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    model = context.config.models.get(options["model"], options["model"])
    llm = context.llm_for(model, options.get("provider"), NAME)
    if llm is None or llm.offline:
        log.warning("judge: no model available (offline); results are not judged")
        return
    prompts = Prompts(context.prompt_root or context.root, context.environ)
    bus.subscribe(ResultReady, Judge(llm, model, options, bus, prompts).check)


def parse_verdict(text: str) -> Verdict:
    match = _VERDICT.match(text.strip())
    return Verdict(match.group(1).upper()) if match else Verdict.UNCLEAR


def request_for(
    prompts: Prompts, event: ResultReady, model: str, options: Mapping[str, Any]
) -> Request:
    """The judge's request: its template, then the RFD, what was asked (the phase or the
    pass's focus, the reviews), what the model claims and the diff, as data."""
    rendered = prompts.render(
        TEMPLATE,
        rfd_id=event.rfd_id,
        step=event.step,
        item=event.item,
        criteria=list(options["criteria"]),
    )
    asked = "the phase being implemented" if event.step == "implement" else "what the pass does"
    docs = [
        ("the RFD", event.document),
        (asked, event.phase),
        ("the reviews the pass addresses", event.reviews),
        (f"what the model says it did ({event.step}: {event.item})", event.result),
        ("the diff of the work (what it changed)", event.diff),
    ]
    parts = [prompts.document(label, text) for label, text in docs if text]
    return Request(
        model=model,
        system=rendered.system,
        messages=(Message(role="user", text="\n\n".join([*parts, rendered.task])),),
        max_tokens=options["max_tokens"],
        metadata={"step": f"judge:{event.step}"},
    )


class Judge:
    def __init__(
        self, llm: LLM, model: str, options: Mapping[str, Any], bus: ScopedBus, prompts: Prompts
    ) -> None:
        self.llm = llm
        self.model = model
        self.options = options
        self.bus = bus
        self.prompts = prompts

    def check(self, event: ResultReady) -> ResultReady | None:
        """The event with the verdict appended to ``feedback`` when the model should see it."""
        if event.step not in self.options["steps"]:
            return None
        try:
            text = self._ask(event)
        except BudgetExceeded:  # the step's budget: it stops the step, as any call past it
            raise
        except RfdError as exc:  # the judge advises; its failure must not stop the work
            self._tell(event, f"judge: could not check “{event.item}”: {exc.message}", "warning")
            return None
        verdict = parse_verdict(text)
        self._tell(event, f"judge: {verdict.value} — {event.item}", _LEVELS[verdict])
        if verdict is Verdict.FAIL or (verdict is Verdict.PASS and self.options["report_pass"]):
            message = FEEDBACK.format(model=self.model, item=event.item, verdict=text.strip())
            return dataclasses.replace(event, feedback=(*event.feedback, message))
        return None

    def _ask(self, event: ResultReady) -> str:
        request = request_for(self.prompts, event, self.model, self.options)
        outgoing.check(request)
        reply = self.llm.complete(request)
        if event.charge is not None:
            event.charge(reply.model or self.model, reply.usage)
        return reply.text

    def _tell(self, event: ResultReady, message: str, level: str) -> None:
        self.bus.emit(Notice(rfd_id=event.rfd_id, message=message, level=level))


_LEVELS = {Verdict.PASS: "success", Verdict.FAIL: "warning", Verdict.UNCLEAR: "warning"}
