"""The answer tools of the document steps: review, refine and plan extraction.

None of them writes anything: the model answers with data (a review, the sections to
replace, the plan's phases) and the step validates and applies it.  They form one
list, :data:`DOCUMENT_TOOLS`, sent in this order in every request of the three steps,
so that its bytes — the front of the cached prefix — are the same whichever step runs;
each step forces its own tool.
"""

from __future__ import annotations

from typing import Any

from bot.llm.base import ToolSpec
from bot.model.reviews import MAX_FINDINGS, MAX_SUMMARY_CHARS, REVIEW_SCHEMA

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
