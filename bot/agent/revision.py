"""One refine pass: ask for a revision, apply it section by section, answer the judges.

The model sees the prefix review and accept share (:mod:`bot.ai.shared`: the answer
tools, the common system prompt, the RFD as it stands, the active reviews) and answers
with ``submit_revision``: the sections to replace or append, and notes.  The pass
applies each section with ``rfd_section`` semantics — one section's body replaced (or
a missing one appended), every other byte kept — through the same tool runner as the
authoring steps, so ask mode shows each change and asks, interceptors see it, and the
bot (nobody to ask) applies it within the RFD file.  A reply without the tool call is
read as notes with no change.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from bot.agent.answer import answer
from bot.agent.calls import CallRunner
from bot.agent.context import Step
from bot.agent.files import unified_diff
from bot.agent.loop import Conversation, charge
from bot.agent.rfd_tools import RFD_SECTION
from bot.agent.session import Session
from bot.ai.answers import REVISION_TOOL
from bot.ai.shared import prefix_request
from bot.ai.steer import Steer, steered
from bot.core.atomic import read_exact
from bot.core.errors import ProviderError
from bot.events import Notice, ResultReady
from bot.llm.base import Message, Reply, Request, ToolCall, Usage
from bot.llm.guard import Meter

FOCUS = {
    "reviews": "Apply the active reviews: each finding is answered by a change to the RFD, "
    "or the notes say why not.",
    "completeness": "Completeness: every requirement has an answer in the design, no section "
    "is a placeholder, each phase of the plan can be verified.",
    "correctness": "Correctness: no contradictions, right claims about existing code and "
    "tools, realistic constraints.",
    "edge_cases": "Edge cases: bad or huge input, partial failure, retries, concurrency, "
    "upgrade, rollback and security.",
    "scope": "Scope: bounded, non-goals stated, nothing that belongs in another RFD.",
    "clarity": "Clarity: an engineer new to the project could build it one way only; terms "
    "defined before use.",
}
FOCUS["scope_and_clarity"] = f"{FOCUS['scope']}\n{FOCUS['clarity']}"
"""What each pass is asked to do, for the judges (the ``refine_pass`` template's focuses)."""
REVIEWS_CAP = 20_000

FEEDBACK = (
    "Your revision is applied: the RFD above includes it. Feedback on it follows; answer "
    "with `{tool}` again, giving only the sections that still need a change."
)


TEMPERATURE = 0.2
"""Refine edits a document it should keep: a low temperature (seed 004), on the models that
accept one (:mod:`bot.llm.anthropic_wire` sends it to the legacy Claude models only)."""


@dataclasses.dataclass(frozen=True)
class Asked:
    """What one pass asks: its template, variables, and a title for the judges."""

    template: str
    variables: Mapping[str, Any]
    item: str
    steer: Steer | None = None
    """``--edit``: the person edits this pass's task before it is sent (:mod:`bot.ai.steer`)."""


def revise(
    session: Session, meter: Meter, asked: Asked, reviews: Sequence[tuple[str, str]]
) -> tuple[str, Usage]:
    """Run one pass on ``session.rfd_path``: the model's notes and what the pass used."""
    before = _read(session)
    conv = session.conversation(Step.REFINE, "", meter)
    request = steered(_request(session, asked, before, reviews), asked.steer)
    task = request.messages[-1].text  # what the person saved, when they steered
    reply = answer(conv, request)
    notes, usage = apply(session, reply), reply.usage
    feedback = _feedback(session, conv, asked, (before, notes), reviews)
    if feedback:
        extra = Message("user", "\n\n".join([FEEDBACK.format(tool=REVISION_TOOL.name), *feedback]))
        request = _request(session, asked, _read(session), reviews)
        request = steered(request, (lambda _: task) if asked.steer else None)
        request = dataclasses.replace(request, messages=(*request.messages, extra))
        reply = answer(conv, request)
        notes, usage = apply(session, reply), usage + reply.usage
    return notes, usage


EMPTY_REVISION = "the model's {tool} carried no section and no note: an empty answer, no edit"


def apply(session: Session, reply: Reply) -> str:
    """Write the sections ``reply`` proposes; its notes (the reply's text without them)."""
    data = next((c.arguments for c in reply.tool_calls if c.name == REVISION_TOOL.name), None)
    if data is None:
        return reply.text.strip()
    if not data.get("sections") and not str(data.get("notes") or "").strip():
        raise ProviderError(EMPTY_REVISION.format(tool=REVISION_TOOL.name))
    runner = CallRunner(
        (RFD_SECTION,),
        session.tool_context(),
        session.bus,
        Step.REFINE,
        mode=session.mode,
        prompter=session.prompter,
        rfd_id=session.event_id,
    )
    for n, item in enumerate(data.get("sections") or ()):
        section, content = str(item.get("section", "")), str(item.get("content", ""))
        args = {"section": section, "content": content, "new": True}  # a review may ask for one
        result = runner.run(ToolCall(f"revision_{n}", RFD_SECTION.name, args))
        if result.is_error and result.content.startswith("error:"):
            message = f"section `{args['section']}` not applied: {result.content[7:]}"
            session.bus.emit(Notice(rfd_id=session.event_id, message=message, level="warning"))
    return str(data.get("notes") or "").strip()


def _request(
    session: Session, asked: Asked, text: str, reviews: Sequence[tuple[str, str]]
) -> Request:
    config = session.config
    request, cuts = prefix_request(
        session.templates,
        template=asked.template,
        context={"rfd_id": session.event_id, "title": session.rfd_title, **asked.variables},
        rfd=(f"RFD {session.event_id or session.rfd_path}", text),
        reviews=reviews,
        model=config.model_for(Step.REFINE.config_key, session.model),
        tool=REVISION_TOOL,
        max_tokens=config.steps.refine.max_tokens,
        context_tokens=config.provider.context_tokens,
    )
    for cut in cuts:
        session.bus.emit(Notice(rfd_id=session.event_id, message=cut, level="warning"))
    return dataclasses.replace(request, temperature=TEMPERATURE)


def _feedback(
    session: Session,
    conv: Conversation,
    asked: Asked,
    before_notes: tuple[str, str],
    reviews: Sequence[tuple[str, str]],
) -> tuple[str, ...]:
    """What the ``result.ready`` interceptors (judges) say about the pass."""
    before, notes = before_notes
    after = _read(session)
    focus = str(asked.variables.get("focus", "reviews"))
    addressed = "\n\n".join(f"## {path}\n\n{text}" for path, text in reviews)
    event = ResultReady(
        rfd_id=session.event_id,
        step=Step.REFINE.value,
        item=asked.item,
        result=notes or "(no notes)",
        phase=FOCUS.get(focus, focus),
        document=after,
        diff=unified_diff(before, after, session.rfd_path or ""),
        reviews=addressed[:REVIEWS_CAP] if focus == "reviews" else "",
        charge=functools.partial(charge, conv),
    )
    return tuple(session.bus.intercept(event).feedback)


def _read(session: Session) -> str:
    path = session.tool_context().sandbox.resolve(session.rfd_path or "")
    return read_exact(path)
