"""Draft's "state intent, then write" rule, enforced where nobody confirms the writes.

In ask mode the person reads the intent and approves each write.  Under ``--yes``
nobody does, so a write of the RFD (``rfd_section``, ``rfd_draft``) is refused unless
the reply that asks for it says, in its own text, what it is about to write.
"""

from __future__ import annotations

import re

WRITES = frozenset({"rfd_section", "rfd_draft"})
"""The tools that write the RFD's text: each needs a stated intent in its reply."""
MIN_WORDS = 2
NO_INTENT = (
    "`{tool}` refused: state your intent first, in the text of the reply that writes — "
    "which section you will write and the points it will make — then call it again"
)
_WORD = re.compile(r"[^\W\d_]{2,}")


def states_intent(text: str) -> bool:
    """Whether ``text`` says something in words (not only a call, a symbol, a number)."""
    return len(_WORD.findall(text)) >= MIN_WORDS


def refusal(tool: str, said: str, required: frozenset[str]) -> str | None:
    """Why the call may not run (None: it may)."""
    if tool in required and not states_intent(said):
        return NO_INTENT.format(tool=tool)
    return None
