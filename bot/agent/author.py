"""The authoring conversations of seed 000: explore, converge, draft.

Each is a conversation with the person at the terminal (their next message comes
through the :class:`~bot.agent.permission.Prompter`; an empty answer ends it).  The
model writes only through its dedicated tool: ``rfd_explore_summary``,
``rfd_decision``, or ``rfd_draft`` + ``rfd_section`` — each confirmed in ask mode.
``draft`` refuses to start before ``decisions.md`` exists; an empty RFD (or an empty
``decisions.md`` for draft) is refused before any model call.  A conversation cut short
(timeout, Ctrl-C, budget) keeps what it produced and the next run resumes from it
(:mod:`bot.agent.partial`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.agent import partial, transcript
from bot.agent.context import Step, Store
from bot.agent.loop import Stop, run
from bot.agent.rfd_tools import RFD_EXPLORE_SUMMARY
from bot.agent.session import Session
from bot.core.errors import BudgetExceeded, GateError, PluginFailed, ProviderError, ValidationError
from bot.llm.base import Message, Usage
from bot.llm.guard import require_input
from bot.model import document

YOUR_TURN = "you (enter to finish)>"
NOTES = "notes.md"
"""The problem statement ``rfd author --notes`` was given: a document of every step."""
END_WORDS = frozenset({"", "/done", "/quit", "/exit"})
EMPTY = "{step} stopped: the model answered nothing, even when asked again; nothing was saved"


@dataclass(frozen=True)
class AuthorResult:
    step: Step
    text: str
    """The final assistant message (what explore saves when its tool was not used)."""
    saved: str | None
    """The state file written from the final message, if any."""
    usage: Usage
    cost_usd: float
    exchanges: int
    declined: tuple[str, ...] = ()
    """The tools whose proposals the person declined."""
    applied: tuple[str, ...] = ()
    """The tools that ran (a summary written again with the same text included)."""


def explore(session: Session, notes: str) -> AuthorResult:
    """Research the problem; ``explore.md`` is the summary tool's or the final answer."""
    store = _store(session)
    before = store.read_text(session.rfd_id, "explore.md")
    docs = [_rfd_document(session)]
    docs += [d for d in _state_documents(session, NOTES) if d[1].strip() != notes.strip()]
    if before:
        docs.append(("explore.md (earlier research)", before))
    result = _converse(session, Step.EXPLORE, docs, notes)
    written = store.read_text(session.rfd_id, "explore.md") != before
    if written or RFD_EXPLORE_SUMMARY.name in result.applied:  # the summary tool saved it
        return _with_saved(result, "explore.md")
    if RFD_EXPLORE_SUMMARY.name in result.declined or not result.text:
        return result  # the person said no to saving: the final answer is not saved either
    store.write_explore(session.rfd_id, result.text + "\n")
    return _with_saved(result, "explore.md")


def converge(session: Session, notes: str = "") -> AuthorResult:
    """Settle design decisions; ``decisions.md`` evolves through ``rfd_decision``."""
    docs = [_rfd_document(session), *_state_documents(session, NOTES, "explore.md", "decisions.md")]
    return _converse(session, Step.CONVERGE, docs, notes)


def draft(session: Session, notes: str = "") -> AuthorResult:
    """Write the RFD section by section (the two-stage rule is in the prompt)."""
    decisions = _store(session).read_text(session.rfd_id, "decisions.md")
    if decisions is None:
        raise GateError(
            "there are no decisions to draft from yet",
            hint=f"run `rfd converge {session.event_id}` first",
        )
    require_input(decisions, f"decisions.md of RFD {session.event_id}")
    docs = [_rfd_document(session), *_state_documents(session, "decisions.md", NOTES, "explore.md")]
    return _converse(session, Step.DRAFT, docs, notes, sections=list(_sections(session)))


def keep_notes(session: Session, notes: str) -> None:
    """Store the author's notes, so that converge and draft read them as a document."""
    if notes.strip():
        _store(session).write_text(session.rfd_id, NOTES, notes.strip() + "\n")


def _store(session: Session) -> Store:
    if session.store is None or session.rfd_id is None:
        raise ValidationError("authoring needs an RFD id and its state directory")
    return session.store


def _rfd_text(session: Session) -> str | None:
    target = Path(session.root, session.rfd_path) if session.rfd_path else None
    return target.read_text(encoding="utf-8") if target and target.is_file() else None


def _rfd_document(session: Session) -> tuple[str, str]:
    """The RFD as the model sees it; ValidationError when the file is there but empty."""
    text = _rfd_text(session)
    if text is None:
        return f"RFD {session.rfd_path}", "(the file does not exist yet)"
    return f"RFD {session.rfd_path}", require_input(text, f"RFD {session.rfd_path}")


def _sections(session: Session) -> tuple[str, ...]:
    text = _rfd_text(session)
    if text is None:
        return ()
    return tuple(s.title for s in document.parse(text, session.rfd_path or "").sections)


def _state_documents(session: Session, *names: str) -> list[tuple[str, str]]:
    found = ((n, _store(session).read_text(session.rfd_id, n)) for n in names)
    return [(name, text) for name, text in found if text]


def _converse(
    session: Session, step: Step, docs: list[tuple[str, str]], notes: str, **variables: Any
) -> AuthorResult:
    meter = session.meter(step)
    prompt = session.prompt(step.value, **variables)
    progress = partial.Progress(session.on_text)
    conversation = session.conversation(step, prompt.system, meter)
    if session.on_text is not None:  # streaming: keep what a cut-off reply had said
        conversation = replace(conversation, on_text=progress.on_text)
    messages = opening = session.opening(prompt, [*docs, *partial.earlier(session, step)], notes)
    exchanges, result = 0, None
    try:
        while True:
            result = run(conversation, messages, progress=progress.messages)
            exchanges += 1
            if result.stop is Stop.EMPTY:
                break
            answer = _next_message(session)
            if answer is None:
                break
            messages = (*result.messages, Message("user", answer))
    except (KeyboardInterrupt, ProviderError, BudgetExceeded, PluginFailed) as exc:  # keep it
        talk = progress.so_far()[len(opening) - 1 :]  # the documents are on file already
        interrupted = partial.save(session, step, talk, exc)
        if interrupted is None and isinstance(exc, KeyboardInterrupt):
            interrupted = partial.nothing_saved(session, step, exc)
        if interrupted is None:
            raise
        raise interrupted from exc
    if result.stop is Stop.EMPTY:  # nothing to save, nothing to resume from
        raise ProviderError(
            EMPTY.format(step=step.value),
            hint=f"run `rfd {step.value} {session.event_id}` "
            "again, or choose another model with --model",
        )
    transcript.save(session, step.value, result.messages)
    partial.clear(session, step)
    calls = conversation.calls
    return AuthorResult(
        step,
        result.text,
        None,
        meter.usage,
        meter.cost_usd,
        exchanges,
        tuple(calls.declined),
        tuple(calls.applied),
    )


def _next_message(session: Session) -> str | None:
    if session.prompter is None:
        return None
    answer = session.prompter.ask(YOUR_TURN)
    return None if answer is None or answer.strip() in END_WORDS else answer


def _with_saved(result: AuthorResult, saved: str) -> AuthorResult:
    return replace(result, saved=saved)
