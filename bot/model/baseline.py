"""The adoption baseline: the status each RFD had when a repository adopted rfd-bot, and
the commit it was taken at (``<state root>/baseline.json``).

A status an RFD reached before adoption is history: the hooks never gate it again
(``pre-commit run --all-files`` on the untouched corpus passes).  Any change after
adoption is checked as usual.  Pure: reading and writing the file is the caller's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from bot.core.errors import ParseError, ValidationError
from bot.model.ids import RfdId
from bot.model.status import Status

FILE = "baseline.json"
"""The baseline's name under the state root."""
SCHEMA_HINT = (
    'expected {"commit": "<sha>", "statuses": {"045": "Accepted", ...}}; '
    "run `rfd adopt` again to rewrite it"
)


class Baseline(NamedTuple):
    commit: str
    statuses: dict[RfdId, Status]

    def grandfathers(self, rfd_id: RfdId, status: Status) -> bool:
        """Whether ``rfd_id`` had ``status`` already at adoption (so it is not re-gated)."""
        return self.statuses.get(rfd_id) is status


NONE = Baseline("", {})
"""No baseline: nothing is grandfathered."""


def record(commit: str, statuses: Iterable[tuple[str, Status]]) -> str:
    """The file's text for ``statuses`` (id as the file name writes it, status) at ``commit``."""
    table = {key: status.value for key, status in sorted(statuses, key=lambda s: _order(s[0]))}
    return json.dumps({"commit": commit, "statuses": table}, indent=2) + "\n"


def loads(text: str, path: str) -> Baseline:
    """The baseline in ``text``; ParseError naming ``path`` when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"is not JSON ({exc.msg})", path=path, line=exc.lineno,
                         hint=SCHEMA_HINT) from exc  # fmt: skip
    statuses = data.get("statuses") if isinstance(data, dict) else None
    if not isinstance(statuses, Mapping) or not isinstance(data.get("commit", ""), str):
        raise ParseError("is not an adoption baseline", path=path, hint=SCHEMA_HINT)
    out: dict[RfdId, Status] = {}
    for key, word in statuses.items():
        try:
            out[RfdId.parse(key)] = Status(word)
        except (ValueError, ValidationError) as exc:
            raise ParseError(f"bad entry {key!r}: {word!r}", path=path, hint=SCHEMA_HINT) from exc
    return Baseline(data.get("commit", ""), out)


def _order(key: str) -> tuple[bool, int, str]:
    rfd_id = RfdId.parse(key)
    return (rfd_id.draft, rfd_id.number, key)
