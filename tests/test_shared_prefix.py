"""Review → refine → accept's model plan on one model share the cached prefix.

Replayed from ``cassettes/test_shared_prefix/`` (built by
``tests/data/cassettes/scenarios_llm.py``; requests recorded, usage estimated as for the
other AI cassettes).  The repository sets ``steps.refine.model = "sonnet"``, so all three
steps run on Claude Sonnet 5.5 and the later calls read what the earlier ones cached:
the answer schema (the three answer tools), the shared instructions, the RFD and the
reviews on file.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bot.agent.authoring.refine import StopReason, refine
from bot.agent.conversation.session import Session
from bot.agent.steps import active_reviews
from bot.agent.toolbox.permission import Mode
from bot.ai.plan import extract_plan_called
from bot.ai.review import ai_review
from bot.model.reviews import render
from tests.test_ai_review import CONFIG, NOW, make_ws

SAME_MODEL = CONFIG + '[steps.refine]\nmodel = "sonnet"\n'


@pytest.mark.vcr
def test_review_refine_accept_on_one_model_share_the_prefix(git_repo: Path, vcr: Any) -> None:
    ws = make_ws(git_repo, SAME_MODEL)
    review = ai_review(ws, ws.document("1"), impl=False, model=None)
    text = render(review.review, rfd_id="001", title="Retry Queue for Outgoing Webhooks")
    ws.store.save_review("001", text, now=int(NOW))
    session = Session.from_workspace(ws).for_rfd("001", ws.find("1").path, "Retry Queue")
    refined = refine(dataclasses.replace(session, mode=Mode.YES), active_reviews(session))
    ws.refresh()
    phases, planned, _ = extract_plan_called(ws, ws.document("1"))

    assert refined.stop is StopReason.CONVERGED
    assert [p.changed_sections for p in refined.passes] == [("Design",), ()]
    assert "capped at six hours" in ws.document("1").text
    assert [p.title for p in phases][1] == "Worker with backoff"
    bodies = [json.loads(r.body) for r in vcr.requests]
    assert len(bodies) == 4 and {b["model"] for b in bodies} == {"claude-sonnet-5-5"}
    # one answer schema and one set of instructions in every request
    assert all(b["output_config"] == bodies[0]["output_config"] for b in bodies)
    assert all(b["system"][0] == bodies[0]["system"][0] for b in bodies)
    # refine's first pass reads what the review wrote: schema, instructions, RFD
    pass1 = refined.passes[0].usage
    assert bodies[1]["system"][:2] == bodies[0]["system"][:2]
    assert pass1.cache_read_tokens == review.usage.cache_write_tokens > 1500
    # accept reads everything before its task from refine's last pass: RFD and review too
    assert bodies[3]["system"] == bodies[2]["system"] and len(bodies[3]["system"]) == 3
    usage = planned.reply.usage
    assert usage.cache_write_tokens == 0 and usage.cache_read_tokens > 1500
    assert usage.cache_read_tokens > 20 * usage.input_tokens  # only the task is new
