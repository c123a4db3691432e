"""The preconditions of a status change, checked against one version of the repository.

→ Accepted: a valid ``plan.json`` in the RFD's state directory, or an Implementation
Plan section from which one can be extracted, every Requires target at least
Accepted, and (with a ``[consensus]`` table) the approvals, no open concern and an
elapsed final comment period in ``consensus.json`` (as far as it can be trusted:
:mod:`hooks._signoffs`).  → Implemented: a summary
``phases/<label>.md`` for every phase of the plan that is not ``(optional)``/
``(deferred)``, and every Requires target Implemented.  ``[process]`` may drop the
plan or the phases, and makes Extends gate like Requires.  Phases
are named as ``bot.model.phase_ids`` says (``phases/3a.md``, ``phases/01.md`` is phase 1).  An
empty plan meets neither gate.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from bot.core.errors import GateError, RfdError
from bot.core.text import plural
from bot.model.status import Status, check_gates
from hooks import _git
from hooks._common import Layout, decode
from hooks._tree import Statuses, Tree

if TYPE_CHECKING:
    from bot.model.document import Document
    from bot.model.ids import RfdId
    from bot.model.plan import PlanPhase
    from bot.model.process import Process

PLAN_HINT = (
    "{how} (`rfd accept {id}` writes {plan}; for an RFD accepted before rfd-bot, "
    "`rfd track {id}`, or `rfd adopt` to leave the statuses of history alone)"
)


EMPTY_HINT = (
    "add {phase} headings to the Implementation Plan and see what they give "
    "with `rfd plan {id}`; then put them in {plan} (or delete it and run `rfd accept {id}`)"
)


def check(
    doc: Document,
    rfd_id: RfdId,
    new: Status,
    tree: Tree,
    layout: Layout,
    statuses: Callable[[], Statuses],
    process: Process,
) -> list[RfdError]:
    """Every unmet gate of moving ``doc`` to ``new`` in ``tree`` (empty when all are met),
    as ``process`` sets them."""
    if new not in (Status.ACCEPTED, Status.IMPLEMENTED):
        return []
    problems: list[RfdError] = []
    implemented = new is Status.IMPLEMENTED
    github = _github(tree) if not implemented and layout.consensus is None else None
    if process.implemented_needs_phases if implemented else process.accepted_needs_plan:
        phases = _plan(doc, rfd_id, tree, layout, problems)
        if implemented and phases:
            problems.extend(_phases_done(doc.path, rfd_id, phases, tree, layout))
    requires = tuple(dict.fromkeys(r for key in process.gating_keys() for r in doc.links(key)))
    if requires:
        problems.extend(_requires(doc.path, new, statuses().lookup(requires)))
    if new is Status.ACCEPTED:  # on GitHub the default branch's [consensus] decides
        problems.extend(_signed_off(doc, rfd_id, tree, layout, github))
    return problems


def _github(tree: Tree, environ: Mapping[str, str] = os.environ) -> Callable[[], bool]:
    """Whether origin is on GitHub, asked for a branch without a ``[consensus]`` of its own
    (the default branch's then decides).  Outside Actions, with no default branch fetched
    there are no sign-offs to count (:func:`hooks._signoffs.counted`) and git is not asked;
    otherwise it answers while the plan and the required RFDs are read."""
    fetched = (tree.has_commit(ref) for ref in _git.base_refs(environ))
    if environ.get("GITHUB_ACTIONS") != "true" and not any(found is not False for found in fetched):
        return lambda: False
    return _git.github_probe(tree.root, environ)


def _signed_off(
    doc: Document, rfd_id: RfdId, tree: Tree, layout: Layout, github: Callable[[], bool] | None
) -> list[RfdError]:
    """The sign-offs ``[consensus]`` asks for (on GitHub: the default branch's), as far as
    the ledger can be trusted (:mod:`hooks._signoffs`); ``github``: whether origin is on
    GitHub, when asked already (always without a ``[consensus]`` here)."""
    if github is not None and not github():
        return []  # no sign-offs asked for here, nor on a default branch to honour
    import time
    from functools import partial

    from bot.lifecycle.consensus_gate import standing
    from bot.model import consensus
    from hooks import _signoffs

    path = layout.state_path(rfd_id, consensus.FILE)
    try:
        trust = _signoffs.counted(
            tree.root,
            tree.commit,
            path,
            tree.text(path),
            partial(_signoffs.load, layout.bot_login),
            github=github,
        )
    except RfdError as err:
        return [err]
    if trust.problem:
        return [GateError(f"cannot move to Accepted: {trust.problem}", path=doc.path)]
    rules = trust.rules if trust.from_base else layout.consensus
    if rules is None:
        return []
    rev = consensus.revision(doc.text)
    found = standing(rules, trust.ledger, str(rfd_id), rev, time.time())
    if found.met:
        return []
    hint = f"see `rfd status {rfd_id}`; {path} records them"
    if trust.unverified:
        hint = f"not counted, written by hand: {_signoffs.WHAT_TO_DO}"
    return [
        GateError(
            f"cannot move to Accepted: the sign-offs are not in ({'; '.join(found.missing)})",
            path=doc.path,
            hint=hint,
            alternatives=trust.unverified,
        )
    ]


def _plan(
    doc: Document, rfd_id: RfdId, tree: Tree, layout: Layout, problems: list[RfdError]
) -> tuple[PlanPhase, ...]:
    from bot.model import plan

    path = layout.state_path(rfd_id, "plan.json")
    data = tree.read(path)
    if data is not None:
        try:
            phases = plan.loads(decode(data, path), path)
        except RfdError as err:
            problems.append(err)
            return ()
        if not phases:
            problems.append(
                GateError(
                    f"cannot move to {doc.status}: {path} is an empty plan (no phases)",
                    path=doc.path,
                    hint=EMPTY_HINT.format(
                        id=rfd_id, plan=path, phase=plan.syntax_of(doc.path).phase
                    ),
                )
            )
        return phases
    found = plan.extract(doc)
    if found.phases:
        return found.phases
    problems.append(
        GateError(
            f"cannot move to {doc.status}: no plan ({found.problem or 'no phases found'})",
            path=doc.path,
            hint=PLAN_HINT.format(
                id=rfd_id, plan=path, how=plan.syntax_of(doc.path).how_to_write()
            ),
        )
    )
    return ()


def _phases_done(
    doc_path: str, rfd_id: RfdId, phases: tuple[PlanPhase, ...], tree: Tree, layout: Layout
) -> list[RfdError]:
    from bot.model import phase_ids

    done = phase_ids.done(phases, tree.phase_files(layout, str(rfd_id)))
    todo = phase_ids.missing(phases, done)
    if not todo:
        return []
    folder = layout.state_path(rfd_id, "phases")
    missing = tuple(
        f"phase {label}: {phases[n - 1].title} (no {folder}/{label}.md)"
        for n in todo
        if (label := phase_ids.label(phases[n - 1], n))
    )
    return [
        GateError(
            f"cannot move to Implemented: {len(missing)} of {plural(len(phases), 'phase')} "
            "not done",
            path=doc_path,
            hint="finish them first: a phase is done when its phases/<label>.md summary is "
            "committed ((optional) and (deferred) phases do not count)",
            alternatives=missing,
        )
    ]


def _requires(path: str, new: Status, found: Mapping[RfdId, Status | None]) -> list[RfdError]:
    try:
        check_gates(new, found, path=path)
    except GateError as err:
        return [err]
    return []
