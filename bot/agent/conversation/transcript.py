"""A conversation saved as readable markdown in the RFD's state (``conversations/``).

The authoring conversations are where decisions get argued; the transcript keeps the
argument next to the decisions it produced.  Tool results are shortened: the files
they read are in the repository anyway.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.agent.conversation.session import Session
from bot.events import ConversationSaved
from bot.llm.base import Message

RESULT_CHARS = 500


def render(messages: Sequence[Message]) -> str:
    """``messages`` as markdown: one heading per turn, tool calls and results inline."""
    return "".join(_turn(m) for m in messages)


def _turn(message: Message) -> str:
    parts = [message.text.strip()] if message.text.strip() else []
    parts += [_call(c.name, c.arguments) for c in message.tool_calls]
    parts += [_result(r.content, r.is_error) for r in message.tool_results]
    return f"## {message.role}\n\n" + "\n\n".join(parts) + "\n\n" if parts else ""


def _call(name: str, arguments: Mapping[str, Any]) -> str:
    return f"→ `{name}` {json.dumps(dict(arguments), ensure_ascii=False)}"


def _result(content: str, is_error: bool) -> str:
    short = content if len(content) <= RESULT_CHARS else content[:RESULT_CHARS] + " […]"
    return ("← error: " if is_error else "← ") + short.replace("\n", "\n  ")


def save(session: Session, step: str, messages: Sequence[Message]) -> str | None:
    """Write the transcript (``conversations/<step>-<unix time>.md``); its path, or None."""
    if session.store is None or session.rfd_id is None:
        return None
    relpath = f"conversations/{step}-{int(session.clock())}.md"
    path = session.store.write_text(session.rfd_id, relpath, render(messages))
    shown = _relative(Path(path), session.root)
    session.bus.emit(ConversationSaved(rfd_id=session.event_id, step=step, path=shown))
    return shown


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
