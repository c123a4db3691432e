"""The statuses of the RFDs of one version (:class:`hooks._tree.Tree`), each read and parsed
only when asked for: a hook that checks the two RFDs a document requires parses those two.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from bot.core.errors import RfdError
from bot.model.ids import RfdId

if TYPE_CHECKING:
    from bot.model.status import Status
    from hooks._tree import RfdNames, Tree


class Statuses(Mapping["RfdId", "Status"]):
    """Every RFD id in a tree; the status of one is read (and parsed) only when asked for.

    An RFD whose file does not parse is reported by ``rfd-lint`` on its own; here it
    behaves as if it had no status (``KeyError``).
    """

    def __init__(self, tree: Tree, names: RfdNames) -> None:
        self._tree = tree
        self._names = names
        self._cache: dict[RfdId, Status | None] = {}

    def __contains__(self, key: object) -> bool:
        return isinstance(key, RfdId) and self._names.path(key) is not None

    def __iter__(self) -> Iterator[RfdId]:
        return iter(self._names.all())

    def __len__(self) -> int:
        return len(self._names.all())

    def __getitem__(self, key: RfdId) -> Status:
        if key not in self._cache:
            self._cache[key] = self._load(key)
        status = self._cache[key]
        if status is None:
            raise KeyError(key)
        return status

    def _load(self, key: RfdId) -> Status | None:
        path = self._names.path(key)
        if path is None:
            return None
        try:
            doc = self._tree.document(path)
        except RfdError:
            return None
        return None if doc is None else doc.status

    def lookup(self, ids: Iterable[RfdId]) -> dict[RfdId, Status | None]:
        """Statuses of ``ids`` (None: no such RFD); only those files are read."""
        return {i: self.get(i) for i in ids}
