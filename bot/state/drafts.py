"""Draft numbers are never reused: what the state directory remembers about them.

When draft D7 becomes RFD 012, promotion writes ``.state/012/draft-id`` holding
``D7``.  The next draft number is one more than the highest draft number found in
the draft files, the state directories named ``D<n>`` and those records — so "D7"
in an old pull request, comment or branch name keeps meaning one document.
"""

from __future__ import annotations

import os
import re

from bot.state.files import Key
from bot.state.store import StateStore

DRAFT_ID = "draft-id"
_DRAFT = re.compile(r"^[Dd]([0-9]{1,6})$")


def record(store: StateStore, new: Key, old: Key) -> None:
    """Remember that ``new`` was the draft ``old`` (``.state/<new>/draft-id``)."""
    old_key = old if isinstance(old, str) else old.state_key
    store.write_text(new, DRAFT_ID, f"{old_key}\n")


def highest_used(store: StateStore) -> int:
    """The highest draft number the state directory knows of (0 when none)."""
    numbers = [_number(name) or _recorded(store, name) for name in _folders(store)]
    return max(numbers, default=0)


def held(store: StateStore) -> set[int]:
    """The draft numbers that have a state directory now (``D5/``, ``D05/``)."""
    return {n for n in map(_number, _folders(store)) if n}


def _folders(store: StateStore) -> list[str]:
    try:
        with os.scandir(store.base) as entries:
            return [e.name for e in entries if e.is_dir()]
    except (FileNotFoundError, NotADirectoryError):
        return []


def _number(text: str) -> int:
    match = _DRAFT.match(text.strip())
    return int(match[1]) if match else 0


def _recorded(store: StateStore, name: str) -> int:
    if not name.isdigit():
        return 0
    try:
        with open(os.path.join(store.base, name, DRAFT_ID), encoding="utf-8") as handle:
            return _number(handle.read(64))
    except (OSError, UnicodeDecodeError):
        return 0  # no record (most RFDs) or an unreadable one: nothing to count
