"""Plan extraction by a model, for RFDs whose plan the headings do not give.

``accept`` tries :func:`bot.model.plan.extract` first (no tokens).  Only when that finds
nothing usable does it call :func:`extract_plan`: one forced tool call with
:data:`~bot.ai.shared.PLAN_SCHEMA`, whose answer is validated exactly like a hand-written
``plan.json``.  Any failure raises ProviderError, and the caller promotes nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from bot.ai.call import Called, call, tool_input
from bot.ai.shared import PLAN_TOOL, shared_request
from bot.core.errors import InvalidStructure, ParseError, ProviderError
from bot.llm.guard import require_input

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document
    from bot.model.plan import PlanPhase

STEP = "accept"
TOOL = PLAN_TOOL
NOTHING_PROMOTED = "nothing was promoted: fix the Implementation Plan section and accept again"


def extract_plan(
    ws: Workspace, doc: Document, *, model: str | None = None
) -> tuple[PlanPhase, ...]:
    """The phases of ``doc`` as the model reads them (``model`` overrides the accept step's
    model), validated; ProviderError otherwise."""
    return extract_plan_called(ws, doc, model=model)[0]


def extract_plan_called(
    ws: Workspace, doc: Document, *, model: str | None = None
) -> tuple[tuple[PlanPhase, ...], Called, tuple[str, ...]]:
    """:func:`extract_plan`, with the model call (its model, usage and cost) to show, and
    what had to be cut from the prompt to fit the context (one notice per cut)."""
    require_input(doc.text, f"RFD {doc.rfd_id or doc.path}")
    context = {"rfd_id": str(doc.rfd_id or ""), "title": doc.title, "tool_name": TOOL.name}
    request, notices = shared_request(
        ws,
        doc,
        step=STEP,
        template="accept_plan",
        context=context,
        model=ws.config.model_for(STEP, model),
        tool=TOOL,
    )
    done = call(ws, request, step=STEP, rfd_id=doc.rfd_id)
    return validate(tool_input(done.reply, TOOL.name), doc.path), done, notices


def validate(data: dict[str, Any], path: str) -> tuple[PlanPhase, ...]:
    """The phases in ``data`` checked by :func:`bot.model.plan.loads`; ProviderError when
    unusable."""
    from bot.model.plan import loads

    raw = data.get("phases")
    try:
        phases = loads(json.dumps(raw), path=f"{path} (model output)")
    except (InvalidStructure, ParseError) as exc:
        raise ProviderError(
            f"the model's plan is invalid: {exc.message}", path=path, hint=NOTHING_PROMOTED
        ) from None
    if not phases:
        raise ProviderError(
            "the model found no implementation plan to extract", path=path, hint=NOTHING_PROMOTED
        )
    return phases
