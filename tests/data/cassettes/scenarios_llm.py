"""The model's side of the hand-built LLM cassettes: the streamed agent ones
(``cassettes/test_agent_e2e/``), the chat-completions review (``cassettes/test_ai_review/``)
and review → refine → accept on one model (``cassettes/test_shared_prefix/``).

Each scenario lists the Messages API answers of one test, in call order, as the API
sends them to ``messages.stream()`` (the CLI streams): SSE streams rendered by
``tests/data/anthropic_sse.py``.  Making a cassette takes three steps, no key and no
network::

    python tests/data/cassettes/scenarios_llm.py implement        # answers, placeholder requests
    python -m pytest tests/test_agent_e2e.py -p tests.data.rerecord --record-mode=rewrite
    python tests/data/estimate_usage.py cassettes/test_agent_e2e/test_*_streamed.yaml

The first writes the stubs whose name contains one of its arguments (all without one:
it overwrites finished cassettes, so name the ones you rebuild).  The second records
the requests the CLI really sends (keys filtered); the third fills
every answer's ``usage`` from the recorded request (see ``estimate_usage.py``: four
characters a token, cache reads and writes simulated from the ``cache_control``
breakpoints).  Usage here is a placeholder until then.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from anthropic_sse import SSE_TYPE, sse  # noqa: E402

ROOT = HERE.parents[2] / "cassettes"
OPUS, SONNET = "claude-opus-5-5", "claude-sonnet-5-5"
HEADERS = {
    "anthropic-organization-id": ["3f1c2a9e-7b4d-4c1e-9a2f-0d5e8b6c7a11"],
    "anthropic-ratelimit-input-tokens-limit": ["2000000"],
    "anthropic-ratelimit-input-tokens-remaining": ["2000000"],
    "anthropic-ratelimit-input-tokens-reset": ["2026-11-23T09:14:02Z"],
    "anthropic-ratelimit-output-tokens-limit": ["400000"],
    "anthropic-ratelimit-output-tokens-remaining": ["400000"],
    "anthropic-ratelimit-output-tokens-reset": ["2026-11-23T09:14:02Z"],
    "anthropic-ratelimit-requests-limit": ["4000"],
    "anthropic-ratelimit-requests-remaining": ["3999"],
    "anthropic-ratelimit-requests-reset": ["2026-11-23T09:14:01Z"],
    "cache-control": ["no-cache"],
    "cf-cache-status": ["DYNAMIC"],
    "cf-ray": ["9a4e1c7b2d3f5061-FRA"],
    "connection": ["keep-alive"],
    "content-type": [SSE_TYPE],
    "date": ["Mon, 23 Nov 2026 09:14:02 GMT"],
    "server": ["cloudflare"],
    "strict-transport-security": ["max-age=31536000; includeSubDomains; preload"],
    "via": ["1.1 google"],
    "x-envoy-upstream-service-time": ["1412"],
    "x-robots-tag": ["none"],
}
PLACEHOLDER_USAGE = {
    "input_tokens": 0,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
    "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
    "output_tokens": 0,
    "service_tier": "standard",
}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def tool(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def answer(tag: str, model: str, *blocks: dict[str, Any]) -> dict[str, Any]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "model": model,
        "id": f"msg_01{tag}",
        "type": "message",
        "role": "assistant",
        "content": list(blocks),
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": dict(PLACEHOLDER_USAGE),
    }


SCHEMA_SQL = (
    "CREATE TABLE deliveries (\n    id BIGSERIAL PRIMARY KEY,\n    payload JSONB NOT NULL,\n"
    "    due_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
)
IMPLEMENT = [
    answer(
        "Impl1Research1LsT9kQ",
        OPUS,
        text("I will look at what the repository holds."),
        tool("toolu_01ImplListRoot4Hq8Zx", "list_files"),
    ),
    answer(
        "Impl1Research2DoneW3",
        OPUS,
        text(
            "Research for phase 1 (Schema):\n- The repository holds only README.md: there is no "
            "database code yet.\n- The table goes into a new `db/schema.sql`; README.md should "
            "say where it lives."
        ),
    ),
    answer(
        "Impl1Plan7Rm2Vb",
        OPUS,
        text(
            "- [ ] 1. Create the deliveries table in db/schema.sql\n"
            "- [ ] 2. Point README.md at the schema"
        ),
    ),
    answer(
        "Impl1Item1WriteOut5Kd",
        OPUS,
        text("Writing the schema next to the repository."),
        tool("toolu_01ImplWriteOutside7Ue", "write_file", path="../schema.sql", content=SCHEMA_SQL),
    ),
    answer(
        "Impl1Item1WriteIn8Pc",
        OPUS,
        text("That path is outside the repository; inside it:"),
        tool("toolu_01ImplWriteSchema2Nf", "write_file", path="db/schema.sql", content=SCHEMA_SQL),
    ),
    answer(
        "Impl1Item1Final3Ys",
        OPUS,
        text(
            "Created `db/schema.sql` with the `deliveries` table (id, payload, due_at). "
            "No test suite exists yet to run."
        ),
        tool(
            "toolu_01ImplItem1Result5Gv",
            "submit_item_result",
            status="done",
            summary="Created db/schema.sql with the deliveries table.",
        ),
    ),
    answer(
        "Impl1Item2Edit6Qa",
        OPUS,
        tool(
            "toolu_01ImplEditReadme9Wb",
            "edit_file",
            path="README.md",
            old="# test repo\n",
            new="# test repo\n\nThe database schema lives in `db/schema.sql`.\n",
        ),
    ),
    answer(
        "Impl1Item2Final1Jm",
        OPUS,
        text("README.md now points at `db/schema.sql`."),
        tool(
            "toolu_01ImplItem2Result8Hw",
            "submit_item_result",
            status="done",
            summary="README.md points at db/schema.sql.",
        ),
    ),
    answer(
        "Impl1Summary4Xe",
        OPUS,
        text(
            "Phase 1 added the `deliveries` table in `db/schema.sql` and a pointer to it in "
            "README.md. Both items are done; nothing failed."
        ),
    ),
]
EXPLORE_SUMMARY = (
    "# Research: Retry queue\n\n- Deliveries fail 0.7% of the time on the first attempt.\n"
    "- Options: a table polled by a worker, or a message broker.\n"
)
AUTHORING = [
    answer(
        "AuthExplore1Tool8Fa",
        SONNET,
        text("I will save what we know so far."),
        tool("toolu_01AuthExploreSum3Kt", "rfd_explore_summary", content=EXPLORE_SUMMARY),
    ),
    answer("AuthExplore2Done5Rb", SONNET, text("Saved the research summary to explore.md.")),
    answer(
        "AuthConverge1Two9Gc",
        OPUS,
        text("Two decisions follow from the research."),
        tool(
            "toolu_01AuthDecideTable6Hd",
            "rfd_decision",
            action="add",
            text="Deliveries are rows of a table polled by a worker, not broker messages.",
        ),
        tool(
            "toolu_01AuthDecideRetry2Je",
            "rfd_decision",
            action="add",
            text="Retries back off exponentially with full jitter, ten attempts at most.",
        ),
    ),
    answer("AuthConverge2Done7Lf", OPUS, text("Recorded decisions 1 and 2 in decisions.md.")),
    answer(
        "AuthDraft1Section4Mg",
        OPUS,
        text("Intent: the Summary states decision 1 in one paragraph."),
        tool(
            "toolu_01AuthDraftSummary1Nh",
            "rfd_section",
            section="Summary",
            content="Deliveries become rows of a table that a worker polls and retries "
            "with exponential backoff, so a failed request no longer loses the event.",
        ),
    ),
    answer("AuthDraft2Done3Pi", OPUS, text("Wrote the Summary from decision 1.")),
]
SCENARIOS = {
    "test_agent_e2e/test_implement_a_phase_streamed": IMPLEMENT,
    "test_agent_e2e/test_explore_converge_draft_streamed": AUTHORING,
}
OPENAI_HEADERS = {
    "access-control-expose-headers": ["X-Request-ID"],
    "alt-svc": ['h3=":443"; ma=86400'],
    "cf-cache-status": ["DYNAMIC"],
    "cf-ray": ["9a4e2d8c3e4f6172-AMS"],
    "connection": ["keep-alive"],
    "content-type": ["application/json"],
    "date": ["Mon, 23 Nov 2026 09:20:41 GMT"],
    "openai-organization": ["user-7hq2xkz0v1m3b5n8c4d6f9g2"],
    "openai-processing-ms": ["2214"],
    "openai-project": ["proj_Kx8Qm2Vt4Rn7Wb1Yc5Zd9Fh3"],
    "openai-version": ["2020-10-01"],
    "server": ["cloudflare"],
    "strict-transport-security": ["max-age=31536000; includeSubDomains; preload"],
    "x-content-type-options": ["nosniff"],
    "x-envoy-upstream-service-time": ["2223"],
    "x-ratelimit-limit-requests": ["10000"],
    "x-ratelimit-limit-tokens": ["30000000"],
    "x-ratelimit-remaining-requests": ["9999"],
    "x-ratelimit-remaining-tokens": ["29997810"],
    "x-ratelimit-reset-requests": ["6ms"],
    "x-ratelimit-reset-tokens": ["4ms"],
    "x-request-id": ["req_7c1e9a3f5b2d4e6081a3c5e7b9d1f2a4"],
}
OPENAI_REVIEW = {
    "summary": "The outbox table and SKIP LOCKED worker solve the measured loss of events. "
    "The retry limits are still a TODO, and a crash after sending delivers twice without "
    "the design saying so.",
    "findings": [
        {
            "severity": "major",
            "section": "Design",
            "message": "Decide the maximum backoff "
            "and the attempt limit; they bound how long an outage is survived.",
        },
        {
            "severity": "minor",
            "section": "Drawbacks",
            "message": "Say how long delivered rows are kept and what removes them.",
        },
    ],
    "questions": ["Does a replay keep the original delivery id?"],
}


def chat_completion(arguments: dict[str, Any]) -> dict[str, Any]:
    """A chat.completions answer forced to call ``submit_review`` (usage: placeholder)."""
    call = {
        "id": "call_Rv4nT8qK2mW6xZ1bL9cP5dH3",
        "type": "function",
        "function": {
            "name": "submit_review",
            "arguments": json.dumps(arguments, separators=(",", ":")),
        },
    }
    return {
        "id": "chatcmpl-CxD41Gp7Nm2Vt8Rq3Wb6Yc9Zf1Kj4",
        "object": "chat.completion",
        "created": 1763889641,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [call],
                    "refusal": None,
                    "annotations": [],
                },
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "total_tokens": 0,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {
                "reasoning_tokens": 0,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": "fp_b3f1157249",
    }


MESSAGES_URL = "https://api.anthropic.com/v1/messages"
JSON_HEADERS = {
    **HEADERS,
    "content-type": ["application/json"],
    "x-envoy-upstream-service-time": ["1873"],
}
SIGNATURE = (
    "EqQBCkgIBxABGAIiQL3Vf0ZK6mJd8s2n1Qe4cHq7Xr0TtW3y9aZb2kLcN5oP6rS8uV1wX4yZ7aB0cD3eF6gH9iJ2kL5m"
    "N8oP1qR4sEgxbnRqVmZ3WkM5cGtGGgx0TzJhUm1qN1ZYcUwiMJ7kD0Xq3mWv8yZ2aB5cD8eF1gH4iJ7kL0mN3oP6qR9s"
    "T2uV5wX8yZ1aB4cD7eF0gH3iJ6kL9mN2oP5qR8sT1uV4wX7yZ0aB3cD6eF9gH2iJ5kL8mN1oP4q"
)


def structured(tag: str, tool_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """A Sonnet 5.5 answer to the shared answer schema (``output_config.format``): thinking
    with display omitted, then the JSON text, whose one property names the tool."""
    thinking = {"type": "thinking", "thinking": "", "signature": SIGNATURE}
    body = json.dumps({tool_name: data}, ensure_ascii=False)
    return answer(tag, SONNET, thinking, text(body))


SHARED_REVIEW = {
    "summary": "The outbox table and SKIP LOCKED worker fix the lost events the motivation "
    "measures. The retry limits are still a TODO, so the design cannot be accepted yet.",
    "findings": [
        {
            "severity": "major",
            "section": "Design",
            "line": 26,
            "message": "The maximum "
            "backoff and the attempt limit are still a TODO; pick values and say why.",
        },
    ],
    "questions": ["Should a replay keep the original delivery id?"],
}
REVISED_DESIGN = (
    "Every event that must be delivered is written to a `webhook_deliveries` table in the\n"
    "same transaction as the change that caused it. A worker claims due deliveries with\n"
    "`SELECT … FOR UPDATE SKIP LOCKED`, sends them, and records the outcome.\n\n"
    "Failed attempts are retried with exponential backoff and full jitter, starting at ten\n"
    "seconds and capped at six hours; after 15 attempts (about two days) a delivery stops.\n"
    "Two days covers a receiver's weekend outage without piling up dead letters.\n\n"
    "After the last attempt a delivery moves to the dead-letter state. The admin page lists\n"
    "dead-lettered deliveries per endpoint, with a button to replay one or all of them.\n"
)
SHARED_PLAN = {
    "phases": [
        {
            "label": "1",
            "title": "Delivery table and enqueue",
            "description": "Create the "
            "webhook_deliveries table and write a row wherever a webhook is sent today, inside the "
            "same transaction.",
        },
        {
            "label": "2",
            "title": "Worker with backoff",
            "description": "A worker claims due rows, "
            "sends them and retries with exponential backoff and jitter, six hours and 15 attempts "
            "at most.",
        },
        {
            "label": "3",
            "title": "Dead letters and replay",
            "description": "Deliveries past the "
            "attempt limit are dead-lettered; the admin page can replay one or all.",
        },
    ]
}
SHARED_PREFIX = [
    structured("Shr1Review6Tq2Wm", "submit_review", SHARED_REVIEW),
    structured(
        "Shr2Refine1Vz8Kc",
        "submit_revision",
        {
            "sections": [{"section": "Design", "content": REVISED_DESIGN}],
            "notes": "- major · Design (retry limits): addressed in **Design**: six hours, 15 "
            "attempts.\n- Question (replay id): left to the authors, still open in Risks.",
        },
    ),
    structured(
        "Shr3Refine2Hn4Jd",
        "submit_revision",
        {
            "sections": [],
            "notes": "CONVERGED\nEvery requirement in the motivation has an answer in the design.",
        },
    ),
    structured("Shr4Plan5Rb7Xs", "submit_plan", SHARED_PLAN),
]
JSON_SCENARIOS = {
    "test_ai_review/test_review_through_the_chat_completions_provider": [
        (
            "https://api.openai.com/v1/chat/completions",
            OPENAI_HEADERS,
            chat_completion(OPENAI_REVIEW),
        ),
    ],
    "test_shared_prefix/test_review_refine_accept_on_one_model_share_the_prefix": [
        (MESSAGES_URL, {**JSON_HEADERS, "request-id": [f"req_011CVR{n:02d}{a['id'][6:20]}"]}, a)
        for n, a in enumerate(SHARED_PREFIX)
    ],
}


def interaction(n: int, message: dict[str, Any]) -> dict[str, Any]:
    headers = {**HEADERS, "request-id": [f"req_011CVQ{n:02d}{message['id'][4:18]}"]}
    return {
        "request": {
            "body": "",
            "headers": {},
            "method": "POST",
            "uri": "https://api.anthropic.com/v1/messages",
        },
        "response": {
            "body": {"string": sse(message)},
            "headers": headers,
            "status": {"code": 200, "message": "OK"},
        },
    }


def json_interaction(uri: str, headers: dict[str, list[str]], body: dict[str, Any]) -> Any:
    return {
        "request": {"body": "", "headers": {}, "method": "POST", "uri": uri},
        "response": {
            "body": {"string": json.dumps(body, separators=(",", ":"))},
            "headers": headers,
            "status": {"code": 200, "message": "OK"},
        },
    }


HEADER = (
    "# Model answers built by tests/data/cassettes/scenarios_llm.py (see its docstring),\n"
    "# requests recorded from the CLI with tests/data/rerecord.py; no key, no network.\n"
)


def main(names: list[str]) -> int:
    docs = {
        key: [interaction(n, a) for n, a in enumerate(answers)]
        for key, answers in SCENARIOS.items()
    }
    docs |= {key: [json_interaction(*x) for x in xs] for key, xs in JSON_SCENARIOS.items()}
    docs = {k: v for k, v in docs.items() if not names or any(n in k for n in names)}
    for key, interactions in docs.items():
        out = ROOT / f"{key}.yaml"
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = {"interactions": interactions, "version": 1}
        text = HEADER + yaml.safe_dump(doc, sort_keys=False, width=1000)
        out.write_text(text, encoding="utf-8")
    print(f"wrote {len(docs)} stub cassettes under {ROOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
