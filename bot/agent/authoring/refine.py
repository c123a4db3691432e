"""Refine an RFD with the rule of five (seed 004), and ask afterwards which reviews it
resolved (seed 000).

Pass 1 applies every active review; passes 2–5 each look at the document with one focus
(completeness, correctness, edge cases, then scope and clarity together; with no review
to apply, passes 1–5 take the five focuses one by one).  The loop stops when the model
answers ``CONVERGED``, after two passes in a row that change nothing, when a pass brings
the document back to what it was two passes earlier (oscillation), or after five
passes.  A provider failure, a timeout or Ctrl-C mid-loop keeps every section already
written and says so (the result's ``warning``); a pass that takes the step over its
budget (``steps.refine.budget_*``) ends the loop the same way, as cleanly as the cap.

Each pass is one model call on the prefix review and accept share (:mod:`bot.ai.shared`:
the answer tools, the common system prompt, the RFD as it stands, the active reviews),
answered with ``submit_revision``: the sections to replace or append, and notes.  A
reply without the tool call is read as notes with no change.  The pass applies each
section with ``rfd_section`` semantics — one section's body replaced (or a missing one
appended), every other byte kept — through the same tool runner as the authoring steps,
so ask mode shows each change and asks, interceptors see it, and the bot (nobody to ask)
applies it within the RFD file.  The ``result.ready`` interceptors (judges) then see the
pass; when they say something the model revises once more with their feedback in view.

After a refinement, ``rfd refine`` asks the person which active reviews it resolved
(:func:`ask_dismiss`, :func:`parse_selection`).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bot.agent.conversation.loop import Conversation, answer, charge
from bot.agent.conversation.session import Session
from bot.agent.toolbox.base import Step
from bot.agent.toolbox.calls import CallRunner
from bot.agent.toolbox.files import unified_diff
from bot.agent.toolbox.permission import Prompter
from bot.agent.toolbox.rfd import RFD_SECTION, markup_of
from bot.ai.shared import MAX_PASSES, REVISION_TOOL, prefix_request
from bot.ai.steer import Steer, steered
from bot.core.atomic import read_exact
from bot.core.errors import BudgetExceeded, ProviderError, RfdError, ValidationError
from bot.events import Notice, ResultReady
from bot.llm.base import Message, Reply, Request, ToolCall, Usage
from bot.llm.guard import Meter, require_input
from bot.model import document

CONVERGED = re.compile(r"^\W*CONVERGED\b", re.MULTILINE)
"""The model's way to say it has nothing left to change (a line starting with it)."""
PARTIAL = "pass {n} failed ({error}); the changes of the earlier passes are kept"
OVER_BUDGET = (
    "{reached} during pass {n}; every section written before is kept; "
    "raise steps.refine.budget_tokens / budget_usd (0: no limit) to let refine go further"
)


class Focus(enum.Enum):
    """What one pass looks at (values are the ``refine_pass`` template's focus keys)."""

    REVIEWS = "reviews"
    COMPLETENESS = "completeness"
    CORRECTNESS = "correctness"
    EDGE_CASES = "edge_cases"
    SCOPE = "scope"
    CLARITY = "clarity"
    SCOPE_AND_CLARITY = "scope_and_clarity"
    IMPLEMENTATION = "implementation"
    """An Accepted RFD: the one conversation that changes the code
    (bot.agent.implementation.refine)."""


ROTATION = (Focus.COMPLETENESS, Focus.CORRECTNESS, Focus.EDGE_CASES, Focus.SCOPE, Focus.CLARITY)
AFTER_REVIEWS = (
    Focus.COMPLETENESS,
    Focus.CORRECTNESS,
    Focus.EDGE_CASES,
    Focus.SCOPE_AND_CLARITY,
)
"""When pass 1 applies the reviews, four passes are left for the five focuses: the last
one looks at scope and clarity together, so every focus is reached within the cap."""


class StopReason(enum.Enum):
    CONVERGED = "converged"
    UNCHANGED = "two passes without change"
    OSCILLATION = "oscillation"
    CAP = "pass limit"
    INTERRUPTED = "interrupted"
    BUDGET = "budget reached"


@dataclass(frozen=True)
class ReviewText:
    path: str
    text: str


@dataclass(frozen=True)
class RefinePass:
    number: int
    focus: Focus
    diff: str
    changed_sections: tuple[str, ...]
    reply: str
    usage: Usage


@dataclass(frozen=True)
class RefineResult:
    passes: tuple[RefinePass, ...]
    reviews: tuple[str, ...]
    """The reviews pass 1 applied (candidates for the dismiss prompt)."""
    stop: StopReason
    usage: Usage
    cost_usd: float = 0.0
    warning: str = ""

    @property
    def changed(self) -> bool:
        return any(p.diff for p in self.passes)

    @property
    def implementation(self) -> bool:
        """It changed the code of an Accepted RFD (its reviews are implementation reviews)."""
        return any(p.focus is Focus.IMPLEMENTATION for p in self.passes)


def focus_for(number: int, *, reviews: bool) -> Focus:
    """The focus of pass ``number`` (1-based)."""
    if reviews and number == 1:
        return Focus.REVIEWS
    rotation = AFTER_REVIEWS if reviews else ROTATION
    return rotation[(number - (2 if reviews else 1)) % len(rotation)]


def refine(
    session: Session, reviews: Sequence[ReviewText] = (), *, max_passes: int = MAX_PASSES
) -> RefineResult:
    """Run the rule-of-five loop on ``session.rfd_path``; the file is changed in place."""
    target = _rfd_file(session)
    meter = session.meter(Step.REFINE)
    history = [require_input(read_exact(target), f"RFD {session.rfd_path}")]
    passes: list[RefinePass] = []
    stop, warning = StopReason.CAP, ""
    for number in range(1, min(max_passes, MAX_PASSES) + 1):
        focus = focus_for(number, reviews=bool(reviews))
        try:
            reply, usage = _pass(session, meter, number, focus, reviews)
        except (ProviderError, TimeoutError, KeyboardInterrupt) as exc:
            reply, usage, stop = "", Usage(), StopReason.INTERRUPTED
            warning = PARTIAL.format(n=number, error=str(exc) or type(exc).__name__)
        except BudgetExceeded:
            reply, usage, stop = "", Usage(), StopReason.BUDGET
            warning = OVER_BUDGET.format(reached=meter.reached(), n=number)
        if warning:
            session.bus.emit(Notice(rfd_id=session.event_id, message=warning, level="warning"))
        after = read_exact(target)
        passes.append(_record(session, number, focus, history[-1], after, reply, usage))
        if stop in (StopReason.INTERRUPTED, StopReason.BUDGET):
            break
        found = _stop(reply, history, after, passes)
        history.append(after)
        if found is not None:
            stop = found
            break
    names = tuple(r.path for r in reviews)
    return RefineResult(tuple(passes), names, stop, meter.usage, meter.cost_usd, warning)


def _rfd_file(session: Session) -> Path:
    if not session.rfd_path:
        raise ValidationError("refine needs the RFD file")
    return session.tool_context().sandbox.resolve(session.rfd_path)


def _pass(
    session: Session,
    meter: Meter,
    number: int,
    focus: Focus,
    reviews: Sequence[ReviewText],
) -> tuple[str, Usage]:
    """One pass: the model's notes and its usage (the RFD file holds the result)."""
    item = f"refine pass {number} ({focus.value.replace('_', ' ')})"
    if focus is Focus.REVIEWS:
        variables: dict[str, object] = {"review_count": len(reviews), "max_passes": MAX_PASSES}
        asked = Asked("refine_pass1", variables, item)
    else:
        asked = Asked("refine_pass", {"pass_number": number, "focus": focus.value}, item)
    if number == 1:  # --edit steers the loop through its first pass (bot.ai.steer)
        asked = dataclasses.replace(asked, steer=session.steer)
    return revise(session, meter, asked, [(r.path, r.text) for r in reviews])


def _stop(
    reply: str, history: list[str], after: str, passes: list[RefinePass]
) -> StopReason | None:
    """Why the loop ends after this pass (``history`` holds the texts before it)."""
    if CONVERGED.search(reply):
        return StopReason.CONVERGED
    if after != history[-1] and len(history) >= 2 and after == history[-2]:
        return StopReason.OSCILLATION
    if len(passes) >= 2 and not passes[-1].diff and not passes[-2].diff:
        return StopReason.UNCHANGED
    return None


def _record(
    session: Session, number: int, focus: Focus, before: str, after: str, reply: str, usage: Usage
) -> RefinePass:
    path = session.rfd_path or ""
    diff = unified_diff(before, after, path)
    return RefinePass(number, focus, diff, changed_sections(before, after, path), reply, usage)


def changed_sections(before: str, after: str, path: str) -> tuple[str, ...]:
    """Titles of the sections whose body differs (added and removed ones included)."""
    old, new = _bodies(before, path), _bodies(after, path)
    titles = list(old) + [t for t in new if t not in old]
    return tuple(t for t in titles if old.get(t) != new.get(t))


def _bodies(text: str, path: str) -> dict[str, str]:
    try:
        doc = document.parse(text, path)
    except RfdError:
        return {}
    lines = text.splitlines()  # blank lines around a body are layout, not a change
    return {s.title: "\n".join(lines[s.start : s.end]).strip("\n") for s in doc.sections}


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
        context={
            "rfd_id": session.event_id,
            "title": session.rfd_title,
            "markup": markup_of(session.rfd_path or ""),
            **asked.variables,
        },
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


QUESTION = "Dismiss resolved reviews? [numbers, 'all', or enter to skip]: "
Selection = Sequence[int] | Literal["all"]


def parse_selection(answer: str, count: int) -> Selection:
    """``"1, 3"`` → ``[1, 3]`` (1-based), ``"all"`` → ``"all"``, empty → ``[]``."""
    words = answer.replace(",", " ").split()
    if [w.lower() for w in words] == ["all"]:
        return "all"
    numbers: list[int] = []
    for word in words:
        if not word.isdigit() or not 1 <= int(word) <= count:
            raise ValidationError(f"`{word}` is not a review number between 1 and {count}")
        if int(word) not in numbers:
            numbers.append(int(word))
    return numbers


def ask_dismiss(prompter: Prompter, headlines: Sequence[str]) -> Selection:
    """List the active reviews and ask which to dismiss; asks again after a bad answer."""
    if not headlines:
        return []
    listing = "\n".join(f"  {n}. {h}" for n, h in enumerate(headlines, start=1))
    prompt = f"Active reviews:\n{listing}\n\n{QUESTION}"
    for _ in range(3):
        answer = prompter.ask(prompt)
        if answer is None:
            return []
        try:
            return parse_selection(answer, len(headlines))
        except ValidationError as exc:
            prompt = f"{exc.message}\n{QUESTION}"
    return []
