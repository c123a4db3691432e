"""Judge: a second model checks each finished piece of work and answers the first one.

It intercepts :class:`~bot.events.ResultReady` (raised by the implement step after each
item and by refine after each pass), asks its own model whether the result meets the
phase description and the RFD, shows the verdict to the user (a ``Notice``), and on
FAIL appends the reasons to the event's ``feedback`` — which the step adds to the
conversation as a user message for the model to act on.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import re
from collections.abc import Mapping
from importlib import resources
from string import Template
from typing import Any

from bot.errors import RfdError
from bot.events import Notice, ResultReady
from bot.llm.base import LLM, Message, Request
from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl

NAME = "judge"
log = logging.getLogger(__name__)

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "model": {"type": "string", "minLength": 1, "default": "sonnet"},
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
        options_schema=OPTIONS_SCHEMA,
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    llm = context.llm
    if llm is None or llm.offline:
        log.warning("judge: no model available (offline); results are not judged")
        return
    model = context.config.models.get(options["model"], options["model"])
    bus.subscribe(ResultReady, Judge(llm, model, options, bus).check)


def parse_verdict(text: str) -> Verdict:
    match = _VERDICT.match(text.strip())
    return Verdict(match.group(1).upper()) if match else Verdict.UNCLEAR


def system_prompt(criteria: tuple[str, ...]) -> str:
    template = resources.files("bot").joinpath("prompts/judge.md").read_text(encoding="utf-8")
    return Template(template).substitute(criteria="\n".join(f"- {c}" for c in criteria))


def user_message(event: ResultReady) -> str:
    parts = [f"# The RFD\n\n{event.document}" if event.document else ""]
    if event.phase:
        parts.append(f"# The phase being implemented\n\n{event.phase}")
    parts.append(f"# The work to judge ({event.step}: {event.item})\n\n{event.result}")
    return "\n\n".join(p for p in parts if p)


class Judge:
    def __init__(self, llm: LLM, model: str, options: Mapping[str, Any], bus: ScopedBus) -> None:
        self.llm = llm
        self.model = model
        self.options = options
        self.bus = bus
        self.system = system_prompt(tuple(options["criteria"]))

    def check(self, event: ResultReady) -> ResultReady | None:
        """The event with the verdict appended to ``feedback`` when the model should see it."""
        if event.step not in self.options["steps"]:
            return None
        try:
            text = self._ask(event)
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
        request = Request(
            model=self.model,
            system=self.system,
            messages=(Message(role="user", text=user_message(event)),),
            max_tokens=self.options["max_tokens"],
            metadata={"step": f"judge:{event.step}"},
        )
        return self.llm.complete(request).text

    def _tell(self, event: ResultReady, message: str, level: str) -> None:
        self.bus.emit(Notice(rfd_id=event.rfd_id, message=message, level=level))


_LEVELS = {Verdict.PASS: "success", Verdict.FAIL: "warning", Verdict.UNCLEAR: "warning"}
