"""The board's facts: counts per status and what waits on whom."""

from __future__ import annotations

from bot.site.board import counts, row, waiting
from bot.site.records import Concern, Phase, SiteRfd


def rfd(rid: str, status: str, **extra: object) -> SiteRfd:
    return SiteRfd(id=rid, title=f"T{rid}", status=status, path=f"{rid}.md", text="", **extra)  # type: ignore[arg-type]


def test_counts_follow_the_lifecycle_and_skip_empty_statuses() -> None:
    rfds = [rfd("1", "Accepted"), rfd("2", "Draft"), rfd("3", "Accepted")]
    assert counts(rfds) == [("Draft", 1), ("Accepted", 2)]


def test_what_waits_on_whom() -> None:
    rfds = [
        rfd("001", "Discussion"),
        rfd(
            "002",
            "Discussion",
            requires=("001",),
            waiting_for=("ana",),
            concerns=(Concern(1, "ben", "too big", open=True), Concern(2, "ana", "x", open=False)),
        ),
        rfd("003", "Accepted", requires=("004",)),
        rfd("004", "Accepted"),
        rfd("005", "Implemented", requires=("001",)),  # done: waits for nothing
    ]
    found = {w.id: w.what for w in waiting(rfds, {r.id: r.status for r in rfds})}
    assert found == {
        "002": "sign-off of @ana missing; concern 1 by @ben open; "
        "needs RFD 001 accepted first (it is Discussion)",
        "003": "needs RFD 004 implemented first (it is Accepted)",
    }


def test_a_row_shows_names_and_progress() -> None:
    r = rfd(
        "045",
        "Accepted",
        authors=("Ana Lima <ana@example.org>",),
        plan=(Phase("1", "a", True), Phase("2", "b", False)),
    )
    shown = row(r, "2025-09-08T10:00:00+00:00")
    assert shown["authors"] == ["Ana Lima"] and shown["progress"] == [1, 2]
    assert shown["updated"] == "2025-09-08"
