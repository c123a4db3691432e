"""The state directory of each RFD — the only package that writes under it.

Layout, under ``<rfd dir>/.state/<id>/``: ``explore.md``, ``decisions.md``,
``plan.json``, ``reviews/<unix-ts>.md``, ``phases/<N>.md``, ``impl-reviews/<unix-ts>.md``
and whatever other files the bot keeps there (``write_text``/``append_line``).  There is
no separate state file: :class:`RfdState` is derived from which files exist, so adding
or deleting a file by hand is how a user repairs state, and reading tolerates any hand
edit (stray files, bad names, missing or empty directories).  Writes are atomic and
nothing is deleted unless the user asked for it (``dismiss``, ``remove_tree``).
"""

from __future__ import annotations

from bot.core.atomic import OnExists, atomic_write, unique_suffix
from bot.state.files import HasStateKey, Key, ReviewFile, RfdState, SharedFiles
from bot.state.store import StateStore

__all__ = [
    "HasStateKey",
    "Key",
    "OnExists",
    "ReviewFile",
    "RfdState",
    "SharedFiles",
    "StateStore",
    "atomic_write",
    "unique_suffix",
]
