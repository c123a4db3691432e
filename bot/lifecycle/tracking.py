"""The body of an RFD's tracking issue: a phase checklist the bot keeps up to date.

The bot owns only the region between ``<!-- rfd-bot:checklist:start -->`` and
``<!-- rfd-bot:checklist:end -->``; everything else in the body is left byte for byte.
Inside the region it records which phases *it* considered done
(``<!-- rfd-bot:done: 1,3 -->``), so on the next update a box that differs from that
record was ticked or unticked by a person, and the person's choice is kept.  A phase's
line links its pull request once ``/rfd implement`` opened it (``— [#3](…)``): an update
reads the link back from the line (after the phase's own title, which cannot forge one)
and keeps it, next to the summary's link once the phase is done.  Updating
with unchanged state changes nothing: ``merge_body(render_body(...), ...)`` is the same
text.  Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from bot.core.github_markdown import inline, link_text
from bot.model import checklist, phase_ids
from bot.model.checklist import ItemStatus
from bot.model.plan import PlanPhase

START = "<!-- rfd-bot:checklist:start -->"
END = "<!-- rfd-bot:checklist:end -->"
BAR_WIDTH = 20
PULL_LINK = "[#{number}]({url})"
LINK_SEPARATOR = " · "
_PULL = re.compile(r"\[\#(?P<number>\d+)\]\((?P<url>https?://[^\s()]+/pull/(?P=number))\)")
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
    links: Mapping[int, str] | None = None,
    pulls: Mapping[int, str] | None = None,
    decision: str = "",
    discussion: str = "",
    site: str = "",
    unplanned: str = "",
) -> str:
    """A fresh issue body: marker, link to the RFD (and to its sign-offs, ``decision``, the
    pull request it was discussed in, ``discussion``, and its page on the RFD site,
    ``site``), and the checklist region (``unplanned``: what it says when there are no
    phases)."""
    shown = link_text(title)  # keeps the link intact
    intro = f"Tracking issue for [RFD {rfd_id}: {shown}]({rfd_path})."
    if discussion:
        intro += f" Discussed in [#{discussion.rsplit('/', 1)[-1]}]({discussion})."
    if decision:
        intro += f" Decided with [these sign-offs and concerns]({decision})."
    if site:
        intro += f" [Read it on the RFD site]({site})."
    fresh = region(
        phases, done, failed, links=joined(pulls or {}, links or {}), unplanned=unplanned
    )
    return f"{marker(rfd_id)}\n{intro}\n\n{fresh}\n"


def joined(*links: Mapping[int, str]) -> dict[int, str]:
    """Each phase's links in order (its pull request, then its summary), one text per phase."""
    phases = sorted({n for found in links for n in found})
    return {n: LINK_SEPARATOR.join(found[n] for found in links if n in found) for n in phases}


def region(
    phases: Sequence[PlanPhase],
    done: Collection[int],
    failed: Mapping[int, str] | None = None,
    *,
    record: Collection[int] | None = None,
    links: Mapping[int, str] | None = None,
    unplanned: str = "",
) -> str:
    """The bot's region: progress, record of the bot's view (positions, 1-based), and the
    checklist numbered by phase label (``- [ ] 3a. Title``), each item followed by its
    ``links`` (``[summary](…)``) when it has some.  With no phase and an ``unplanned`` text
    (an RFD accepted without a plan), that text instead of an empty 0/0 checklist."""
    if not phases and unplanned:
        return f"{START}\n{unplanned}\n{END}"
    links = links or {}
    titles = [inline(p.title) for p in phases]  # never a region boundary, mention or image
    titles = [f"{t} — {links[n]}" if n in links else t for n, t in enumerate(titles, start=1)]
    text = checklist.render(titles, tags=phase_ids.labels(phases))
    for n, reason in sorted((failed or {}).items()):
        if 1 <= n <= len(phases) and n not in done:
            shown = inline(reason) or "unknown reason"
            text = checklist.mark(text, n - 1, ItemStatus.FAILED, shown)
    ticked = sorted(n for n in set(done) if 1 <= n <= len(phases))
    for n in ticked:
        text = checklist.mark(text, n - 1, ItemStatus.DONE)
    mine = ",".join(
        str(n) for n in sorted(set(ticked if record is None else record)) if 1 <= n <= len(phases)
    )
    return f"{START}\n{_progress(phases, ticked)}\n\n<!-- rfd-bot:done: {mine} -->\n{text}{END}"


EXPLAINED = (
    "The phases of the RFD's plan. rfd-bot ticks a phase when its summary lands on the default "
    "branch; tick one yourself if it was done another way — the bot keeps your tick."
)
OPTIONAL_NOTE = " Optional phases are not counted."


def _progress(phases: Sequence[PlanPhase], ticked: Collection[int]) -> str:
    """The progress line, counted from the boxes as rendered (optional phases left out)."""
    required = [n for n, p in enumerate(phases, start=1) if not phase_ids.optional(p)]
    done = sum(1 for n in required if n in ticked)
    bar = checklist.progress_bar(done, len(required), BAR_WIDTH)
    note = OPTIONAL_NOTE if len(required) < len(phases) else ""
    progress = checklist.progress(done, len(required))
    return f"{EXPLAINED}{note}\n\n**Progress:** {progress} {bar}"


def merge_body(
    existing: str,
    phases: Sequence[PlanPhase],
    done: Collection[int],
    *,
    failed: Mapping[int, str] | None = None,
    links: Mapping[int, str] | None = None,
    pulls: Mapping[int, str] | None = None,
    unplanned: str = "",
) -> str:
    """``existing`` with its region brought up to date (appended if it has none).

    Boxes a person ticked or unticked stay as they left them; text outside is untouched;
    the pull-request links the region has are kept unless ``pulls`` gives a phase's anew.
    """
    span = _span(existing)
    newline = "\r\n" if "\r\n" in existing else "\n"
    links = joined({**pull_links(existing, phases), **(pulls or {})}, links or {})
    if span is None:
        fresh = region(phases, done, failed, links=links, unplanned=unplanned)
        return f"{existing.rstrip()}{newline * 2}{fresh.replace(chr(10), newline)}{newline}"
    old = existing[span[0] : span[1]]
    ticks, unticks = _person_changes(old, phases)
    shown = (set(done) | ticks) - unticks
    fresh = region(phases, shown, failed, record=done, links=links, unplanned=unplanned)
    fresh = fresh.replace("\n", newline)
    return existing[: span[0]] + fresh + existing[span[1] :]


def ticked(body: str, phases: Sequence[PlanPhase] | None = None) -> set[int]:
    """The ticked phases in the bot's region (empty when there is none): their positions
    in ``phases`` (items named by label, ``3a``), or their numbers without a plan."""
    span = _span(body)
    if span is None:
        return set()
    items = checklist.parse(body[span[0] : span[1]]).items
    done = [n for n, item in enumerate(items, start=1) if item.status is ItemStatus.DONE]
    if phases is None or [i.tag for i in items] == [str(n) for n in range(1, len(items) + 1)]:
        return {items[n - 1].number for n in done}  # numbered 1..N: positions (older bodies)
    return phase_ids.done(phases, (items[n - 1].tag for n in done))


def pull_links(body: str, phases: Sequence[PlanPhase]) -> dict[int, str]:
    """The pull-request link each phase's line in the bot's region carries, by position: read
    after the phase's own title only, so a title holding such a link is never one."""
    span = _span(body)
    if span is None:
        return {}
    tags = phase_ids.labels(phases)
    found: dict[int, str] = {}
    for item in checklist.parse(body[span[0] : span[1]]).items:
        if item.tag not in tags:
            continue
        n = tags.index(item.tag) + 1
        title = " ".join(inline(phases[n - 1].title).split())  # as the checklist writes it
        link = (
            _PULL.search(item.label.removeprefix(title)) if item.label.startswith(title) else None
        )
        if link:
            found[n] = link[0]
    return found


def _span(body: str) -> tuple[int, int] | None:
    """Where the region is: the last start marker before the first end marker."""
    end = body.find(END)
    start = body.rfind(START, 0, end) if end >= 0 else -1
    return None if start < 0 else (start, end + len(END))


def _person_changes(old_region: str, phases: Sequence[PlanPhase]) -> tuple[set[int], set[int]]:
    """Boxes ticked and unticked by a person since the bot last wrote ``old_region``."""
    now = ticked(old_region, phases)
    match = _RECORD.search(old_region)
    if match is None:  # no record: keep every tick, assume no untick
        return now, set()
    recorded = {int(n) for n in re.findall(r"\d+", match["numbers"])}
    return now - recorded, recorded - now
