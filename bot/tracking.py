"""The body of an RFD's tracking issue: a phase checklist the bot keeps up to date.

The bot owns only the region between ``<!-- rfd-bot:checklist:start -->`` and
``<!-- rfd-bot:checklist:end -->``; everything else in the body is left byte for byte.
Inside the region it records which phases *it* considered done
(``<!-- rfd-bot:done: 1,3 -->``), so on the next update a box that differs from that
record was ticked or unticked by a person, and the person's choice is kept.  Updating
with unchanged state changes nothing: ``merge_body(render_body(...), ...)`` is the same
text.  Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from bot import checklist
from bot.checklist import ItemStatus
from bot.plan import PlanPhase

START = "<!-- rfd-bot:checklist:start -->"
END = "<!-- rfd-bot:checklist:end -->"
BAR_WIDTH = 20
_RECORD = re.compile(r"<!--\s*rfd-bot:done:(?P<numbers>[\s\d,]*)-->")


def marker(rfd_id: object) -> str:
    """The hidden marker that finds an RFD's tracking issue again."""
    return f"<!-- rfd-bot:tracking:{rfd_id} -->"


def render_body(
    rfd_id: object,
    title: str,
    rfd_path: str,
    phases: Sequence[PlanPhase],
    done: Collection[int],
    *,
    failed: Mapping[int, str] | None = None,
) -> str:
    """A fresh issue body: marker, link to the RFD, and the checklist region."""
    shown = title.replace("[", "\\[").replace("]", "\\]")  # keep the link intact
    intro = f"Tracking issue for [RFD {rfd_id}: {shown}]({rfd_path})."
    return f"{marker(rfd_id)}\n{intro}\n\n{region(phases, done, failed)}\n"


def region(
    phases: Sequence[PlanPhase],
    done: Collection[int],
    failed: Mapping[int, str] | None = None,
    *,
    record: Collection[int] | None = None,
) -> str:
    """The bot's region: progress, record of the bot's view, checklist (phases 1-based)."""
    text = checklist.render([_label(n, p) for n, p in enumerate(phases, start=1)])
    for n, reason in sorted((failed or {}).items()):
        if 1 <= n <= len(phases) and n not in done:
            text = checklist.mark(text, n - 1, ItemStatus.FAILED, reason or "unknown reason")
    ticked = sorted(n for n in set(done) if 1 <= n <= len(phases))
    for n in ticked:
        text = checklist.mark(text, n - 1, ItemStatus.DONE)
    mine = ",".join(
        str(n) for n in sorted(set(ticked if record is None else record)) if 1 <= n <= len(phases)
    )
    bar = checklist.progress_bar(len(ticked), len(phases), BAR_WIDTH)
    summary = f"**Progress:** {checklist.progress(len(ticked), len(phases))} {bar}"
    return f"{START}\n{summary}\n\n<!-- rfd-bot:done: {mine} -->\n{text}{END}"


def _label(position: int, phase: PlanPhase) -> str:
    named = phase.label and phase.label != str(position)
    return f"{phase.title} (Phase {phase.label})" if named else phase.title


def merge_body(
    existing: str,
    phases: Sequence[PlanPhase],
    done: Collection[int],
    *,
    failed: Mapping[int, str] | None = None,
) -> str:
    """``existing`` with its region brought up to date (appended if it has none).

    Boxes a person ticked or unticked stay as they left them; text outside is untouched.
    """
    span = _span(existing)
    newline = "\r\n" if "\r\n" in existing else "\n"
    if span is None:
        fresh = region(phases, done, failed)
        return f"{existing.rstrip()}{newline * 2}{fresh.replace(chr(10), newline)}{newline}"
    old = existing[span[0] : span[1]]
    ticks, unticks = _person_changes(old)
    shown = (set(done) | ticks) - unticks
    fresh = region(phases, shown, failed, record=done).replace("\n", newline)
    return existing[: span[0]] + fresh + existing[span[1] :]


def ticked(body: str) -> set[int]:
    """Numbers of the ticked phases in the bot's region (empty when there is none)."""
    span = _span(body)
    if span is None:
        return set()
    items = checklist.parse(body[span[0] : span[1]]).items
    return {item.number for item in items if item.status is ItemStatus.DONE}


def _span(body: str) -> tuple[int, int] | None:
    """Where the region is: the last start marker before the first end marker."""
    end = body.find(END)
    start = body.rfind(START, 0, end) if end >= 0 else -1
    return None if start < 0 else (start, end + len(END))


def _person_changes(old_region: str) -> tuple[set[int], set[int]]:
    """Boxes ticked and unticked by a person since the bot last wrote ``old_region``."""
    now = ticked(old_region)
    match = _RECORD.search(old_region)
    if match is None:  # no record: keep every tick, assume no untick
        return now, set()
    recorded = {int(n) for n in re.findall(r"\d+", match["numbers"])}
    return now - recorded, recorded - now
