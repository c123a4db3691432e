"""The adoption baseline: the status each RFD had when a repository adopted rfd-bot, the
lint findings it had then, and the commit it was taken at (``<state root>/baseline.json``).

A status an RFD reached before adoption is history: the hooks never gate it again, and a
finding it had already is not reported again (``rfd lint`` and ``pre-commit run
--all-files`` on the untouched corpus pass).  A finding is known by its file, code and
message (not its line: editing above it does not revive it); any new one counts.  Any
change after adoption is checked as usual.  Pure: reading and writing the file is the caller's.
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
    'expected {"commit": "<sha>", "statuses": {"045": "Accepted", ...}, "findings": '
    '[{"path": "docs/rfd/045-x.md", "code": "RFD015", "message": "..."}, ...]}; '
    "run `rfd adopt` again to rewrite it"
)
FindingKey = tuple[str, str, str]
"""``(path, code, message)`` of a lint finding."""


class Baseline(NamedTuple):
    commit: str
    statuses: dict[RfdId, Status]
    findings: frozenset[FindingKey] = frozenset()

    def grandfathers(self, rfd_id: RfdId, status: Status) -> bool:
        """Whether ``rfd_id`` had ``status`` already at adoption (so it is not re-gated)."""
        return self.statuses.get(rfd_id) is status

    def had(self, path: str, code: str, message: str) -> bool:
        """Whether the lint finding was there already at adoption (so it is not reported)."""
        return (path, code, message) in self.findings


NONE = Baseline("", {})
"""No baseline: nothing is grandfathered."""


def record(
    commit: str, statuses: Iterable[tuple[str, Status]], findings: Iterable[FindingKey] = ()
) -> str:
    """The file's text for ``statuses`` (id as the file name writes it, status) and the lint
    ``findings`` at ``commit``."""
    table = {key: status.value for key, status in sorted(statuses, key=lambda s: _order(s[0]))}
    found = [{"path": p, "code": c, "message": m} for p, c, m in sorted(set(findings))]
    data = {"commit": commit, "statuses": table, "findings": found}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def loads(text: str, path: str) -> Baseline:
    """The baseline in ``text``; ParseError naming ``path`` when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"is not JSON ({exc.msg})", path=path, line=exc.lineno, hint=SCHEMA_HINT
        ) from exc
    statuses = data.get("statuses") if isinstance(data, dict) else None
    if not isinstance(statuses, Mapping) or not isinstance(data.get("commit", ""), str):
        raise ParseError("is not an adoption baseline", path=path, hint=SCHEMA_HINT)
    out: dict[RfdId, Status] = {}
    for key, word in statuses.items():
        try:
            out[RfdId.parse(key)] = Status(word)
        except (ValueError, ValidationError) as exc:
            raise ParseError(f"bad entry {key!r}: {word!r}", path=path, hint=SCHEMA_HINT) from exc
    return Baseline(data.get("commit", ""), out, _findings(data.get("findings", []), path))


def _findings(entries: object, path: str) -> frozenset[FindingKey]:
    if not isinstance(entries, list):
        raise ParseError("'findings' is not a list", path=path, hint=SCHEMA_HINT)
    out = set()
    for entry in entries:
        key = (
            tuple(entry.get(k) for k in ("path", "code", "message"))
            if isinstance(entry, dict)
            else ()
        )
        if len(key) != 3 or not all(isinstance(k, str) for k in key):
            raise ParseError(f"bad finding {entry!r}", path=path, hint=SCHEMA_HINT)
        out.add((str(key[0]), str(key[1]), str(key[2])))
    return frozenset(out)


def _order(key: str) -> tuple[bool, int, str]:
    rfd_id = RfdId.parse(key)
    return (rfd_id.draft, rfd_id.number, key)
