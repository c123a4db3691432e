"""The prefix review, refine and plan extraction share, so each reads what the last cached,
and the answer tools of those three document steps.

The answer tools write nothing: the model answers with data (a review, the sections to
replace, the plan's phases) and the step validates and applies it.  They form one list,
:data:`DOCUMENT_TOOLS`, sent in this order in every request of the three steps; each
step forces its own tool.

The Messages API caches a prefix in the order tools → system → messages, per model.
The three document steps therefore send the same bytes up to the breakpoint:

1. tools: :data:`DOCUMENT_TOOLS`, the same list in the same order (``tool_choice`` only
   affects the cached *messages*);
2. system: the common instructions (``_document_step``: the rules of all three steps),
   the RFD, then the reviews on file as their :func:`~bot.model.reviews.digest`, one block
   each, with a breakpoint after the instructions, the RFD and the last review;
3. messages: which step, pass and focus this is (its template's ``task`` block).

With the same model, a refine or a plan extraction after a review reads tools + system
(RFD and reviews included) from the cache; a second review reads all but the review
added since.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.llm.base import Message, Request, SystemPart, ToolSpec
from bot.llm.guard import Part, fit
from bot.model.reviews import MAX_FINDINGS, MAX_SUMMARY_CHARS, REVIEW_SCHEMA, digest

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.model.document import Document


class Templates(Protocol):
    def render(self, name: str, **context: Any) -> Any: ...
    def document(self, label: str, text: str, **context: Any) -> str: ...


def review_label(path: str) -> str:
    """How a review on file is named in the prompt (the same in every step)."""
    return f"review on file ({Path(path).name})"


def prefix_request(
    templates: Templates,
    *,
    template: str,
    context: dict[str, Any],
    rfd: tuple[str, str],
    reviews: Sequence[tuple[str, str]],
    model: str,
    tool: ToolSpec,
    max_tokens: int,
    context_tokens: int,
) -> tuple[Request, tuple[str, ...]]:
    """The request of one document step, and what had to be cut to fit the context.

    ``rfd``: (label, text), cut only when it does not fit even with every review cut;
    ``reviews``: (path, text) of each review on file, oldest first, passed as their digest."""
    variables = {**context, **SHARED_VARIABLES, "tool_name": tool.name}
    rendered = templates.render(template, **variables)
    docs = [rfd, *((review_label(path), digest(text)) for path, text in reviews)]
    parts = [Part("system prompt", rendered.system, cuttable=False)]
    parts += [Part(label, text) for label, text in docs]  # the last cut first: the RFD last
    parts.append(Part("task", rendered.task, cuttable=False))
    texts, notices = fit(parts, context_tokens)
    fitted = zip((label for label, _ in docs), texts[1:-1], strict=True)
    wrapped = [templates.document(label, text) for label, text in fitted]
    system = [SystemPart(rendered.system, cache=True)]
    system += [SystemPart(w, cache=n in (0, len(wrapped) - 1)) for n, w in enumerate(wrapped)]
    request = Request(
        model=model,
        system="\n".join(p.text for p in system),
        system_parts=tuple(system),
        messages=(Message("user", rendered.task),),
        tools=DOCUMENT_TOOLS,
        tool_choice=tool.name,
        max_tokens=max_tokens,
    )
    return request, notices


def shared_request(
    ws: Workspace,
    doc: Document,
    *,
    step: str,
    template: str,
    context: dict[str, Any],
    model: str,
    tool: ToolSpec,
) -> tuple[Request, tuple[str, ...]]:
    """:func:`prefix_request` for ``doc`` and the design reviews the store holds for it."""

    return prefix_request(
        ws.prompts(),
        template=template,
        context=context,
        rfd=(f"RFD {doc.rfd_id or doc.path}", doc.text),
        reviews=reviews_on_file(ws, doc),
        model=model,
        tool=tool,
        max_tokens=getattr(ws.config.steps, step).max_tokens,
        context_tokens=ws.config.provider.context_tokens,
    )


def reviews_on_file(ws: Workspace, doc: Document) -> list[tuple[str, str]]:
    """(path, text) of the active design reviews of ``doc``, oldest first."""
    if doc.rfd_id is None:
        return []
    key = str(doc.rfd_id)
    files = ws.store.list_reviews(key, impl=False)
    base = ws.store.dir(key)
    return [
        (f.path.name, ws.store.read_text(key, f.path.relative_to(base).as_posix()) or "")
        for f in files
    ]


MAX_PASSES = 5
"""Refine's cap on passes (the rule of five)."""
SHARED_VARIABLES: dict[str, Any] = {
    "max_findings": MAX_FINDINGS,
    "summary_chars": MAX_SUMMARY_CHARS,
    "max_passes": MAX_PASSES,
}
"""What the shared system prompt (``_document_step``) says about every step: the same
values in every request, so the prompt's bytes are too."""
MAX_PHASES = 30
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["phases"],
    "properties": {
        "phases": {
            "type": "array",
            "maxItems": MAX_PHASES,
            "description": "The phases of the Implementation Plan, in the document's order.",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["title", "description"],
                "properties": {
                    "title": {"type": "string", "description": "The phase's name, no number."},
                    "description": {"type": "string", "description": "What the phase delivers."},
                    "label": {"type": "string", "description": "Its number: 1, 2a, B; or ''."},
                },
            },
        }
    },
}
REVISION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["sections", "notes"],
    "properties": {
        "sections": {
            "type": "array",
            "description": "The sections to change, each whole; empty when nothing changes.",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["section", "content"],
                "properties": {
                    "section": {"type": "string", "description": "The section's title."},
                    "content": {"type": "string", "description": "Its new body, no heading."},
                },
            },
        },
        "notes": {
            "type": "string",
            "description": "What changed and why, one line per section; or CONVERGED first.",
        },
    },
}
REVIEW_TOOL = ToolSpec(
    name="submit_review",
    description="Submit the review: a summary, findings with severity and section, questions.",
    input_schema=REVIEW_SCHEMA,
)
REVISION_TOOL = ToolSpec(
    name="submit_revision",
    description="Submit the sections of the RFD to replace (or append), and notes on them.",
    input_schema=REVISION_SCHEMA,
)
PLAN_TOOL = ToolSpec(
    name="submit_plan",
    description="Submit the implementation plan's phases, in order.",
    input_schema=PLAN_SCHEMA,
)
DOCUMENT_TOOLS = (REVIEW_TOOL, REVISION_TOOL, PLAN_TOOL)
