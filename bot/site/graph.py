"""The links between RFDs as a graph, and the graph as an SVG picture (pure).

An edge ``(source, kind, target)`` says the header of ``source`` names ``target`` under
``kind`` (Requires, Extends, Supersedes).  Back-links are these edges read backwards — never
the ``Superseded by`` or ``Required by`` lines a header may carry, which can be stale.
Links to ids no RFD has are kept apart (:attr:`Graph.dangling`).

The picture (:func:`draw`) is a layered drawing, no layout engine needed.  An RFD sits
one column right of every RFD it requires, extends or supersedes (the longest chain of
links decides its column; a cycle is cut where it closes), rows inside a column ordered
by where their neighbours are.  Boxes are coloured by status through CSS classes, so the
page's light and dark themes apply; each box is a link to the RFD's page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from markupsafe import escape

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


BOX_W, BOX_H = 176, 26
COL_GAP, ROW_GAP, PAD = 64, 12, 12
CAPTION = 22
"""Characters of a box's caption (the id and the start of the title)."""
DASH = {"requires": "", "extends": "6 4", "supersedes": "2 3"}


def layers(nodes: Sequence[str], edges: Iterable[Edge]) -> dict[str, int]:
    """Column of each node: 0 for those that depend on nothing, else 1 + the deepest target."""
    deps: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        deps[edge.source].append(edge.target)
    depth: dict[str, int] = {}
    for node in nodes:
        _depth(node, deps, depth)
    return depth


def _depth(start: str, deps: Mapping[str, list[str]], depth: dict[str, int]) -> None:
    """Iterative depth-first search (10,000 RFDs in a chain must not hit the recursion limit)."""
    on_path: set[str] = set()
    stack: list[tuple[str, int]] = [(start, 0)]
    while stack:
        node, index = stack.pop()
        if node in depth:
            continue
        on_path.add(node)
        targets = deps.get(node, [])
        if index < len(targets):
            stack.append((node, index + 1))
            target = targets[index]
            if target not in depth and target not in on_path:
                stack.append((target, 0))
            continue
        on_path.discard(node)
        depth[node] = 1 + max((depth.get(t, -1) for t in targets if t in depth), default=-1)


def positions(nodes: Sequence[str], edges: Sequence[Edge]) -> dict[str, tuple[int, int]]:
    """``(column, row)`` of each node; rows ordered by the mean row of the nodes they link to."""
    column = layers(nodes, edges)
    neighbours: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        neighbours[edge.source].append(edge.target)
        neighbours[edge.target].append(edge.source)
    by_column: dict[int, list[str]] = defaultdict(list)
    for node in nodes:
        by_column[column[node]].append(node)
    placed: dict[str, tuple[int, int]] = {}
    for col in sorted(by_column):
        own = {n: row for row, n in enumerate(by_column[col])}
        members = sorted(own, key=lambda n: _barycentre(n, neighbours, placed, own[n]))
        placed.update({n: (col, row) for row, n in enumerate(members)})
    return placed


def _barycentre(
    node: str, neighbours: Mapping[str, list[str]], placed: Mapping[str, tuple[int, int]], own: int
) -> float:
    rows = [placed[n][1] for n in neighbours.get(node, ()) if n in placed]
    return sum(rows) / len(rows) if rows else float(own)


def draw(
    nodes: Sequence[str],
    edges: Sequence[Edge],
    status: Mapping[str, str],
    href: Callable[[str], str],
    *,
    title: Callable[[str], str] = str,
    caption: Callable[[str], str] = lambda _: "",
    focus: str | None = None,
    label: str = "Dependency graph",
) -> str:
    """The SVG element (inline in a page) of ``nodes`` and the ``edges`` between them."""
    where = positions(nodes, edges)
    width = PAD * 2 + BOX_W + (BOX_W + COL_GAP) * max((c for c, _ in where.values()), default=0)
    height = PAD * 2 + BOX_H + (BOX_H + ROW_GAP) * max((r for _, r in where.values()), default=0)
    parts = [
        f'<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="group" '
        f'aria-label="{escape(label)}">',
        '<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" class="arrowhead"/>'
        "</marker></defs>",
    ]
    parts += [_edge(e, where) for e in edges if e.source in where and e.target in where]
    parts += [
        _node(n, where[n], status.get(n, ""), href(n), title(n), caption(n), n == focus)
        for n in nodes
    ]
    parts.append("</svg>")
    return "".join(parts)


def _xy(place: tuple[int, int]) -> tuple[int, int]:
    col, row = place
    return PAD + col * (BOX_W + COL_GAP), PAD + row * (BOX_H + ROW_GAP)


def _edge(edge: Edge, where: Mapping[str, tuple[int, int]]) -> str:
    sx, sy = _xy(where[edge.source])
    tx, ty = _xy(where[edge.target])
    x1, y1, x2, y2 = sx, sy + BOX_H // 2, tx + BOX_W, ty + BOX_H // 2
    mid = (x1 + x2) // 2
    curve = f"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}"
    if x2 >= x1:  # points right or within a column (a cycle, cut): a loop below both boxes
        x1, y1, x2, y2 = sx + BOX_W // 2, sy + BOX_H, tx + BOX_W // 2, ty + BOX_H
        low = max(y1, y2) + ROW_GAP + BOX_H // 2
        curve = f"M{x1},{y1} C{x1},{low} {x2},{low} {x2},{y2}"
    dash = DASH[edge.kind]
    style = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<path class="edge {edge.kind}" d="{curve}" fill="none"{style} '
        f'marker-end="url(#arrow)"><title>{escape(edge.source)} {escape(edge.kind)} '
        f"{escape(edge.target)}</title></path>"
    )


def _short(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"


def _node(
    node: str, place: tuple[int, int], status: str, href: str, title: str, label: str, focus: bool
) -> str:
    x, y = _xy(place)
    ring = " focus" if focus else ""
    rest = f" {escape(_short(label, CAPTION - len(node)))}" if label else ""
    return (
        f'<a href="{escape(href)}" class="node{ring}"><title>{escape(title)}</title>'
        f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" '
        f'class="st-{escape(status.lower())}"/>'
        f'<text x="{x + 9}" y="{y + BOX_H // 2 + 4}"><tspan class="rid">{escape(node)}</tspan>'
        f"{rest}</text></a>"
    )
