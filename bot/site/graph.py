"""The links between RFDs as a graph (pure): edges from the headers, back-links computed.

An edge ``(source, kind, target)`` says the header of ``source`` names ``target`` under
``kind`` (Requires, Extends, Supersedes).  Back-links are these edges read backwards — never
the ``Superseded by`` or ``Required by`` lines a header may carry, which can be stale.
Links to ids no RFD has are kept apart (:attr:`Graph.dangling`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from bot.model.ids import RfdId
from bot.site.records import LINK_KINDS, SiteRfd

BACK = {"requires": "required by", "extends": "extended by", "supersedes": "superseded by"}


@dataclass(frozen=True)
class Edge:
    source: str
    kind: str
    target: str


@dataclass(frozen=True)
class Graph:
    edges: tuple[Edge, ...]
    dangling: tuple[Edge, ...]
    outgoing: dict[str, tuple[Edge, ...]]
    incoming: dict[str, tuple[Edge, ...]]

    def back_links(self, rid: str) -> dict[str, tuple[str, ...]]:
        """``{"required by": (ids…), …}``: who names ``rid``, by kind (empty kinds left out)."""
        found: dict[str, list[str]] = defaultdict(list)
        for edge in self.incoming.get(rid, ()):
            found[BACK[edge.kind]].append(edge.source)
        return {kind: tuple(ids) for kind, ids in found.items()}

    def around(self, rid: str) -> set[str]:
        """``rid`` and the RFDs one link away from it, either way."""
        near = {rid}
        near.update(e.target for e in self.outgoing.get(rid, ()))
        near.update(e.source for e in self.incoming.get(rid, ()))
        return near


def canonical(ids: Iterable[str]) -> dict[object, str]:
    """Each id as a header may write it (``45``, ``045``, ``d5``) → the id its file name gives."""
    return {key(i): i for i in ids}


def key(rid: str) -> object:
    parsed = RfdId.parse(rid)
    return (parsed.draft, parsed.number)


def build(rfds: Iterable[SiteRfd]) -> Graph:
    rfds = list(rfds)
    known = canonical(r.id for r in rfds)
    edges: list[Edge] = []
    dangling: list[Edge] = []
    for rfd in rfds:
        for kind in LINK_KINDS:
            for target in rfd.links(kind):
                found = known.get(key(target))
                if found is None:
                    dangling.append(Edge(rfd.id, kind, target))
                elif found != rfd.id:
                    edges.append(Edge(rfd.id, kind, found))
    outgoing: dict[str, list[Edge]] = defaultdict(list)
    incoming: dict[str, list[Edge]] = defaultdict(list)
    for edge in edges:
        outgoing[edge.source].append(edge)
        incoming[edge.target].append(edge)
    return Graph(
        edges=tuple(edges),
        dangling=tuple(dangling),
        outgoing={k: tuple(v) for k, v in outgoing.items()},
        incoming={k: tuple(v) for k, v in incoming.items()},
    )
