"""Which tools each step gets, and how a tool call's arguments are checked.

Read-only steps (review, research, plan, summary) carry no write tool at all; the
authoring steps carry only their dedicated RFD tool (seed 000's table); implement
gets the full set, and ends each item with ``submit_item_result``.  Explore may also
read the web and search package registries when ``research.web`` is on.  Review, refine and
plan extraction answer with the answer tools of :mod:`bot.ai.shared` instead, none of
which writes (refine applies its answer itself).
``toolset`` is the single place that decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.agent.implementation.item_result import SUBMIT_ITEM_RESULT
from bot.agent.toolbox.base import Step, Tool
from bot.agent.toolbox.commands import RUN_COMMAND
from bot.agent.toolbox.files import EDIT_FILE, GREP_FILES, LIST_FILES, READ_FILE, WRITE_FILE
from bot.agent.toolbox.rfd import RFD_DECISION, RFD_DRAFT, RFD_EXPLORE_SUMMARY, RFD_SECTION
from bot.core.errors import ValidationError
from bot.core.text import noun
from bot.llm.base import ToolSpec

READ_ONLY: tuple[Tool, ...] = (READ_FILE, LIST_FILES, GREP_FILES)

_TOOLSETS: Mapping[Step, tuple[Tool, ...]] = {
    Step.EXPLORE: (*READ_ONLY, RFD_EXPLORE_SUMMARY),
    Step.CONVERGE: (*READ_ONLY, RFD_DECISION),
    Step.DRAFT: (*READ_ONLY, RFD_DRAFT, RFD_SECTION),
    Step.REVIEW: READ_ONLY,
    Step.REFINE: (),  # answers `submit_revision` (bot.ai.shared); the pass applies it
    Step.RESEARCH: READ_ONLY,
    Step.PLAN: READ_ONLY,
    Step.IMPLEMENT: (*READ_ONLY, WRITE_FILE, EDIT_FILE, RUN_COMMAND, SUBMIT_ITEM_RESULT),
    Step.SUMMARY: (),
}

ALL_TOOLS: Mapping[str, Tool] = {t.name: t for ts in _TOOLSETS.values() for t in ts}

_JSON_TYPES: Mapping[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def toolset(step: Step, *, web: bool = False) -> tuple[Tool, ...]:
    """The tools the model may call during ``step``; ``web`` (``research.web``) adds the
    research tools to explore (:mod:`bot.agent.toolbox.research`)."""
    if web and step is Step.EXPLORE:
        from bot.agent.toolbox.research import RESEARCH_TOOLS

        return (*_TOOLSETS[step], *RESEARCH_TOOLS)
    return _TOOLSETS[step]


def spec(tool: Tool) -> ToolSpec:
    """The provider-facing description of a tool."""
    return ToolSpec(tool.name, tool.description, tool.input_schema, writes=tool.writes)


def check_arguments(tool: Tool, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments, checked against the tool's schema (required keys, types, enums)."""
    props: Mapping[str, Any] = tool.input_schema.get("properties", {})
    missing = [k for k in tool.input_schema.get("required", ()) if arguments.get(k) is None]
    if missing:
        raise ValidationError(
            f"{tool.name}: missing {noun(len(missing), 'argument')} {', '.join(missing)}"
        )
    unknown = sorted(set(arguments) - set(props))
    if unknown:
        raise ValidationError(
            f"{tool.name}: unknown {noun(len(unknown), 'argument')} {', '.join(unknown)}"
        )
    for key, value in arguments.items():
        _check_value(tool.name, key, value, props[key])
    return dict(arguments)


def _check_value(tool: str, key: str, value: Any, prop: Mapping[str, Any]) -> None:
    if value is None:
        return
    types = _JSON_TYPES.get(prop.get("type", ""), (object,))
    wrong_bool = isinstance(value, bool) and bool not in types
    if not isinstance(value, types) or wrong_bool:
        raise ValidationError(f"{tool}: `{key}` must be of type {prop.get('type')}")
    if "enum" in prop and value not in prop["enum"]:
        choices = ", ".join(map(str, prop["enum"]))
        raise ValidationError(f"{tool}: `{key}` must be one of {choices}")
