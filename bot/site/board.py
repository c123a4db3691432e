"""What the board shows (pure): counts per status, what waits on whom, one row per RFD."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.model.status import Status
from bot.site.records import SiteRfd

PAGE_SIZE = 100
"""Rows per page of the board: the static pages and the script page alike."""
ORDER = [s.value for s in Status]
READY_FOR = {"Accepted": ("Accepted", "Implemented"), "Implemented": ("Implemented",)}
"""What a required RFD must be before this one may become Accepted / Implemented."""


@dataclass(frozen=True)
class Waiting:
    id: str
    title: str
    what: str


def counts(rfds: Iterable[SiteRfd]) -> list[tuple[str, int]]:
    found = Counter(r.status for r in rfds)
    return [(s, found[s]) for s in ORDER if found[s]]


def waiting(rfds: Iterable[SiteRfd], status_of: Mapping[str, str]) -> list[Waiting]:
    """Every RFD held up, and by whom or what: sign-offs, open concerns, required RFDs."""
    found: list[Waiting] = []
    for r in rfds:
        held = _held(r, status_of)
        if held:
            found.append(Waiting(r.id, r.title, "; ".join(held)))
    return found


def _held(r: SiteRfd, status_of: Mapping[str, str]) -> list[str]:
    out = []
    if r.waiting_for:
        who = ", ".join(w if w.startswith("@") else f"@{w}" for w in r.waiting_for)
        out.append(f"sign-off of {who} missing")
    out += [f"concern {c.number} by @{c.author} open" for c in r.open_concerns]
    goal = {"Discussion": "Accepted", "Accepted": "Implemented"}.get(r.status)
    if goal is not None:
        for dep in r.requires:
            have = status_of.get(dep)
            if have is not None and have not in READY_FOR[goal]:
                out.append(f"needs RFD {dep} {READY_FOR[goal][0].lower()} first (it is {have})")
    return out


def row(r: SiteRfd, updated: str | None) -> dict[str, Any]:
    """One row of the board (``board.json`` holds them all, for the page's script)."""
    return {
        "id": r.id,
        "title": r.title,
        "status": r.status,
        "word": r.shown,
        "category": r.category or "",
        "authors": [name(a) for a in r.authors],
        "labels": list(r.labels),
        "updated": (updated or "")[:10],
        "progress": list(r.progress) if r.progress else None,
        "concerns": len(r.open_concerns),
    }


def choices(rfds: Iterable[SiteRfd]) -> dict[str, list[str]]:
    """The values each filter offers: categories, authors, labels (sorted, no repeats)."""
    rfds = list(rfds)
    return {
        "categories": sorted({r.category for r in rfds if r.category}, key=str.casefold),
        "authors": sorted({name(a) for r in rfds for a in r.authors}, key=str.casefold),
        "labels": sorted({lab for r in rfds for lab in r.labels}, key=str.casefold),
    }


def name(author: str) -> str:
    """``Ada Lovelace <ada@example.com>`` → ``Ada Lovelace`` (the board shows names)."""
    return author.split("<", 1)[0].strip() or author
