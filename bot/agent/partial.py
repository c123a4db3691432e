"""What an authoring conversation leaves when it is cut short, and how the next run resumes.

Seed 004: a timeout mid-loop saves the partial result with a warning.  When explore,
converge or draft stops on a timeout, another provider failure, its budget or Ctrl-C,
the exchange so far is saved as ``conversations/<step>.partial.md`` and, for explore,
the last answer as ``explore.partial.md`` — beside ``explore.md``, never over it.  Both
say at the top that they are partial.  The next run of the step reads them back as
documents (it resumes), and a run that completes removes them: its own transcript
carries them on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from bot.agent.context import Step
from bot.agent.loop import final_text
from bot.agent.session import Session
from bot.agent.transcript import render
from bot.core.errors import Interrupted, LeftPrompt, RfdError
from bot.events import ConversationSaved, Notice
from bot.llm.base import Message

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
