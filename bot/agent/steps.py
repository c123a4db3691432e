"""The agent steps as the CLI calls them: a workspace and an RFD query in, a result out.

Each function resolves the RFD, builds a :class:`~bot.agent.conversation.session.Session` on the
workspace (``--yes`` → no questions; no terminal → only configured writes) and runs
the step.  What to save or show afterwards (the phase summary, the dismiss prompt,
usage) stays with the caller.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.agent.authoring import author as authoring
from bot.agent.authoring.author import AuthorResult
from bot.agent.authoring.refine import RefineResult, ReviewText, refine
from bot.agent.conversation.session import Session
from bot.agent.implementation.phase_work import prepare
from bot.agent.implementation.run import ImplementResult, implement
from bot.agent.implementation.work_copy import (
    Taken,
    WorkCopy,
    apply,
    bounds_for,
    collect,
    held_values,
    opened,
)
from bot.agent.toolbox.base import Step
from bot.agent.toolbox.permission import Prompter
from bot.core.redact import SecretValues
from bot.events import Notice

if TYPE_CHECKING:
    from bot.lifecycle.workspace import Workspace
    from bot.llm.guard import Meter

OnText = Callable[[str], None]


def session_for(
    ws: Workspace,
    query: str,
    *,
    model: str | None = None,
    prompter: Prompter | None = None,
    on_text: OnText | None = None,
    steer: Callable[[str], str | None] | None = None,
) -> Session:
    """A session on the RFD ``query`` names (``045``, ``D32``...); ``steer``: ``--edit``."""
    doc = ws.document(query)
    found = ws.find(query)
    base = Session.from_workspace(ws, model=model, prompter=prompter, on_text=on_text, steer=steer)
    return base.for_rfd(found.rfd_id, found.path, doc.title)


def active_reviews(session: Session, *, impl: bool = False) -> list[ReviewText]:
    """The reviews refine applies, oldest first."""
    store: Any = session.store
    files = store.list_reviews(session.rfd_id, impl=impl)
    return [ReviewText(store.show(f.path), Path(f.path).read_text(encoding="utf-8")) for f in files]


def refine_rfd(ws: Workspace, query: str, **options: Any) -> RefineResult:
    """``rfd refine``: the rule-of-five loop over the RFD and its active reviews; on an
    Accepted RFD, the implementation's changes its implementation reviews ask for."""
    from bot.model.status import Status

    session = session_for(ws, query, **options)
    doc = ws.document(query)
    if doc.status is not Status.ACCEPTED:
        return refine(session, active_reviews(session))
    from bot.agent.implementation.refine import refine_implementation

    reviews = active_reviews(session, impl=True)
    context = _implementation(ws, session, doc)
    values = held_values(ws.config, os.environ)
    with opened(
        ws.root
    ) as copy:  # as implement: the model works in a copy (bot.agent.implementation.work_copy)
        session = replace(session, work_root=copy.path, secrets=values)
        try:
            return refine_implementation(session, doc.text, reviews, context)
        finally:
            _take(session, copy, values)


def _implementation(ws: Workspace, session: Session, doc: Any) -> list[tuple[str, str]]:
    """What an implementation refine sees besides the RFD: phase summaries, then the diff
    since acceptance (its notices shown, as the implementation review shows them)."""
    from bot.ai.impl_diff import review_diff
    from bot.events import Notice

    summaries = sorted(ws.store.phase_summaries(session.event_id).items())
    docs = [(f"summary of phase {n}", Path(p).read_text(encoding="utf-8")) for n, p in summaries]
    diff = review_diff(ws, doc)
    for notice in diff.notices:
        ws.bus.emit(Notice(rfd_id=session.event_id, message=notice, level="warning"))
    return docs + ([(diff.label, diff.text)] if diff.text else [])


def implement_rfd(
    ws: Workspace,
    query: str,
    *,
    phase: str | int | None = None,
    restart: bool = False,
    meter: Meter | None = None,
    environ: Mapping[str, str] | None = None,
    **options: Any,
) -> ImplementResult:
    """``rfd implement``: the next (or given) phase — a label such as ``3a``, or a position
    as an ``int`` — the caller saves ``phases/<label>.md``.  ``meter`` (from
    :func:`implement_meter`) lets the caller show what was spent when the run fails.
    The model works in a copy of the repository (:mod:`bot.agent.implementation.work_copy`); what it
    changed there is taken into ``ws.root`` as validated data
    (:mod:`bot.agent.implementation.work_copy`)
    even when the run stops, and each change left out is a warning and in the result.
    ``environ``: where the job's secrets are (default: the process environment)."""
    session = session_for(ws, query, **options)
    work = prepare(session, ws.document(query).text, phase)
    values = held_values(ws.config, os.environ if environ is None else environ)
    with opened(ws.root) as copy:
        session = replace(session, work_root=copy.path, secrets=values)
        try:
            result = implement(session, work, restart=restart, meter=meter)
        finally:
            taken = _take(session, copy, values)
    return replace(result, refused=taken.refused)


def _take(session: Session, copy: WorkCopy, values: SecretValues) -> Taken:
    """The copy's changes taken into the checkout; each refused one is said."""
    taken = apply(session.root, collect(copy, bounds_for(session.config), values, session.root))
    for line in taken.lines():
        session.bus.emit(Notice(rfd_id=session.event_id, message=line, level="warning"))
    return taken


def implement_meter(ws: Workspace, model: str | None = None) -> Meter:
    """The implement step's budget meter; ConfigError when the budget cannot be enforced."""
    return Session.from_workspace(ws, model=model).meter(Step.IMPLEMENT)


def explore_rfd(ws: Workspace, query: str, notes: str = "", **options: Any) -> AuthorResult:
    return authoring.explore(session_for(ws, query, **options), notes)


def converge_rfd(ws: Workspace, query: str, notes: str = "", **options: Any) -> AuthorResult:
    return authoring.converge(session_for(ws, query, **options), notes)


def draft_rfd(ws: Workspace, query: str, notes: str = "", **options: Any) -> AuthorResult:
    return authoring.draft(session_for(ws, query, **options), notes)


def author(
    ws: Workspace, title: str, notes: str = "", *, category: str = "design", **options: Any
) -> AuthorResult:
    """``rfd author "Title"``: create the draft from its template, then explore."""
    from bot.lifecycle.lifecycle import new_rfd

    outcome = new_rfd(ws, category, title)
    ws.refresh()
    session = session_for(ws, outcome.rfd_id, **options)
    authoring.keep_notes(session, notes)
    return authoring.explore(session, notes or title)
