"""Progress comments of long runs: the comment edited as a run goes, and reconcile's
repair of those whose run died.

A long run (``/rfd implement``, ``/rfd refine``) keeps one comment, edited as it goes and
ending in its outcome.  It shows the stage (research, plan, item k of n, summary, push —
or a refine pass), the item checklist as items are ticked or fail, the time so far, the
tokens and cost so far and a link to the run.  The rendering is pure: :func:`render`
takes a :class:`Snapshot`; :class:`Progress` only decides when to write.  Edits are
paced: the text is written again only when the stage or the checklist changed and the
last edit is at least :data:`EDIT_EVERY` seconds old; the start and the outcome are
always written.

While the run works the comment carries a hidden run marker
(``<!-- rfd-bot:run:<id> -->``, among the marker lines opening it: elsewhere it is
text).  The scheduled reconcile (:func:`repair`) looks at a comment still carrying the
marker and not edited for longer than :data:`DIED_AFTER`.  Its age is not proof enough:
``/rfd implement``'s check job posts the comment and nobody edits it while the work job
waits in its concurrency queue or works.  So GitHub is asked for the run's status (one
request per such comment): while the run is queued or in progress the comment is left
alone; once it completed, or GitHub no longer knows it, the comment is marked as ended —
the ⏳ goes, the checklist stays as far as the run got, and the comment says what to do.
Nothing else in it changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum

from bot.core.errors import ForgeError
from bot.core.github_markdown import inline
from bot.core.sanitize import sanitize
from bot.events import Notice
from bot.forge.base import leading_markers, marker
from bot.github.run import Context
from bot.model import checklist

EDIT_EVERY = 20.0
"""Least seconds between two progress edits (the start and the outcome are always written)."""
RUN_KIND = "run"
HEAD_RUNNING = "### ⏳ {doing} {title}"
HEAD_DONE = "### ✅ {title} — {outcome}"
HEAD_WARNED = "### ⚠️ {title} — {outcome}"
HEAD_FAILED = "### ❌ {title} — the run failed"
NOW = "**{stage}** · {facts}"
FINISHED = "Finished in {facts}."
STOPPED = "It stopped during **{stage}**, after {facts}: {reason}"
LOST = "It stopped without saying where: {reason}"
RUN_LINK = "<sub>[Workflow run]({url}){note}</sub>"
LIVE_NOTE = " · this comment is updated as the run goes"
FOLLOW_NOTE = " · follow the run for its stages: this comment is edited when it ends"
WORKING = " ← working on it"
ITEM_MARK = {
    checklist.ItemStatus.DONE: "x",
    checklist.ItemStatus.FAILED: "!",
    checklist.ItemStatus.PENDING: " ",
}
_MARKDOWN = re.compile(r"([\\`*_\[\]<>#|!~])")


class Stage(Enum):
    RESEARCH = "research"
    PLAN = "plan"
    ITEM = "item {k} of {n}"
    SUMMARY = "summary"
    PUSH = "push"
    PASS = "pass {k} of at most {n}"
    COMMIT = "commit"


@dataclass(frozen=True)
class Snapshot:
    """Everything the progress comment shows at one moment."""

    doing: str
    """What the run does, said while it works: "Implementing"."""
    title: str
    """What it works on: "RFD 045, phase 1: Writer" (plain text)."""
    stage: Stage
    k: int = 0
    n: int = 0
    items: tuple[checklist.Item, ...] = ()
    elapsed: float = 0.0
    tokens: int = 0
    cost_usd: float = 0.0
    run_url: str | None = None
    detail: str = ""
    """A fact line under the heading (the branch)."""

    @property
    def stage_text(self) -> str:
        return self.stage.value.format(k=self.k, n=self.n)


def plain(text: str, limit: int = 200) -> str:
    """Untrusted ``text`` as one line of inert markdown: :func:`bot.core.github_markdown.inline`
    (no markers, HTML, images or mentions), its formatting escaped, cut at ``limit``."""
    line = inline(sanitize(text))
    line = line if len(line) <= limit else line[: limit - 1] + "…"
    return _MARKDOWN.sub(r"\\\1", line)


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s``, ``1 h 2 min``."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


def _facts(snap: Snapshot) -> str:
    parts = [duration(snap.elapsed)]
    if snap.tokens:
        parts.append(f"{snap.tokens:,} tokens")
    if snap.cost_usd:
        parts.append(f"${snap.cost_usd:.4f}")
    return " · ".join(parts + ([snap.detail] if snap.detail else []))


def _checklist(snap: Snapshot, working: bool) -> list[str]:
    lines = []
    for position, item in enumerate(snap.items, start=1):
        label = plain(item.label)
        line = f"- [{ITEM_MARK[item.status]}] {item.tag or item.number}. {label}"
        if item.status is checklist.ItemStatus.FAILED:  # an open box, marked: still to do
            line = line.replace("- [!]", "- [ ]", 1)
            line += f" — ❌ failed: {plain(item.reason) or 'no reason given'}"
        elif working and snap.stage is Stage.ITEM and position == snap.k:
            line += WORKING
        lines.append(line)
    return lines


def _body(head: str, facts: str, snap: Snapshot, working: bool, note: str = "") -> str:
    parts = [head, facts, *(["\n".join(_checklist(snap, working))] if snap.items else [])]
    if snap.run_url:
        parts.append(RUN_LINK.format(url=snap.run_url, note=note))
    return "\n\n".join(parts)


def render(snap: Snapshot, run_id: str | None = None, *, live: bool = True) -> str:
    """The comment while the run works (``run_id``: the marker reconcile looks for); not
    ``live`` when the job that posts it cannot edit it as the run goes (a split ``/rfd
    implement``: the check job posts it, the publish job ends it)."""
    head = HEAD_RUNNING.format(doing=snap.doing, title=plain(snap.title))
    facts = NOW.format(stage=snap.stage_text.capitalize(), facts=_facts(snap))
    text = _body(head, facts, snap, True, LIVE_NOTE if live else FOLLOW_NOTE)
    return f"{marker(RUN_KIND, run_id)}\n{text}" if run_id else text


def render_done(snap: Snapshot, outcome: str, warning: str = "", note: str = "") -> str:
    """The comment once the run ended; ``outcome`` is trusted markdown (a PR link).  A run
    that ended with something left undone (failed items) says so in ``warning`` (trusted);
    ``note`` (trusted) is what the run did, when the comment is also its answer."""
    head = (HEAD_WARNED if warning else HEAD_DONE).format(title=plain(snap.title), outcome=outcome)
    parts = [FINISHED.format(facts=_facts(snap)), warning, note]
    return _body(head, "\n\n".join(p for p in parts if p), snap, False)


def render_failed(snap: Snapshot, reason: str, retry: str) -> str:
    """The comment once the run failed: where it stopped, why, and what to do."""
    head = HEAD_FAILED.format(title=plain(snap.title))
    stopped = STOPPED.format(stage=snap.stage_text, facts=_facts(snap), reason=plain(reason, 400))
    return _body(head, f"{_whole(stopped)}\n\n{retry}", snap, False)


def render_lost(snap: Snapshot, reason: str, retry: str) -> str:
    """The comment of a run that failed without saying where it stopped (``reason``,
    ``retry``: trusted)."""
    head = HEAD_FAILED.format(title=plain(snap.title))
    return _body(head, f"{_whole(LOST.format(reason=reason))}\n\n{retry}", snap, False)


def _whole(sentence: str) -> str:
    """``sentence`` ending as one: a full stop added unless it ends in ``.``, ``!``, ``?`` or
    ``…`` (a reason is often an error message, which may end either way)."""
    return sentence if sentence.endswith((".", "!", "?", "…")) else sentence + "."


class Progress:
    """Decides when the progress comment is written; ``write`` creates or edits it."""

    def __init__(
        self,
        write: Callable[[str], object],
        snap: Snapshot,
        *,
        clock: Callable[[], float],
        spent: Callable[[], tuple[int, float]],
        run_id: str | None = None,
        warn: Callable[[ForgeError], None] | None = None,
        live: bool = True,
    ) -> None:
        """``warn``: what to do when an edit of the running comment fails (the outcome's
        write always raises: it is the run's answer)."""
        self._write, self._clock, self._spent, self._run_id = write, clock, spent, run_id
        self._warn, self._live = warn, live
        self._started = clock()
        self._last_edit: float | None = None
        self._shown: tuple[object, ...] | None = None
        self.snap = snap

    def _now(self, **changes: object) -> Snapshot:
        tokens, cost = self._spent()
        elapsed = self._clock() - self._started
        return replace(self.snap, elapsed=elapsed, tokens=tokens, cost_usd=cost, **changes)  # type: ignore[arg-type]

    def now(self) -> Snapshot:
        """What the comment would show now: the time and the spending brought up to date."""
        return self._now()

    def update(self, *, force: bool = False, **changes: object) -> None:
        """Take ``changes`` (stage, k, n, items); write when it is worth an edit."""
        self.snap = self._now(**changes)
        substance = (self.snap.stage, self.snap.k, self.snap.n, self.snap.items)
        if substance == self._shown and not force:
            return
        now = self._clock()
        if not force and self._last_edit is not None and now - self._last_edit < EDIT_EVERY:
            return
        try:
            self._write(render(self.snap, self._run_id, live=self._live))
        except ForgeError as err:
            if self._warn is None:
                raise
            self._warn(err)  # a cosmetic edit: the next one says it all again
            return
        self._last_edit, self._shown = now, substance

    def done(
        self,
        outcome: str,
        items: Sequence[checklist.Item] | None = None,
        warning: str = "",
        note: str = "",
    ) -> str:
        """Write the outcome (see :func:`render_done`); the text written."""
        changes = {} if items is None else {"items": tuple(items)}
        self.snap = self._now(**changes)
        text = render_done(self.snap, outcome, warning, note)
        self._write(text)
        return text

    def failed(self, reason: str, retry: str) -> None:
        self.snap = self._now()
        self._write(render_failed(self.snap, reason, retry))


def implement_listener(
    progress: Progress, read: Callable[[str], str | None]
) -> Callable[[Notice], None]:
    """A bus listener for the implement step's notices: the stage and the checklist are
    read from the files the step keeps (``read("items.md")``), so they are what it saved."""

    def on_notice(_: Notice) -> None:
        if read("research.md") is None:
            progress.update(stage=Stage.RESEARCH)
            return
        text = read("items.md")
        if text is None:
            progress.update(stage=Stage.PLAN)
            return
        items = checklist.parse(text).items
        pending = [i for i, it in enumerate(items, 1) if it.status is checklist.ItemStatus.PENDING]
        stage = Stage.ITEM if pending else Stage.SUMMARY
        k = pending[0] if pending else len(items)
        progress.update(stage=stage, k=k, n=len(items), items=tuple(items))

    return on_notice


DIED_AFTER = timedelta(minutes=40)
"""Longer than the ``comment`` job's timeout (30 minutes): only then is GitHub asked whether
the comment's run is still live (a split ``/rfd implement`` may wait longer in its queue)."""
LIVE = frozenset({"requested", "queued", "pending", "waiting", "in_progress"})
"""The statuses GitHub gives a workflow run that has not completed."""
RUN_MARK = re.compile(r"<!-- rfd-bot:run:([0-9]+) -->")
RUNNING_HEAD = re.compile(r"^### ⏳ (?P<title>.*)$", re.MULTILINE)
ENDED_HEAD = "### ⚠️ {title} — the run ended without finishing"
ENDED_NOTE = (
    "Its workflow run stopped (cancelled, timed out or its runner lost) before it could say how "
    "it ended; the checklist shows how far it got. Comment the command again to run it anew."
)
STOPPED_HERE = " ← the run stopped here"
REPAIRED = "#{number}: progress comment of run {run} marked as ended (the run is over): {url}"
ALIVE = "#{number}: progress comment of run {run} left as is: GitHub says the run is {status}"
UNKNOWN = (
    "#{number}: progress comment of run {run} left as is: its run's status could not be read "
    "({error}); the next reconcile looks again"
)


def ended(body: str) -> str | None:
    """``body`` marked as the comment of a run that ended; None when it is not running."""
    found = run_marker(body)
    if found is None:
        return None
    text = body.replace(f"{found.group(0)}\n", "", 1)
    head = ENDED_HEAD.format(title=r"\g<title>")
    text = RUNNING_HEAD.sub(f"{head}\n\n{ENDED_NOTE}", text, count=1)
    return text.replace(LIVE_NOTE, "").replace(FOLLOW_NOTE, "").replace(WORKING, STOPPED_HERE)


def run_marker(body: str) -> re.Match[str] | None:
    """The run marker where the bot puts it (among the marker lines opening ``body``)."""
    return next(filter(None, map(RUN_MARK.fullmatch, leading_markers(body))), None)


def repair(ctx: Context, number: int) -> list[str]:
    """Mark the progress comments of dead runs on ``number`` as ended; what was repaired, and
    what was left as is because its run is still live (GitHub asked once per old comment)."""
    lines = []
    for comment in ctx.forge.comments(number):
        found = run_marker(comment.body)
        text = ended(comment.body)
        if found is None or text is None or not _older(comment.updated, ctx.clock()):
            continue
        run = found.group(1)
        try:
            status = ctx.api.run_status(int(run))
        except ForgeError as err:  # say so, never guess: a live run's comment stays as is
            lines.append(UNKNOWN.format(number=number, run=run, error=err))
            continue
        if status in LIVE:
            lines.append(ALIVE.format(number=number, run=run, status=status.replace("_", " ")))
            continue
        edited = ctx.forge.edit_comment(number, comment.id, text)
        lines.append(REPAIRED.format(number=number, run=run, url=edited.url))
    return lines


def _older(stamp: str, now: float) -> bool:
    """Was ``stamp`` (ISO 8601) written more than :data:`DIED_AFTER` before ``now``?"""
    try:
        then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return False
    return now - then.timestamp() > DIED_AFTER.total_seconds()
