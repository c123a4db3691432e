"""The authoring conversations of seed 000 — explore, converge, draft — and what one cut
short leaves for the next run.

Each is a conversation with the person at the terminal (their next message comes
through the :class:`~bot.agent.toolbox.permission.Prompter`; an empty answer ends it).
The model writes only through its dedicated tool: ``rfd_explore_summary``,
``rfd_decision``, or ``rfd_draft`` + ``rfd_section`` — each confirmed in ask mode.
``draft`` refuses to start before ``decisions.md`` exists; an empty RFD (or an empty
``decisions.md`` for draft) is refused before any model call.

A conversation cut short (seed 004: a timeout, another provider failure, its budget or
Ctrl-C) keeps what it produced, with a warning: the exchange so far is saved as
``conversations/<step>.partial.md`` and, for explore, the last answer as
``explore.partial.md`` — beside ``explore.md``, never over it.  Both say at the top that
they are partial.  The next run of the step reads them back as documents (it resumes),
and a run that completes removes them: its own transcript carries them on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.agent.conversation import transcript
from bot.agent.conversation.loop import Stop, final_text, run
from bot.agent.conversation.session import Session
from bot.agent.conversation.transcript import render
from bot.agent.toolbox.base import Step, Store
from bot.agent.toolbox.rfd import RFD_EXPLORE_SUMMARY, markup_of
from bot.core.errors import (
    BudgetExceeded,
    GateError,
    Interrupted,
    LeftPrompt,
    PluginFailed,
    ProviderError,
    RfdError,
    ValidationError,
)
from bot.events import ConversationSaved, Notice
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
    sections, markup = list(_sections(session)), markup_of(session.rfd_path or "")
    return _converse(session, Step.DRAFT, docs, notes, sections=sections, markup=markup)


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
    progress = Progress(session.on_text)
    conversation = session.conversation(step, prompt.system, meter)
    if session.on_text is not None:  # streaming: keep what a cut-off reply had said
        conversation = replace(conversation, on_text=progress.on_text)
    messages = opening = session.opening(prompt, [*docs, *earlier(session, step)], notes)
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
        interrupted = save(session, step, talk, exc)
        if interrupted is None and isinstance(exc, KeyboardInterrupt):
            interrupted = nothing_saved(session, step, exc)
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
    clear(session, step)
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


TRANSCRIPT = "conversations/{step}.partial.md"
CUT_OFF = "[… cut off here]"
EXPLORE = "explore.partial.md"
BANNER = (
    "> **Partial** — `rfd {step}` was interrupted ({reason}) before it finished. "
    "Run `rfd {step} {rfd}` again to resume from here.\n\n"
)


class Progress:
    """The exchange so far (the loop keeps :attr:`messages` current), and the text of a
    reply that was still streaming when the conversation was cut."""

    def __init__(self, forward: Callable[[str], None] | None = None) -> None:
        self.messages: list[Message] = []
        self._forward = forward
        self._at = 0
        """``len(messages)`` when the chunks in ``_chunks`` streamed: their reply is next."""
        self._chunks: list[str] = []

    def on_text(self, chunk: str) -> None:
        """Stream ``chunk`` on, remembering it until its reply is in :attr:`messages`."""
        if self._at != len(self.messages):  # a new reply: the last one is in messages
            self._at, self._chunks = len(self.messages), []
        self._chunks.append(chunk)
        if self._forward is not None:
            self._forward(chunk)

    def so_far(self) -> list[Message]:
        """:attr:`messages`, plus the reply that was cut off mid-stream, if any."""
        cut = "".join(self._chunks) if self._at == len(self.messages) else ""
        if not cut.strip():
            return list(self.messages)
        return [*self.messages, Message("assistant", f"{cut.rstrip()} {CUT_OFF}")]


def files(step: Step) -> tuple[str, ...]:
    """The partial files ``step`` may leave, relative to the RFD's state directory."""
    return (TRANSCRIPT.format(step=step.value), *((EXPLORE,) if step is Step.EXPLORE else ()))


def earlier(session: Session, step: Step) -> list[tuple[str, str]]:
    """What an interrupted run of ``step`` left, as ``(label, text)`` documents to resume."""
    if session.store is None:
        return []
    found = ((name, session.store.read_text(session.rfd_id, name)) for name in files(step))
    return [(f"{name} (interrupted earlier run)", text) for name, text in found if text]


def clear(session: Session, step: Step) -> None:
    """Remove the partial files once ``step`` has completed a conversation."""
    if session.store is not None:
        for name in files(step):
            session.store.remove_tree(session.rfd_id, name)


def save(
    session: Session, step: Step, messages: Sequence[Message], cause: BaseException
) -> Interrupted | None:
    """Save the exchange so far; the error that tells the person where it is (None: nothing
    the model produced to save)."""
    store = session.store
    if store is None or not any(m.role == "assistant" for m in messages):
        return None
    reason = _reason(cause)
    banner = BANNER.format(step=step.value, reason=reason, rfd=session.event_id)
    saved = [store.write_text(session.rfd_id, files(step)[0], banner + render(messages))]
    text = final_text(messages)
    if step is Step.EXPLORE and text:
        saved.append(store.write_text(session.rfd_id, EXPLORE, f"{banner}{text}\n"))
    shown = [_shown(session, path) for path in saved]
    session.bus.emit(ConversationSaved(rfd_id=session.event_id, step=step.value, path=shown[0]))
    message = f"{step.value} interrupted ({reason}): what it produced is saved in "
    message += " and ".join(shown)
    session.bus.emit(Notice(rfd_id=session.event_id, message=message, level="warning"))
    hint = f"run `rfd {step.value} {session.event_id}` again to resume from it"
    if isinstance(cause, RfdError) and cause.hint:
        hint += f" ({cause.hint})"
    return Interrupted(message, hint=hint)


def nothing_saved(session: Session, step: Step, cause: BaseException) -> Interrupted:
    """The error for a step cut short before the model had said anything worth keeping."""
    message = f"{step.value} stopped ({_reason(cause)}) before the model answered: nothing to save"
    return Interrupted(message, hint=f"run `rfd {step.value} {session.event_id}` to start again")


def _reason(cause: BaseException) -> str:
    if isinstance(cause, LeftPrompt):
        return cause.reason
    if isinstance(cause, KeyboardInterrupt):
        return "Ctrl-C"
    return cause.message if isinstance(cause, RfdError) else str(cause) or type(cause).__name__


def _shown(session: Session, path: object) -> str:
    try:
        return Path(str(path)).resolve().relative_to(session.root.resolve()).as_posix()
    except ValueError:
        return str(path)
