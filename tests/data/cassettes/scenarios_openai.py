"""The model's side of the chat-completions cassettes of ``tests/test_agent_e2e_openai.py``.

Every step on the OpenAI-compatible provider, here Gemini's endpoint
(``https://generativelanguage.googleapis.com/v1beta/openai/``): refine and accept's
model plan answer a forced function call (``chat.completion``, not streamed), the agent
steps stream (``chat.completion.chunk`` lines, see ``tests/data/openai_sse.py``).  The
same three steps as ``scenarios_llm.py``, no key and no network::

    python tests/data/cassettes/scenarios_openai.py implement     # answers, placeholder requests
    python -m pytest tests/test_agent_e2e_openai.py -p tests.data.rerecord --record-mode=rewrite
    python tests/data/estimate_usage.py cassettes/test_agent_e2e_openai/*.yaml
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from openai_sse import SSE_TYPE, sse  # noqa: E402

ROOT = HERE.parents[2] / "cassettes" / "test_agent_e2e_openai"
URL = "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions"
PRO, FLASH = "gemini-2.5-pro", "gemini-2.5-flash"
HEADERS = {
    "alt-svc": ['h3=":443"; ma=2592000,h3-29=":443"; ma=2592000'],
    "content-type": ["application/json"],
    "date": ["Mon, 23 Nov 2026 09:31:07 GMT"],
    "server": ["scaffolding on HTTPServer2"],
    "server-timing": ["gfet4t7; dur=2817"],
    "vary": ["Origin", "X-Origin", "Referer"],
    "x-content-type-options": ["nosniff"],
    "x-frame-options": ["SAMEORIGIN"],
    "x-xss-protection": ["0"],
}
RATE_LIMITED = [
    {
        "error": {
            "code": 429,
            "message": "You exceeded your current quota, please check your plan and billing "
            "details. For more information on this error, head to: "
            "https://ai.google.dev/gemini-api/docs/rate-limits.",
            "status": "RESOURCE_EXHAUSTED",
        }
    }
]
PLACEHOLDER_USAGE = {"completion_tokens": 0, "prompt_tokens": 0, "total_tokens": 0}


def call(n: int, name: str, **arguments: Any) -> dict[str, Any]:
    """A function call as Gemini names it (``function-call-`` and a number)."""
    return {
        "function": {"arguments": json.dumps(arguments, separators=(",", ":")), "name": name},
        "id": f"function-call-{n}",
        "type": "function",
    }


def completion(rid: str, model: str, text: str | None, *calls: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"content": text, "role": "assistant"}
    if calls:
        message["tool_calls"] = list(calls)
    return {
        "choices": [
            {"finish_reason": "tool_calls" if calls else "stop", "index": 0, "message": message}
        ],
        "created": 1763890267,
        "id": rid,
        "model": model,
        "object": "chat.completion",
        "usage": dict(PLACEHOLDER_USAGE),
    }


REFINED_SUMMARY = (
    "Failed webhook deliveries are kept in a table and retried by a worker with "
    "exponential backoff, so a receiver's outage no longer loses events."
)
REFINE = [
    completion(
        "8kNjaZ2xOsu1nvgPq5SU2Aw",
        PRO,
        None,
        call(
            16281469713526119345,
            "submit_revision",
            sections=[{"section": "Summary", "content": REFINED_SUMMARY}],
            notes="- major · Summary (vague): rewrote **Summary** to say what is built.",
        ),
    ),
    completion(
        "9UNjaaHGI7W9nvgP7byhwQs",
        PRO,
        None,
        call(
            5310843112690442176,
            "submit_revision",
            sections=[],
            notes="CONVERGED\nThe Summary now says what is built; nothing else is missing.",
        ),
    ),
]
PLAN = {
    "phases": [
        {
            "label": "1",
            "title": "Delivery table and enqueue",
            "description": "Create the "
            "webhook_deliveries table and write a row wherever a webhook is sent today.",
        },
        {
            "label": "2",
            "title": "Worker with backoff",
            "description": "A worker claims due rows, "
            "sends them and retries with exponential backoff and jitter.",
        },
        {
            "label": "3",
            "title": "Dead letters and replay",
            "description": "Deliveries past the "
            "attempt limit are dead-lettered; the admin page can replay them.",
        },
    ]
}
ACCEPT = [
    completion(
        "QkRjafrnMvGonvgPvOCo6Ak", PRO, None, call(9843356171802355527, "submit_plan", **PLAN)
    )
]
SCHEMA_SQL = (
    "CREATE TABLE deliveries (\n    id BIGSERIAL PRIMARY KEY,\n    payload JSONB NOT NULL,\n"
    "    due_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
)
IMPLEMENT = [
    completion(
        "e0VjadT0BNynnvgP4Ja3-Qg",
        PRO,
        "I will read the README first.",
        call(7021551634098327519, "read_file", path="README.md"),
    ),
    completion(
        "f0VjaaPwK9S9nvgPlrnF2Ac",
        PRO,
        "Research for phase 1 (Schema):\n- README.md is the only file; there is no "
        "database code yet.\n- The table goes into a new `db/schema.sql`.",
    ),
    completion(
        "hEVjaY3gA_6HnvgP0rHO6Qw", PRO, "- [ ] 1. Create the deliveries table in db/schema.sql"
    ),
    completion(
        "iUVjacDzL4OanvgPtqW4-As",
        PRO,
        "Creating the schema file.",
        call(11853201944671580612, "write_file", path="db/schema.sql", content=SCHEMA_SQL),
    ),
    completion(
        "jkVjadqRF5S3nvgP84Gp4Qo",
        PRO,
        "Created `db/schema.sql` with the `deliveries` table (id, payload, due_at).",
        call(
            5120983746610293847,
            "submit_item_result",
            status="done",
            summary="Created db/schema.sql with the deliveries table.",
        ),
    ),
    completion(
        "k0VjaeLIOtGonvgP3sfL2AE",
        PRO,
        "Phase 1 added the `deliveries` table in `db/schema.sql`. The one item is "
        "done; nothing failed.",
    ),
]
EXPLORE_SUMMARY = (
    "# Research: Retry queue\n\n- Deliveries fail 0.7% of the time on the first attempt.\n"
    "- Options: a table polled by a worker, or a message broker.\n"
)
AUTHORING = [
    completion(
        "lUZjaa6ZG-KCnvgPiYjP6Qk",
        FLASH,
        "I will save what we know so far.",
        call(4410937566029513885, "rfd_explore_summary", content=EXPLORE_SUMMARY),
    ),
    completion("mkZjaZPqLbyOnvgP_9G32Qs", FLASH, "Saved the research summary to explore.md."),
    completion(
        "n0ZjabLwJuKYnvgPpPKn4Ac",
        PRO,
        "Two decisions follow from the research.",
        call(
            2237961188143950614,
            "rfd_decision",
            action="add",
            text="Deliveries are rows of a table polled by a worker, not broker messages.",
        ),
        call(
            13306615372640197325,
            "rfd_decision",
            action="add",
            text="Retries back off exponentially with full jitter, ten attempts at most.",
        ),
    ),
    completion("pEZjacvxDuy1nvgPh7Cs2A0", PRO, "Recorded decisions 1 and 2 in decisions.md."),
    completion(
        "qUZjaa_5MOWinvgPwfG94Qw",
        PRO,
        "Intent: the Summary states decision 1 in one paragraph.",
        call(
            9158374261053712930,
            "rfd_section",
            section="Summary",
            content="Deliveries become rows of a table that a worker polls and "
            "retries with exponential backoff, so a failed request no longer loses "
            "the event.",
        ),
    ),
    completion("rkZjaeaHNaKGnvgPi6-W6A4", PRO, "Wrote the Summary from decision 1."),
]


def exchange(answer: Any, *, streamed: bool = False, status: int = 200) -> dict[str, Any]:
    body = sse(answer) if streamed else json.dumps(answer, separators=(",", ":"))
    headers = {**HEADERS, "content-type": [SSE_TYPE if streamed else "application/json"]}
    if not streamed:
        headers["content-length"] = [str(len(body.encode()))]
    reason = {200: "OK", 429: "Too Many Requests"}[status]
    return {
        "request": {"body": "", "headers": {}, "method": "POST", "uri": URL},
        "response": {
            "body": {"string": body},
            "headers": headers,
            "status": {"code": status, "message": reason},
        },
    }


SCENARIOS = {
    "test_refine_through_chat_completions": [exchange(a) for a in REFINE],
    "test_accept_model_plan_after_a_rate_limit": [
        exchange(RATE_LIMITED, status=429),
        *(exchange(a) for a in ACCEPT),
    ],
    "test_implement_a_phase_streamed_over_chat_completions": [
        exchange(a, streamed=True) for a in IMPLEMENT
    ],
    "test_explore_converge_draft_streamed_over_chat_completions": [
        exchange(a, streamed=True) for a in AUTHORING
    ],
}


HEADER = (
    "# Model answers built by tests/data/cassettes/scenarios_openai.py (see its docstring),\n"
    "# requests recorded from the CLI with tests/data/rerecord.py; no key, no network.\n"
)


def main(names: list[str]) -> int:
    docs = {k: v for k, v in SCENARIOS.items() if not names or any(n in k for n in names)}
    ROOT.mkdir(parents=True, exist_ok=True)
    for key, interactions in docs.items():
        doc = {"interactions": interactions, "version": 1}
        text = HEADER + yaml.safe_dump(doc, sort_keys=False, width=1000, allow_unicode=True)
        (ROOT / f"{key}.yaml").write_text(text, encoding="utf-8")
    print(f"wrote {len(docs)} stub cassettes under {ROOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
