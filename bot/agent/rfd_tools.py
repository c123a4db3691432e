"""Dedicated RFD tools: the model works with decisions and sections, not files and diffs.

They write only through the state module (explore summary, decisions) or through the
pure edits of ``bot.model.document`` (one section at a time, the rest byte for byte).  Their
targets are fixed by the workflow (this RFD's file, checked against the configured
paths, and its state directory), so they may run where nobody can be asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.agent import skeleton
from bot.agent.context import Store, Tool, ToolContext, schema
from bot.agent.files import current_text, unified_diff
from bot.agent.sandbox import write_text
from bot.agent.section_body import section_edit
from bot.core.errors import FileNotFound, ValidationError
from bot.model import decisions, document
from bot.model.decisions import Decisions

DECISION_ACTIONS = ("add", "update", "reject")
DRAFT_NEXT = "; now write its sections one by one with rfd_section"
DECISION_STATUSES = ("locked", "discussing")


def _store(ctx: ToolContext) -> Store:
    if ctx.store is None or ctx.rfd_id is None:
        raise ValidationError("this tool needs an RFD: run it through an rfd step")
    return ctx.store


def _rfd_file(ctx: ToolContext) -> Path:
    if not ctx.rfd_path:
        raise ValidationError("no RFD file in this step")
    return ctx.sandbox.writable(ctx.rfd_path)


def _rfd_target(ctx: ToolContext, _args: Mapping[str, Any]) -> tuple[str, ...]:
    return (ctx.rfd_path,) if ctx.rfd_path else ()


def _state_target(name: str) -> Callable[[ToolContext, Mapping[str, Any]], tuple[str, ...]]:
    def target(ctx: ToolContext, _args: Mapping[str, Any]) -> tuple[str, ...]:
        if ctx.store is None or ctx.rfd_id is None:
            return ()
        path = Path(ctx.store.path(ctx.rfd_id, name)).resolve()
        return (ctx.sandbox.relative(path),)

    return target


# ------------------------------------------------------------------ rfd_explore_summary


def _explore_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before = _store(ctx).read_text(ctx.rfd_id, "explore.md") or ""
    return unified_diff(before, args["content"], "explore.md") or "(no change)"


def _explore_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    _store(ctx).write_explore(ctx.rfd_id, args["content"])
    return "saved the research summary to explore.md"


# ------------------------------------------------------------------------- rfd_decision


def _decision_args(args: Mapping[str, Any]) -> dict[str, Any]:
    action = args["action"]
    if action not in DECISION_ACTIONS:
        raise ValidationError(f"action must be one of {', '.join(DECISION_ACTIONS)}")
    keys = ("number", "text", "status", "reason")
    return {k: args[k] for k in keys if args.get(k) is not None}


def _decisions_after(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[str, str]:
    before = _store(ctx).read_text(ctx.rfd_id, "decisions.md") or ""
    if before:
        current = decisions.parse(before, "decisions.md")
    else:
        current = Decisions(title=ctx.rfd_title, rfd=str(ctx.rfd_id))
    changed = decisions.apply(current, args["action"], **_decision_args(args))
    return before, decisions.render(changed)


def _decision_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _decisions_after(ctx, args)
    return unified_diff(before, after, "decisions.md") or "(no change)"


def _decision_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    _decisions_after(ctx, args)  # validate before writing anything
    _store(ctx).decide(ctx.rfd_id, args["action"], title=ctx.rfd_title, **_decision_args(args))
    return "decisions.md is now:\n" + (_store(ctx).read_text(ctx.rfd_id, "decisions.md") or "")


# ---------------------------------------------------------------------------- rfd_draft


def _draft_after(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[str, str]:
    """The file before (empty when it does not exist) and after the call."""
    target = _rfd_file(ctx)
    if target.exists():
        before = current_text(target)
        return before, skeleton.lay_out(before, ctx.rfd_path or "", args["content"])
    document.parse(args["content"], ctx.rfd_path or "")  # refuse what would not parse
    return "", args["content"]


def _draft_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _draft_after(ctx, args)
    return unified_diff(before, after, ctx.rfd_path or "") or "(no change)"


def _draft_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _draft_after(ctx, args)
    write_text(_rfd_file(ctx), after)
    if before:
        return skeleton.summary(after, ctx.rfd_path or "") + DRAFT_NEXT
    return f"created {ctx.rfd_path}" + DRAFT_NEXT


# -------------------------------------------------------------------------- rfd_section


def _section_after(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[str, str]:
    target = _rfd_file(ctx)
    if not target.is_file():
        raise FileNotFound(f"`{ctx.rfd_path}` does not exist", hint="create it with rfd_draft")
    before = current_text(target)
    path, new = ctx.rfd_path or "", bool(args.get("new"))
    return before, section_edit(before, path, args["section"], args["content"], new=new)


def _section_change(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _section_after(ctx, args)
    return unified_diff(before, after, ctx.rfd_path or "") or "(no change)"


def _section_write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    before, after = _section_after(ctx, args)
    if after == before:
        return f"section `{args['section']}` unchanged"
    write_text(_rfd_file(ctx), after)
    return f"replaced section `{args['section']}` of {ctx.rfd_path}"


RFD_EXPLORE_SUMMARY = Tool(
    "rfd_explore_summary",
    "Save the research summary of this RFD (replaces explore.md).",
    schema({"content": "string"}),
    _explore_write,
    writes=True,
    confined=True,
    preview=_explore_change,
    targets=_state_target("explore.md"),
)
RFD_DECISION = Tool(
    "rfd_decision",
    "Record a design decision: add one, update one (by number) or reject one (with a reason).",
    schema(
        {"action": {"type": "string", "enum": list(DECISION_ACTIONS)}},
        {
            "number": "integer",
            "text": "string",
            "status": {"type": "string", "enum": list(DECISION_STATUSES)},
            "reason": "string",
        },
    ),
    _decision_write,
    writes=True,
    confined=True,
    preview=_decision_change,
    targets=_state_target("decisions.md"),
)
RFD_DRAFT = Tool(
    "rfd_draft",
    "Lay out the RFD's sections: create the file (heading, metadata fields, section "
    "headings), or give a file that is still the bare template its section headings "
    "(its heading and metadata fields are kept); refused once a section is written.",
    schema({"content": "string"}),
    _draft_write,
    writes=True,
    confined=True,
    preview=_draft_change,
    targets=_rfd_target,
)
RFD_SECTION = Tool(
    "rfd_section",
    "Replace the body of one section of the RFD (e.g. 'Summary'): the body only, no heading "
    "at the section's level or above; new: true appends a section the RFD does not have.",
    schema({"section": "string", "content": "string"}, {"new": "boolean"}),
    _section_write,
    writes=True,
    confined=True,
    preview=_section_change,
    targets=_rfd_target,
)
