"""What ``rfd status`` and ``rfd list`` show: pure data in, display records out (the records
and their text: :mod:`bot.lifecycle.views`).

Three displays follow the RFD's life: *authoring* (Draft), *review* (Discussion) and
*implementation* (Accepted); each ends with the next actions.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot import templates
from bot.lifecycle.views import Action, PhaseLine, StatusView
from bot.model import phase_ids
from bot.model.document import LIST, Document
from bot.model.status import Status, word_for
from bot.state import RfdState


def status_view(
    doc: Document,
    state: RfdState,
    *,
    path: str,
    models: Mapping[str, str] | None = None,
    tracking: str = "",
) -> StatusView:
    """``models``: the configured model of each step (``{"refine": "opus", ...}``), shown
    next to the actions that use one; ``tracking``: the tracking issue when the header
    does not record it (the repository keeps it in the state directory)."""
    models = models or {}
    tracking = doc.field("Tracking Issue") or tracking
    rid = str(doc.rfd_id)
    problems = tuple(str(e) for e in (state.plan_error, state.decisions_error) if e)
    if doc.status is Status.DRAFT:
        return _authoring(doc, state, rid, path, problems, models)
    if doc.status is Status.DISCUSSION:
        return _review(doc, state, rid, path, problems, models)
    if doc.status is Status.ACCEPTED:
        return _implementation(doc, state, rid, path, problems, models, tracking)
    lines = [("Status", said(doc))]
    for key in ("Superseded by", "Abandoned"):
        if doc.field(key):
            lines.append((key, doc.field(key) or ""))
    if tracking:
        lines.append(("Tracking Issue", tracking))
    phases = _phase_lines(state)
    if phases:
        lines.append(("Phases", f"{sum(p.done for p in phases)}/{len(phases)} done"))
    return StatusView(
        rid,
        doc.title,
        path,
        doc.status.value,
        "final",
        tuple(lines),
        phases=phases,
        problems=problems,
    )


def _using(text: str, models: Mapping[str, str], step: str) -> str:
    return f"{text} ({models[step]})" if models.get(step) else text


def _sections_drafted(doc: Document) -> tuple[int, int, list[str]]:
    """How many sections are written, of how many: rfd's template's for its category, or,
    for a front-matter or AsciiDoc RFD (the team's own template), the RFD's own sections."""
    if doc.form != LIST:
        own = [s.title for s in doc.sections if s.level == 2]
        written = [name for name in own if (doc.section_body(name) or "").strip()]
        return len(written), len(own), written
    required = templates.required_sections(doc.category or "design")
    written = [
        name
        for name in required
        if (body := doc.section_body(name)) and body.strip() and not templates.is_placeholder(body)
    ]
    return len(written), len(required), written


def _promotion(doc: Document) -> str:
    """What ``rfd promote`` does to this draft: a draft id takes a number; a numbered RFD
    (Oxide's ``prediscussion``) keeps it and moves to the repository's discussion word."""
    if doc.rfd_id is not None and not doc.rfd_id.draft:
        word = word_for(Status.DISCUSSION, doc.status_word, lower=doc.form != LIST)
        return f"Open it for discussion: status {word}"
    return "Publish: take a number, status Discussion"


def _authoring(
    doc: Document,
    state: RfdState,
    rid: str,
    path: str,
    problems: tuple[str, ...],
    models: Mapping[str, str],
) -> StatusView:
    done, total, names = _sections_drafted(doc)
    decisions = (
        f"{state.locked} locked, {state.discussing} discussing" if state.decisions else "none yet"
    )
    lines = (
        ("Status", f"{said(doc)} (authoring)"),
        ("Explore", "complete (explore.md)" if state.explore else "not started"),
        ("Decisions", decisions),
        ("Sections", f"{done}/{total} drafted" + (f" ({', '.join(names)})" if names else "")),
    )
    actions = [
        Action(f"rfd explore {rid}", _using("Research the problem space", models, "explore")),
        Action(
            f"rfd converge {rid}", _using("Discuss and lock design decisions", models, "converge")
        ),
    ]
    if state.decisions:
        actions.append(
            Action(f"rfd draft {rid}", _using("Draft the next section", models, "draft"))
        )
    actions += [
        Action(f"rfd review {rid}", "Review the draft"),
        Action(f"rfd promote {rid}", _promotion(doc)),
    ]
    return StatusView(
        rid, doc.title, path, "Draft", "authoring", lines, actions=tuple(actions), problems=problems
    )


def _review(
    doc: Document,
    state: RfdState,
    rid: str,
    path: str,
    problems: tuple[str, ...],
    models: Mapping[str, str],
) -> StatusView:
    reviews = tuple(
        f"{i}. {r.path.name} — {r.headline}" for i, r in enumerate(state.reviews, start=1)
    )
    active = f"{len(reviews)} active" if reviews else "none yet"
    actions = [Action(f"rfd review {rid}", _using("Review the RFD", models, "review"))]
    if reviews:
        actions += [
            Action(
                f"rfd refine {rid}", _using("Refine the RFD from its reviews", models, "refine")
            ),
            Action(f"rfd dismiss {rid} all", "Dismiss reviews that are addressed"),
        ]
    actions.append(Action(f"rfd accept {rid}", "Extract the plan and promote to Accepted"))
    return StatusView(
        rid,
        doc.title,
        path,
        "Discussion",
        "review",
        (("Status", said(doc)), ("Reviews", active)),
        reviews=reviews,
        actions=tuple(actions),
        problems=problems,
    )


MISSING_PLAN = (
    "plan.json is missing — `rfd accept {rid}` extracts it from the RFD and opens the tracking "
    "issue, the status stays Accepted (see the plan first with `rfd plan {rid}`), or restore it "
    "from git history; until then no phase can be recorded"
)


def _phase_lines(state: RfdState) -> tuple[PhaseLine, ...]:
    out = []
    for i, phase in enumerate(state.plan or (), start=1):
        done, label = i in state.completed, phase_ids.label(phase, i)
        summary = f"phases/{label}.md" if done else None
        out.append(PhaseLine(i, phase.title, done, summary, label, phase_ids.optional(phase)))
    return tuple(out)


NONE_PLANNED = "none planned (accepted without an Implementation Plan)"


def _implementation(
    doc: Document,
    state: RfdState,
    rid: str,
    path: str,
    problems: tuple[str, ...],
    models: Mapping[str, str],
    tracking: str,
) -> StatusView:
    phases = _phase_lines(state)
    done = sum(p.done for p in phases)
    planned = f"{done}/{len(phases)} done" if phases or state.plan is None else NONE_PLANNED
    lines = [("Status", said(doc)), ("Phases", planned)]
    if state.plan is None and state.plan_error is None:
        lines.append(("Plan", MISSING_PLAN.format(rid=rid)))
    if tracking:
        lines.append(("Tracking Issue", tracking))
    if state.impl_reviews:
        lines.append(("Impl reviews", f"{len(state.impl_reviews)} active"))
    actions = []
    todo = [p for p in phases if not p.done and not p.optional]
    if todo:
        nxt = todo[0]
        actions += [
            Action(
                f"rfd implement {rid}",
                _using(f"Implement phase {nxt.label}: {nxt.title}", models, "implement"),
            ),
            Action(
                f"rfd phase {rid} done {nxt.label} --summary FILE",
                "Record a phase implemented by hand",
            ),
        ]
    if state.plan is None and state.plan_error is None:
        actions.append(
            Action(
                f"rfd accept {rid}", "Extract its plan and open its tracking issue (stays Accepted)"
            )
        )
    if state.impl_reviews:
        refine = _using("Change the implementation as its reviews ask", models, "refine")
        actions.append(Action(f"rfd refine {rid}", refine))
    actions.append(Action(f"rfd review {rid}", "Review the implementation so far"))
    if state.plan is not None and not todo:  # every phase done, or accepted without phases
        actions.append(Action(f"rfd done {rid}", "Promote to Implemented"))
    return StatusView(
        rid,
        doc.title,
        path,
        "Accepted",
        "implementation",
        tuple(lines),
        phases=phases,
        actions=tuple(actions),
        problems=problems,
    )


def said(doc: Document) -> str:
    """The status in the repository's word, with rfd's stage when the word is another
    (``published (accepted)``)."""
    if doc.status_word.casefold() == doc.status.value.casefold():
        return doc.status_word  # as the file writes it: `discussion` in Oxide's front matter
    return f"{doc.status_word} ({doc.status.value.lower()})"
