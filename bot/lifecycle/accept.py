"""``accept``: extract the plan, promote, open the tracking issue — or change nothing."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from bot.config.load import ConventionsSection
from bot.core.atomic import read_exact
from bot.core.errors import InvalidStructure, TransitionError
from bot.core.text import plural
from bot.events import Notice, PlanExtracted
from bot.forge.base import Issue
from bot.lifecycle import publish
from bot.lifecycle.accept_gate import check_acceptable, check_decided_before, untracked
from bot.lifecycle.lifecycle import promote
from bot.lifecycle.workspace import Workspace
from bot.model import document, plan
from bot.model.plan import PlanPhase
from bot.model.status import Status

if TYPE_CHECKING:
    from bot.llm.usage import Entry


NUMBERED = "{old} is now RFD {rid} ({new}); "
"""What accepting an RFC proposal says first: the number it took and its new file."""
NO_MODEL = "; no AI model is configured to read the plan from the text instead"


@dataclass(frozen=True)
class AcceptOutcome:
    rfd_id: str
    phases: tuple[PlanPhase, ...]
    method: str
    issue: Issue
    path: Path
    changed: tuple[Path, ...]
    message: str
    usage: Entry | None = None  # the model call's, when the headings gave no plan
    notices: tuple[str, ...] = ()
    """What had to be cut from the model's prompt to fit the context."""
    kept: bool = False
    """Accepted before (:func:`accepted_before`): the status was not changed."""


class Extraction(NamedTuple):
    """The plan accept would use, how it was found, and the model call's usage if any."""

    phases: tuple[PlanPhase, ...]
    method: str
    usage: Entry | None = None
    notices: tuple[str, ...] = ()
    """What had to be cut from the model's prompt to fit the context."""


def extract_plan(ws: Workspace, query: str, *, model: str | None = None) -> Extraction:
    """The plan ``accept`` would use: deterministic first (0 tokens), then the model if online
    (``model``, when given, instead of the accept step's configured one)."""
    file = ws.find(query)
    doc = ws.document(file)
    result = plan.extract(doc)
    if result.phases:
        return Extraction(result.phases, "deterministic")
    if not ws.llm_for("accept", model).offline:
        from bot.ai.plan import STEP, extract_plan_called
        from bot.llm.usage import entry

        phases, called, notices = extract_plan_called(ws, doc, model=model)
        if phases:
            used = entry(STEP, called.model, called.reply.usage, at=ws.clock())
            return Extraction(phases, "model", used, notices)
    section = doc.section("Implementation Plan")
    syntax = plan.syntax_of(file.path)
    offline = NO_MODEL if ws.llm.offline else ""
    raise InvalidStructure(
        f"no plan to extract: {result.problem}{offline}",
        path=file.path,
        line=result.line or (section.line if section else None),
        hint=(
            "set ANTHROPIC_API_KEY (or OPENAI_API_KEY with provider.base_url) to let the "
            "model read the plan, or "
            if offline
            else ""
        )
        + f"write {syntax.phase} blocks with a description under `{syntax.section}`, "
        "then run accept again (nothing was promoted)",
    )


NO_PLAN = "no plan"
NO_PLAN_NOTE = "without a plan ([process] accepted_needs_plan = false)"


def _plan_to_accept(ws: Workspace, rid: str, model: str | None) -> Extraction:
    """The plan to accept ``rid`` with: none, when the RFD has no Implementation Plan section
    and the repository's process accepts RFDs without one (Oxide's published RFDs rarely
    plan phases; ``rfd init`` detects it); otherwise what :func:`extract_plan` finds."""
    no_section = ws.document(rid).section(plan.SECTION) is None
    if no_section and not ws.config.process.accepted_needs_plan:
        return Extraction((), NO_PLAN)
    return extract_plan(ws, rid, model=model)


def accept(
    ws: Workspace,
    query: str,
    *,
    model: str | None = None,
    by: str = "",
    number: int | None = None,
    pull_url: str = "",
) -> AcceptOutcome:
    """Accept the RFD ``query`` names; ``by``: who accepts it (the verified login of the
    event on GitHub), recorded with the sign-offs that counted when ``[consensus]`` is on.
    An RFD Accepted already whose plan was never extracted is taken on as it is
    (:func:`accepted_before`).  An RFC proposal (``text/0000-slug.md``) is numbered first:
    ``number`` (its pull request's, ``pull_url``), else the next free number."""
    from bot.lifecycle.tracking_issue import track

    changed: list[Path] = []
    file = ws.find(query)
    numbered, extracted = "", None
    if file.proposal:  # an RFC proposal takes its number first: the rest is the RFD's
        extracted = _plan_to_accept(ws, file.path, model)  # refused here, nothing renamed
        new_id, new_path, moved = publish.number_proposal(ws, file, number, pull_url)
        changed += moved
        numbered = NUMBERED.format(old=file.path, rid=new_id, new=ws.rel(new_path))
        file = ws.find(str(new_id))
    rid = str(file.rfd_id)
    if untracked(ws, ws.document(file)):
        kept = accepted_before(ws, rid, model=model, extracted=extracted)
        return replace(kept, message=numbered + kept.message, changed=(*changed, *kept.changed))
    check_acceptable(ws, file.path, ws.document(file))  # fails before anything changes
    signers = _signers(ws, rid)
    phases, method, usage, notices = extracted or _plan_to_accept(ws, rid, model)
    if ws.document(rid).status is Status.DRAFT:
        outcome = promote(ws, rid, Status.DISCUSSION)
        changed += outcome.changed
        rid = outcome.rfd_id
    previous = ws.store.read_text(rid, "plan.json")
    ws.store.write_plan(rid, phases)
    changed.append(ws.store.dir(rid) / "plan.json")
    if method == NO_PLAN:
        said = f"RFD {rid} has no {plan.SECTION} section: accepted {NO_PLAN_NOTE}"
        ws.bus.emit(Notice(rfd_id=rid, message=said))
    else:
        titles = tuple(p.title for p in phases)
        ws.bus.emit(PlanExtracted(rfd_id=rid, phases=titles, method=method))
    try:
        outcome = promote(ws, rid, Status.ACCEPTED)
    except Exception:  # an interceptor vetoed: put plan.json back as it was
        if previous is None:
            ws.store.remove_tree(rid, "plan.json")  # it did not exist before this run
        else:
            ws.store.write_text(rid, "plan.json", previous)
        raise
    changed += outcome.changed
    issue = track(ws, rid, "accepted")
    path = ws.path(ws.find(rid))
    _record_tracking(ws, path, tracking_header(issue, ws.config.conventions, path.name))
    if by and ws.config.consensus.enabled:
        changed.append(_record_decision(ws, rid, path, by, signers))
    planned = NO_PLAN_NOTE if method == NO_PLAN else f"with {plural(len(phases), 'phase')}"
    msg = f"{numbered}RFD {rid} accepted {planned} ({method}); tracking issue #{issue.number}"
    changes = tuple(dict.fromkeys(changed))
    return AcceptOutcome(rid, phases, method, issue, path, changes, msg, usage, notices)


WAS_ACCEPTED = (
    "RFD {rid} was already Accepted: its plan has {phases} ({method}), tracking issue "
    "#{issue}; its status stays Accepted"
)


def accepted_before(
    ws: Workspace, query: str, *, model: str | None = None, extracted: Extraction | None = None
) -> AcceptOutcome:
    """An RFD accepted by hand taken on: its plan extracted into ``plan.json`` (the same
    extraction and the same error as accept's), its tracking issue opened — or found by its
    marker — and linked from the header; the status is not touched.  ``extracted``: the plan
    accept found already (an RFC proposal's, before it was numbered)."""
    from bot.lifecycle.tracking_issue import track

    file = ws.find(query)
    rid, doc = str(file.rfd_id), ws.document(file)
    if not untracked(ws, doc):
        raise TransitionError(
            f"RFD {rid} is {doc.status.value} with a plan: nothing to take on",
            path=file.path,
            hint=f"`rfd status {rid}` shows where it stands",
        )
    check_decided_before(ws, doc, file.path)
    phases, method, usage, notices = extracted or extract_plan(ws, rid, model=model)
    plan_path = ws.store.write_plan(rid, phases)
    ws.bus.emit(PlanExtracted(rfd_id=rid, phases=tuple(p.title for p in phases), method=method))
    try:
        issue = track(ws, rid, "accepted")  # found by its marker if a run opened it already
    except Exception:  # no issue: no plan.json either, so running accept again takes it on
        ws.store.remove_tree(rid, "plan.json")
        raise
    path = ws.path(file)
    _record_tracking(ws, path, tracking_header(issue, ws.config.conventions, path.name))
    phrase = plural(len(phases), "phase")
    msg = WAS_ACCEPTED.format(rid=rid, phases=phrase, method=method, issue=issue.number)
    changes = (plan_path, path)
    return AcceptOutcome(rid, phases, method, issue, path, changes, msg, usage, notices, kept=True)


def _signers(ws: Workspace, rid: str) -> tuple[str, ...]:
    """The logins whose sign-offs count now (empty without ``[consensus]``)."""
    if not ws.config.consensus.enabled:
        return ()
    from bot.lifecycle.signoff import current_standing

    return tuple(a.login for a in current_standing(ws, rid).counted)


def _record_decision(
    ws: Workspace, rid: str, path: Path, by: str, signers: tuple[str, ...]
) -> Path:
    """The ledger says who accepted the RFD, with whose sign-offs, at its accepted content."""
    from bot.model import consensus

    ledger = ws.store.read_consensus(rid)
    rev = consensus.revision(read_exact(path))
    return ws.store.write_consensus(rid, consensus.accept(ledger, by, rev, ws.clock(), signers))


def tracking_header(issue: Issue, style: ConventionsSection, name: str = "") -> str | None:
    """The ``Tracking Issue`` header value, None when the issue stays in the state directory
    only: the repository says so, or the issue is the local forge's (its number means
    nothing on GitHub, its path nothing to a reader of the RFD)."""
    if style.tracking_issue == "state" or issue.url.startswith("local:"):
        return None
    if name.endswith((".adoc", ".asciidoc")):  # the RFD file's name: AsciiDoc links its way
        return f"{issue.url}[#{issue.number}]"
    return f"[#{issue.number}]({issue.url})"


def _record_tracking(ws: Workspace, path: Path, value: str | None) -> None:
    if value is None:
        return
    text = read_exact(path)
    linked = document.set_field(text, "Tracking Issue", value)
    if linked != text:
        ws.write_rfd(path, linked)
