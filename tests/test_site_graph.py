"""The dependency graph: edges from headers, back-links computed, and its picture."""

from __future__ import annotations

from bot.site.graph import Edge, build, draw, layers, positions
from bot.site.records import SiteRfd


def rfd(rid: str, status: str = "Draft", **links: tuple[str, ...]) -> SiteRfd:
    return SiteRfd(id=rid, title=f"T{rid}", status=status, path=f"{rid}.md", text="", **links)


def test_back_links_come_from_the_other_rfds_and_ids_are_matched_by_number() -> None:
    graph = build(
        [
            rfd("001"),
            rfd("002", requires=("1",)),  # written without padding
            rfd("003", extends=("001",), supersedes=("002",)),
            rfd("D05", requires=("099",)),  # no RFD 099
        ]
    )
    assert graph.back_links("001") == {"required by": ("002",), "extended by": ("003",)}
    assert graph.back_links("002") == {"superseded by": ("003",)}
    assert graph.dangling == (Edge("D05", "requires", "099"),)
    assert graph.around("001") == {"001", "002", "003"}


def test_a_dependency_sits_left_of_what_needs_it() -> None:
    edges = [Edge("b", "requires", "a"), Edge("c", "requires", "b"), Edge("d", "extends", "a")]
    assert layers(["a", "b", "c", "d"], edges) == {"a": 0, "b": 1, "c": 2, "d": 1}


def test_a_cycle_is_cut_and_a_long_chain_does_not_recurse() -> None:
    cycle = [Edge("a", "requires", "b"), Edge("b", "requires", "a")]
    assert sorted(layers(["a", "b"], cycle).values()) == [0, 1]
    chain = [Edge(str(n), "requires", str(n - 1)) for n in range(1, 5000)]
    assert layers([str(n) for n in range(5000)], chain)["4999"] == 4999


def test_rows_in_a_column_never_overlap() -> None:
    edges = [Edge(x, "requires", "a") for x in "bcde"]
    places = positions(list("abcde"), edges)
    assert len(set(places.values())) == 5


def test_the_picture_links_each_box_to_its_page_and_escapes_titles() -> None:
    out = draw(
        ["001", "002"],
        [Edge("002", "requires", "001")],
        {"001": "Accepted"},
        lambda n: f"rfd/{n}.html",
        title=lambda n: f"<{n}>",
    )
    assert '<a href="rfd/001.html" class="node"><title>&lt;001&gt;</title>' in out
    assert 'class="st-accepted"' in out
    assert '<path class="edge requires"' in out and "<title>002 requires 001</title>" in out
