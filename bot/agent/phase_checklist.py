"""The checklist of a phase being implemented: what a new run retries, what comes next,
how far amendments may grow it, and the failed items as the summary lists them.

The phase the checklist was made for (title and description) is kept beside it
(``implement/<N>/phase.md``): when ``plan.json`` says something else now, the research
and the checklist answer an old question, and a new run makes them again.

The plan's original item count is kept in its own state file beside the checklist
(``implement/<N>/original_count``): the ``<!-- original_count -->`` comment in the
checklist can be edited away or garbled, and the 2x bound on amendments must hold anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.agent.context import Store
from bot.model import checklist

ORIGINAL_COUNT = "original_count"
"""Beside ``items.md``: the plan's item count, the base of the amendment cap."""
FAILED_ITEMS = "\n## Failed items\n\n{items}\n"
PHASE = "phase.md"
"""Beside ``items.md``: the phase (title, blank line, description) its checklist was made for."""
STALE = (
    "phase {phase} changed in plan.json since its checklist was made "
    "(was {old!r}): researching and planning it again"
)


def stale_phase(store: Store, rfd_id: Any, base: str, phase: str) -> str | None:
    """The title the checklist under ``base`` was made for, when ``phase`` (title, blank
    line, description) is no longer it; ``None`` when it still is, or nothing was made.
    A checklist from before the phase was kept beside it counts as current."""
    saved = store.read_text(rfd_id, f"{base}/{PHASE}")
    if saved is None or saved.strip() == phase.strip():
        return None
    return saved.strip().split("\n", 1)[0]


def keep_phase(store: Store, rfd_id: Any, base: str, phase: str) -> None:
    store.write_text(rfd_id, f"{base}/{PHASE}", phase.strip() + "\n")


def reset_failed(items: str) -> tuple[str, int]:
    """The checklist with the items an earlier run marked ``[!]`` pending again (a new run
    tries each once more), and how many they are."""
    failed = [
        position
        for position, item in enumerate(checklist.parse(items).items)
        if item.status is checklist.ItemStatus.FAILED
    ]
    for position in failed:
        items = checklist.mark(items, position, checklist.ItemStatus.PENDING)
    return items, len(failed)


def next_pending(items: str) -> int | None:
    for position, item in enumerate(checklist.parse(items).items):
        if item.status is checklist.ItemStatus.PENDING:
            return position
    return None


def amend(items: str, text: str, original: int) -> tuple[str, list[str]]:
    known = {i.label.lower() for i in checklist.parse(items).items}
    new = [label for label in checklist.extract_new_items(text) if label.lower() not in known]
    return checklist.append(items, new, original_count=original) if new else (items, [])


def original_count(store: Store, rfd_id: Any, base: str, items: str) -> int:
    """How many items the plan started with: the state file under ``base`` (written from
    the checklist's comment, or its length, the first time)."""
    relpath = f"{base}/{ORIGINAL_COUNT}"
    saved = (store.read_text(rfd_id, relpath) or "").strip()
    if saved.isdigit() and int(saved) > 0:
        return int(saved)
    parsed = checklist.parse(items)
    count = parsed.original_count or len(parsed.items)
    store.write_text(rfd_id, relpath, f"{count}\n")
    return count


def failed_items(items: Sequence[checklist.Item]) -> str:
    """The summary's own list of the failed items (what the model wrote is not relied on)."""
    failed = [i for i in items if i.status is checklist.ItemStatus.FAILED]
    lines = [f"- {i.tag or i.number}. {_code(i.label)} — {_code(i.reason)}" for i in failed]
    return FAILED_ITEMS.format(items="\n".join(lines)) if failed else ""


def _code(text: str) -> str:
    """Model text shown as a code span: it cannot become markdown structure or a mention."""
    return f"`{text.replace('`', chr(39))}`"


NOTHING_SUMMARY = "Phase {phase} ({title}): nothing to do — the plan found no item to work on.\n"


def nothing_to_do(phase: str, title: str, plan: str) -> str:
    """The summary of a phase whose plan has no item, the planner's words quoted (model
    text: never headings or checklist lines of the summary)."""
    quoted = "\n".join(f"> {line}".rstrip() for line in plan.strip().splitlines())
    summary = NOTHING_SUMMARY.format(phase=phase, title=title)
    return summary + (f"\n{quoted}\n" if quoted else "")
