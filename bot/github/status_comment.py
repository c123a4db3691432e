"""The status comment: what it shows of each RFD (panels), its text (dashboard), and
the one comment per pull request that holds it, edited in place.

For each RFD the PR changes, the comment shows its lifecycle as a one-line stepper with
the current status marked, a **Next step** that names the commands that apply in that
status and who may run them, its reviews numbered as ``/rfd dismiss`` takes them (each
linked to its comment and its commit, dismissed ones folded away) and a lint summary
(the findings themselves are annotated on the diff).

Reading: a :class:`Row` is what the PR's version of an RFD says (status, reviews on file
with their findings, plan).  :func:`panel` pairs its reviews with the review comments the
bot posted (by the file each one was saved as): a review on file is numbered and linked
to its comment; a posted review whose file is gone was dismissed.

Rendering is pure: :class:`Panel` records in, markdown out.  Text that comes from the
RFD (its title) goes through :mod:`bot.core.github_markdown` only.

Every bot action on the PR refreshes the comment as part of its run (the bot's own
pushes start no workflow), and the PR's lifecycle label follows.  When new commits
arrive, review comments of earlier revisions get a banner.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from bot.config.discovery import read
from bot.config.load import Config
from bot.config.schema import ConsensusSection
from bot.core.errors import RfdError
from bot.core.github_markdown import inline, link_text, page_url
from bot.core.text import plural
from bot.forge.base import Comment, Permission, PullRequest, marker
from bot.github.checkout import ChangedRfd, changed_rfds, close, open_pull
from bot.github.commands import REGISTRY, Verb, command_table, who_may
from bot.github.labels import sync_labels
from bot.github.review_post import (
    DISMISSED_MARK,
    ICON,
    STALE_MARK,
    PostedReview,
    brought_up_to_date,
    posted_reviews,
    short,
)
from bot.github.run import Context, cosmetic
from bot.lifecycle.consensus_gate import decided
from bot.model import phase_ids, reviews
from bot.model.document import Document
from bot.model.plan import PlanPhase
from bot.model.reviews import Severity
from bot.model.status import Status, said
from bot.state import StateStore

if TYPE_CHECKING:
    from bot.lifecycle.consensus_gate import Standing
    from bot.model.consensus import Ledger
    from bot.state.files import RfdState

MAIN_PATH = (Status.DRAFT, Status.DISCUSSION, Status.ACCEPTED, Status.IMPLEMENTED)

NEXT_REVIEW = (
    "label `{review}` or comment `/rfd review` for a review. Once the discussion has settled, "
    "accept it with `/rfd accept` or the `{accept}` label."
)
NEXT_SETTLE = (
    "{open}: push fixes or comment `/rfd refine`, then `/rfd dismiss all` (or `/rfd dismiss 1`…) "
    "for the settled ones. Then accept with `/rfd accept` or the `{accept}` label."
)
NEXT_READ = (
    "{open}: nothing there blocks acceptance. `/rfd dismiss all` once read; accept with "
    "`/rfd accept` or the `{accept}` label."
)
NEXT_IMPLEMENT = (
    "merge this pull request, then comment `/rfd implement` on {where} to start phase {phase}."
)
NEXT_SIGN_OFF = " Acceptance also waits for the **Decision** below."
NEXT_SIGNED_OFF = (
    "the **Decision** below is met: accept with `/rfd accept` or the `{accept}` label "
    "(a review first, if you want one: label `{review}` or `/rfd review`)."
)
NEXT_BLOCKED = "{blocker}. Then accept with `/rfd accept` or the `{accept}` label."
NEXT_DONE = "every phase is done: comment `/rfd done` here to mark it {implemented}."
WHO_MAY = "Who may: {who_review}; `/rfd accept` and `{accept}`: {who_accept}."
WHO_MAY_LATER = "Who may: {who_review}."
NEXT_NO_PLAN = "merge this pull request; its plan has no phase to implement."
NEXT_TAKE_ON = (
    "it was accepted without the bot and has no plan or tracking issue yet: comment "
    "`/rfd accept` here to extract its plan and open its tracking issue (the status stays "
    "{accepted})."
)
NEXT_MARKED_HERE = (
    "its Status was set to {accepted} by hand on this pull request: set it back to "
    "{discussion}, then comment `/rfd accept` (the bot's accept checks the plan and the "
    "sign-offs)."
)
NEXT_IMPLEMENTED = "nothing left to do: merging this pull request closes {issue}."
NEXT_CLOSED = "nothing left to do: merging this pull request records it as {status}."
NO_REVIEWS = "No reviews yet."
NO_OPEN_REVIEWS = "No open reviews."
LINT = "Lint: {counts}, annotated on the changed lines (**Files changed** tab)."
BROKEN = "⚠️ The bot cannot read this RFD: {problem}"
FOOTER = "<sub>Updated for {head} · rfd-bot keeps this comment current</sub>"


@dataclass(frozen=True)
class ReviewEntry:
    number: int | None
    """As ``/rfd dismiss`` takes it; None when dismissed or never saved (a fork)."""
    url: str | None
    counts: Mapping[Severity, int] | None
    """None when not known (a dismissed review's file is gone)."""
    revision: str = ""
    current: bool = True
    dismissed: bool = False
    commit: str = ""
    """The page of the commit reviewed (empty: the revision is shown unlinked)."""


class ByHand(enum.Enum):
    """An RFD Accepted with no ``plan.json``: accepted without the bot."""

    ON_DEFAULT = "Accepted on the default branch: `/rfd accept` takes it on"
    HERE = "Accepted on this pull request only: the bot's accept is the way"


@dataclass(frozen=True)
class Panel:
    rfd_id: str
    title: str
    url: str
    status: Status | None = None
    problem: str = ""
    reviews: tuple[ReviewEntry, ...] = ()
    impl_reviews: int = 0
    next_phase: str = ""
    """``1: Writer`` — the first required phase not done; empty when none is left."""
    phases: int = 0
    tracking: int | None = None
    by_hand: ByHand | None = None
    """Accepted with no plan: taken on by ``/rfd accept`` (or to be set back to Discussion)."""
    lint: tuple[int, int] = (0, 0)
    """Errors and warnings."""
    decision: tuple[str, ...] = ()
    """The sign-off block (``[consensus]``), markdown lines made safe by its renderer."""
    signed_off: bool | None = None
    """Whether acceptance has its sign-offs; None when the repository asks for none."""
    blocker: str = ""
    """What holds acceptance up, naming who can move it (markdown made safe by its maker)."""
    site: str = ""
    """The RFD's page on the published site (``[site] url``); empty when there is none."""
    word: str = ""
    """The status in the repository's word (``published``); empty: rfd's own."""


@dataclass(frozen=True)
class Who:
    """Who may run the commands, in words (from ``commands.who_may``, or the people)."""

    review: str
    accept: str


@dataclass(frozen=True)
class People:
    """Who may act on the repository, as GitHub lists its collaborators: ``allowed`` hold
    ``accept.min_permission`` or more (the mutating commands), ``maintainers`` of them
    maintain or more (who resolve another's concern)."""

    allowed: tuple[str, ...]
    maintainers: tuple[str, ...]


NAMED_AT_MOST = 8
"""Logins a line names before "and N more"."""


def named(logins: Sequence[str]) -> str:
    """``alice, bob and 3 more``: logins made safe for markdown (no mention, no structure),
    in a stable order."""
    ordered = sorted(logins, key=str.casefold)
    shown = ", ".join(inline(login) for login in ordered[:NAMED_AT_MOST])
    rest = len(ordered) - NAMED_AT_MOST
    return f"{shown} and {rest} more" if rest > 0 else shown


def who_of(cfg: Config, people: People | None) -> Who:
    """Who may review and who may accept, named when the collaborators are known."""
    if people is None:
        return Who(who_may(REGISTRY[Verb.REVIEW], cfg), who_may(REGISTRY[Verb.ACCEPT], cfg))
    level = cfg.accept.min_permission
    accept = "the same (the RFD's author too)" if cfg.accept.allow_author else ACCEPT_NAMED
    return Who(f"{named(people.allowed)} ({level} access or more)", accept)


ACCEPT_NAMED = "the same people, other than the RFD's author"


def stepper(status: Status | None, word: str = "") -> str:
    """``Draft → **Discussion** → Accepted → Implemented``, the passed steps ticked; in the
    repository's words when it has its own (``prediscussion → **discussion** → published``)."""
    if status is None:
        return ""
    rank = status.rank
    said = _words(word)
    steps = [
        f"**{word or said(s)}**" if s is status else f"✓ {said(s)}" if s.rank < rank else said(s)
        for s in MAIN_PATH
    ]
    line = " → ".join(steps)
    return line if rank >= 0 else f"{line} · **✕ {word or status.value}**"


def _words(word: str) -> Callable[[Status], str]:
    """Each stage's name in the vocabulary of ``word`` (rfd's own without one)."""
    return lambda s: inline(said(s, word))


def tally(counts: Mapping[Severity, int] | None) -> str:
    if counts is None:
        return "—"
    parts = [f"{ICON[s]} {n} {s.value}".strip() for s in Severity if (n := counts.get(s, 0))]
    return " · ".join(parts) or "no findings"


def next_step(panel: Panel, review_label: str, accept_label: str) -> str:
    """What to do now, in this status (who may do it is said on the line below)."""
    facts = {"review": review_label, "accept": accept_label}
    status = panel.status
    if status in (Status.DRAFT, Status.DISCUSSION):
        if panel.signed_off and not any(not r.dismissed for r in panel.reviews):
            return NEXT_SIGNED_OFF.format(**facts)
        if panel.blocker:  # what holds acceptance up comes first, naming who moves it
            blocked = NEXT_BLOCKED.format(blocker=panel.blocker, **facts)
            return blocked[:1].upper() + blocked[1:]
        waiting = NEXT_SIGN_OFF if panel.signed_off is False else ""
        return _in_discussion(panel, facts) + waiting
    return _after_discussion(panel, facts)


def _in_discussion(panel: Panel, facts: dict[str, str]) -> str:
    active = [r for r in panel.reviews if not r.dismissed]
    if not active:
        return NEXT_REVIEW.format(**facts)
    total: dict[Severity, int] = {}
    for entry in active:
        for severity, n in (entry.counts or {}).items():
            total[severity] = total.get(severity, 0) + n
    opened = f"{len(active)} open review{'s' if len(active) > 1 else ''} ({tally(total)})"
    blocking = total.get(Severity.BLOCKER, 0) + total.get(Severity.MAJOR, 0)
    return (NEXT_SETTLE if blocking else NEXT_READ).format(open=opened, **facts)


def _after_discussion(panel: Panel, facts: dict[str, str]) -> str:
    status, said = panel.status, _words(panel.word)
    words = {s.name.lower(): said(s) for s in Status}  # ``{accepted}``: ``published``
    if status is Status.ACCEPTED and panel.by_hand is not None:
        by_hand = NEXT_TAKE_ON if panel.by_hand is ByHand.ON_DEFAULT else NEXT_MARKED_HERE
        return by_hand.format(**words)
    if status is Status.ACCEPTED:
        if panel.next_phase:
            where = f"tracking issue #{panel.tracking}" if panel.tracking else "its tracking issue"
            return NEXT_IMPLEMENT.format(where=where, phase=inline(panel.next_phase), **facts)
        return NEXT_DONE.format(**words) if panel.phases else NEXT_NO_PLAN
    if status is Status.IMPLEMENTED:
        issue = f"tracking issue #{panel.tracking}" if panel.tracking else "its tracking issue"
        return NEXT_IMPLEMENTED.format(issue=issue)
    return NEXT_CLOSED.format(status=said(status) if status else "changed")


def _who(status: Status | None, who: Who, accept_label: str) -> str:
    if status in (Status.DRAFT, Status.DISCUSSION):
        text = WHO_MAY.format(who_review=who.review, who_accept=who.accept, accept=accept_label)
    elif status is Status.ACCEPTED:
        text = WHO_MAY_LATER.format(who_review=who.review)
    else:
        return ""
    return f"<sub>{text}</sub>"


def review_table(entries: Sequence[ReviewEntry]) -> list[str]:
    """``Review 1`` is what ``/rfd dismiss 1`` removes; dismissed ones fold away below."""
    shown = [e for e in entries if not e.dismissed]
    gone = [e for e in entries if e.dismissed]
    head = ["| review | findings | revision |", "|---|---|---|"]
    lines = head if shown else [NO_OPEN_REVIEWS if gone else NO_REVIEWS]
    for entry in shown:
        name = f"Review {entry.number}" if entry.number else "review (not saved to the branch)"
        named = f"[{name}]({entry.url})" if entry.url else name
        revision = _revision(entry)
        if entry.revision and not entry.current:
            revision += " (older)"
        lines.append(f"| {named} | {tally(entry.counts)} | {revision} |")
    return lines + _dismissed(gone)


def _revision(entry: ReviewEntry) -> str:
    if not entry.revision:
        return "—"
    return f"[`{entry.revision}`]({entry.commit})" if entry.commit else f"`{entry.revision}`"


def _dismissed(gone: Sequence[ReviewEntry]) -> list[str]:
    """The dismissed reviews, folded: each linked to its comment, with the commit it was of."""
    if not gone:
        return []
    items = [
        f"- [dismissed review]({e.url}) of {_revision(e)}"
        if e.url
        else f"- dismissed review of {_revision(e)}"
        for e in gone
    ]
    summary = plural(len(gone), "dismissed review")
    return ["", f"<details><summary>{summary}</summary>", "", *items, "", "</details>"]


def lint_line(errors: int, warnings: int) -> str:
    parts = [
        f"{n} {word}{'s' if n > 1 else ''}"
        for n, word in ((errors, "error"), (warnings, "warning"))
        if n
    ]
    return LINT.format(counts=", ".join(parts)) if parts else ""


def panel_text(panel: Panel, who: Who, review_label: str, accept_label: str) -> list[str]:
    title = link_text(f"RFD {panel.rfd_id}: {panel.title}".strip().rstrip(":"))
    status = f" — {panel.word or panel.status.value}" if panel.status else ""
    lines = [f"### [{title}]({panel.url}){status}", ""]
    if panel.problem:
        return [*lines, BROKEN.format(problem=inline(panel.problem)), ""]
    lines += [stepper(panel.status, panel.word), ""]
    if panel.site:
        lines += [f"[Read it on the RFD site]({panel.site})", ""]
    step = next_step(panel, review_label, accept_label)
    lines += [f"**Next step:** {step}", ""]
    if who_line := _who(panel.status, who, accept_label):
        lines += [who_line, ""]
    if panel.decision:
        lines += [*panel.decision, ""]
    if panel.status in (Status.DRAFT, Status.DISCUSSION) or panel.reviews:
        lines += [*review_table(panel.reviews), ""]
    if panel.impl_reviews:
        lines += [f"Implementation reviews on file: {panel.impl_reviews}.", ""]
    lint = lint_line(*panel.lint)
    return [*lines, lint, ""] if lint else lines


def render(
    panels: Sequence[Panel],
    *,
    head: str,
    who: Who,
    review_label: str,
    accept_label: str,
    commands: str,
    commit: str = "",
) -> str:
    """The whole comment: one block per RFD, the command list folded, and the commit it was
    made for (``head``, linked to ``commit``, its page on GitHub, when given)."""
    lines: list[str] = []
    for panel in panels:
        lines += panel_text(panel, who, review_label, accept_label)
    folded = ["<details><summary>All commands</summary>", "", commands, "", "</details>", ""]
    shown = f"[`{head}`]({commit})" if commit else f"`{head}`"
    return "\n".join([*lines, *folded, FOOTER.format(head=shown)])


Counts = Mapping[Severity, int]


@dataclass(frozen=True)
class Row:
    changed: ChangedRfd
    title: str = ""
    status: Status | None = None
    reviews: tuple[tuple[str, Counts], ...] = ()
    """``(file name, findings by severity)`` of each review on file, oldest first."""
    impl_reviews: int = 0
    phases: int = 0
    next_phase: str = ""
    tracking: int | None = None
    problem: RfdError | None = None
    decision: tuple[str, ...] = ()
    """The "Decision" block (``[consensus]``): sign-offs, open concerns, the FCP."""
    signed_off: bool | None = None
    """Whether the sign-offs acceptance needs are there; None without ``[consensus]``."""
    blocker: str = ""
    """What holds acceptance up, naming the people who can move it (markdown, made safe)."""
    word: str = ""
    """The status as the RFD writes it (``published``): the dashboard speaks it."""
    by_hand: ByHand | None = None


_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{0,39}")
"""A status word the dashboard may show as written (RFD text never becomes markdown)."""


def _counts(path: Path) -> Counts:
    found = reviews.parse(path.read_text(encoding="utf-8")).counts()
    return {s: found[s.value] for s in Severity}


def _upcoming(plan: Sequence[PlanPhase], todo: list[int]) -> str:
    """``1: Writer``: the first required phase not done (empty when none is left)."""
    if not todo:
        return ""
    return f"{phase_ids.label(plan[todo[0] - 1], todo[0])}: {plan[todo[0] - 1].title}"


def read_row(
    root: Path,
    cfg: Config,
    changed: ChangedRfd,
    now: float,
    web: str = "",
    people: People | None = None,
) -> Row:
    """What the PR's version of one RFD says at ``now`` (a broken file, or a broken
    consensus record, becomes ``problem``); ``web``: the repository, whose commit pages the
    sign-offs link; ``people``: who may act, when known (the blocker names them)."""
    if changed.removed:
        return Row(changed)
    try:
        doc = read(root, changed.file)
    except RfdError as err:
        return Row(changed, problem=err)
    store = StateStore(root, cfg)
    state = store.read(changed.file.rfd_id)
    plan = state.plan or ()
    upcoming = _upcoming(plan, phase_ids.missing(plan, state.completed))
    try:
        at = commit_links(root, changed.file.path, web) if cfg.consensus.enabled else None
        decision, signed_off, blocker = _decision(
            store, cfg, doc, str(changed.file.rfd_id), now, at, people
        )
    except RfdError as err:
        return Row(changed, doc.title, problem=err)
    return Row(
        changed,
        doc.title,
        doc.status,
        tuple((r.path.name, _counts(r.path)) for r in state.reviews),
        len(state.impl_reviews),
        len(plan),
        upcoming,
        doc.tracking_issue,
        decision=decision,
        signed_off=signed_off,
        blocker=blocker,
        word=doc.status_word if _PLAIN_WORD.fullmatch(doc.status_word) else "",
        by_hand=ByHand.HERE if _untracked(doc, state) else None,
    )


def _untracked(doc: Document, state: RfdState) -> bool:
    """Accepted with no ``plan.json`` (a broken one is a plan someone meant)."""
    return doc.status is Status.ACCEPTED and state.plan is None and state.plan_error is None


def commit_links(root: Path, path: str, web: str, rev: str = "HEAD") -> Callable[[str], str]:
    """A sign-off's revision (a blob) as a link to the commit that brought it in the history
    of ``rev`` (empty when that history does not hold it: no blob is ever shown)."""
    from bot.github.approved_at import commits_of

    commits = commits_of(root, path, rev)

    def at(revision: str) -> str:
        sha = commits.get(revision)
        return f"[`{sha[:7]}`]({web}/commit/{sha})" if sha and web else ""

    return at


Decided = tuple[tuple[str, ...], bool | None, str]


def _decision(
    store: StateStore,
    cfg: Config,
    doc: Document,
    rid: str,
    now: float,
    at: Callable[[str], str] | None = None,
    people: People | None = None,
) -> Decided:
    """The sign-off block, whether acceptance has its sign-offs and what holds it up, when
    the repository asks for them (``[consensus]``); once decided, what it was made with."""
    if not cfg.consensus.enabled:
        return (), None, ""
    from bot.lifecycle.consensus_gate import block, standing
    from bot.model.consensus import revision

    ledger, rev = store.read_consensus(rid), revision(doc.text)
    if doc.status not in (Status.DRAFT, Status.DISCUSSION):
        return decided(ledger, doc.status, at), True, ""
    found = standing(cfg.consensus, ledger, rid, rev, now)
    lines = tuple(block(cfg.consensus, ledger, rid, rev, now, slash=True, at=at))
    maintainers = people.maintainers if people else ()
    return lines, found.met, blocker(cfg.consensus, ledger, found, maintainers)


BLOCKING_CONCERN = (
    "concern {n} by {author} is open: {author} or {maintainer} resolves it (`/rfd resolve {n}`)"
)
A_MAINTAINER = "a maintainer"
NAMED_MAINTAINER = "a maintainer ({who})"
MISSING_SIGN_OFFS = "sign-offs {have} of {need}: waiting for {who} (`/rfd approve`)"
ANY_REVIEWER = "any of {who}"
NO_FCP = "a reviewer ({who}) starts the final comment period (`/rfd fcp`)"


def blocker(
    cfg: ConsensusSection, ledger: Ledger, found: Standing, maintainers: Sequence[str] = ()
) -> str:
    """What holds acceptance up, each part naming who can move it (empty when nothing):
    a concern's author or ``maintainers`` (when known), the reviewers still to sign off."""
    parts = []
    for c in ledger.open_concerns:
        others = [m for m in maintainers if m.casefold() != c.author.casefold()]
        maintainer = NAMED_MAINTAINER.format(who=named(others)) if others else A_MAINTAINER
        parts.append(
            BLOCKING_CONCERN.format(n=c.number, author=inline(c.author), maintainer=maintainer)
        )
    if found.have < found.need:
        anyone = ANY_REVIEWER.format(who=", ".join(inline(r) for r in cfg.reviewers))
        who = ", ".join(inline(w) for w in found.waiting) or anyone
        parts.append(MISSING_SIGN_OFFS.format(have=found.have, need=found.need, who=who))
    if not parts and cfg.fcp_days and ledger.fcp is None:
        parts.append(NO_FCP.format(who=", ".join(inline(r) for r in cfg.reviewers)))
    return "; ".join(parts)


def _entry(
    number: int | None,
    counts: Counts | None,
    posted: PostedReview | None,
    now: tuple[str, str, str],
    *,
    dismissed: bool = False,
) -> ReviewEntry:
    """``now``: the PR's head, the RFD's blob there (a review of that content is current)
    and the repository's web address (a revision links its commit)."""
    if posted is None:
        return ReviewEntry(number, None, counts)
    head, blob, web = now
    revision, current = short(posted.reviewed)[:7], posted.is_current(head, blob)
    commit = f"{web}/commit/{posted.reviewed}" if web else ""
    return ReviewEntry(number, posted.comment.url, counts, revision, current, dismissed, commit)


def review_entries(
    row: Row, posted: Sequence[PostedReview], head: str, web: str = ""
) -> list[ReviewEntry]:
    """The RFD's reviews as the status comment lists them: on file (numbered), then the
    posted ones no longer on file (dismissed) or never saved (a fork's)."""
    mine = [p for p in posted if p.rfd == str(row.changed.file.rfd_id) and not p.implementation]
    now = (head, row.changed.blob, web)
    by_file = {p.saved_name: p for p in mine if p.saved_name}
    entries = [
        _entry(n, counts, by_file.get(name), now)
        for n, (name, counts) in enumerate(row.reviews, start=1)
    ]
    on_file = {name for name, _ in row.reviews}
    for p in mine:
        if p.saved_name not in on_file:
            entries.append(_entry(None, None, p, now, dismissed=p.saved_name is not None))
    return entries


def panel(
    row: Row,
    posted: Sequence[PostedReview],
    *,
    url: str,
    head: str,
    lint: tuple[int, int],
    web: str = "",
) -> Panel:
    """``url``: the RFD at ``head``; ``web``: the repository (revisions link their commit)."""
    rid = str(row.changed.file.rfd_id)
    if row.changed.removed:
        return Panel(rid, "", url, problem="the pull request removes this RFD")
    if row.problem is not None:
        return Panel(rid, "", url, problem=row.problem.message)
    return Panel(
        rid,
        row.title,
        url,
        row.status,
        reviews=tuple(review_entries(row, posted, head, web)),
        impl_reviews=row.impl_reviews,
        next_phase=row.next_phase,
        phases=row.phases,
        tracking=row.tracking,
        by_hand=row.by_hand,
        lint=lint,
        decision=row.decision,
        signed_off=row.signed_off,
        blocker=row.blocker,
        word=row.word,
    )


Lint = dict[str, tuple[int, int]]


def read_rows(ctx: Context, pr: PullRequest) -> tuple[list[Row], Lint]:
    """Rows and lint counts of every RFD the PR changes; empty when it changes none (no
    checkout made)."""
    changed = changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root)
    if not changed:
        return [], {}
    paths = [c.file.path for c in changed]
    checkout = open_pull(ctx.root, pr, ctx.api, ctx.environ, paths=paths, guarded=[ctx.cfg.rfd_dir])
    try:
        if ctx.cfg.consensus.enabled:
            from bot.github.bot_records import trust_ledgers

            trust_ledgers(ctx, checkout, pr.number)
        web = f"{ctx.server_url}/{pr.head_repo}"
        known = collaborators(ctx)
        rows = [read_row(checkout.root, ctx.cfg, c, ctx.clock(), web, known) for c in changed]
        rows = [_by_hand(ctx, row) for row in rows]
        return rows, lint(ctx, checkout.root, rows)
    finally:
        close(ctx.root, checkout)


def _by_hand(ctx: Context, row: Row) -> Row:
    """The row of an RFD Accepted with no plan, saying whether the default branch has it
    Accepted too (:func:`bot.github.accept.take_on` takes it on) or only this pull request."""
    if row.by_hand is None:
        return row
    from bot.github.places import status_on_default_branch

    there = status_on_default_branch(ctx, str(row.changed.file.rfd_id))
    return replace(row, by_hand=ByHand.ON_DEFAULT if there is Status.ACCEPTED else ByHand.HERE)


def lint(ctx: Context, root: Path, rows: list[Row]) -> Lint:
    """Lint the changed RFDs: each finding an annotation on the PR's diff; the counts
    ``(errors, warnings)`` by path."""
    from bot.config.discovery import scan
    from bot.lifecycle.lint import LintSettings, lint_text

    files = scan(root, ctx.cfg)
    settings = LintSettings.of(ctx.cfg.lint)
    known = {f.rfd_id: Status.DRAFT if f.rfd_id.draft else Status.DISCUSSION for f in files}
    counts: Lint = {}
    for row in rows:
        if row.changed.removed or row.problem is not None:
            continue
        path = row.changed.file.path
        text = (root / path).read_text(encoding="utf-8")
        found = lint_text(text, path, known=known, file=row.changed.file, settings=settings)
        for f in found:
            level = "error" if f.severity.name == "ERROR" else "warning"
            ctx.summary.annotate(level, f"{f.code} {f.message} ({f.hint})", file=path, line=f.line)
        errors = sum(1 for f in found if f.severity.name == "ERROR")
        counts[path] = (errors, len(found) - errors)
    total = sum(e + w for e, w in counts.values())
    if total:
        ctx.summary.note(f"{plural(total, 'lint finding')} annotated on the changed RFDs")
    return counts


def status_body(
    ctx: Context,
    rows: list[Row],
    lint: Lint,
    posted: list[PostedReview],
    *,
    repo: str,
    head: str,
    people: People | None = None,
) -> str:
    """The status comment of ``rows`` at ``head`` (a sha or a branch) of ``repo``;
    ``people``: who may act, when known (named instead of described)."""
    panels = []
    for row in rows:
        path = row.changed.file.path
        web = f"{ctx.server_url}/{repo}"
        url = f"{web}/blob/{quote(head)}/{quote(path)}"
        found = panel(row, posted, url=url, head=head, lint=lint.get(path, (0, 0)), web=web)
        site = page_url(ctx.cfg.site.url, row.changed.file.rfd_id)
        panels.append(_with_forged(ctx, replace(found, site=site) if site else found))
    cfg = ctx.cfg
    who = who_of(cfg, people)
    labels = cfg.labels
    return render(
        panels,
        head=short(head),
        who=who,
        review_label=labels.review,
        accept_label=labels.accept,
        commands=command_table(cfg),
        commit=f"{ctx.server_url}/{repo}/commit/{quote(head)}",
    )


def collaborators(ctx: Context, at_least: Permission | None = None) -> People | None:
    """Who may act, from the repository's collaborators as GitHub lists them (read once
    per run): those with ``at_least`` (default ``accept.min_permission``) or more; None when
    GitHub does not say or the listing fails (the texts then describe them instead)."""
    level = at_least or Permission.parse(ctx.cfg.accept.min_permission)
    found = None
    with cosmetic(ctx.summary, "listing who may act on the repository"):
        found = ctx.api.collaborators(level)
    if not found:
        return None
    allowed = tuple(login for login, _ in found)
    return People(allowed, tuple(login for login, role in found if role >= Permission.MAINTAIN))


def _with_forged(ctx: Context, made: Panel) -> Panel:
    """``made`` whose Decision block also says what edited or deleted sign-off comments now
    count for, and names the ledger entries written by hand on the branch that it left out
    (:mod:`bot.github.bot_records`)."""
    from bot.github.bot_records import followed_line, forged_line

    notes, found = ctx.followed.get(made.rfd_id), ctx.forged.get(made.rfd_id)
    lines = [followed_line(made.rfd_id, notes)] if notes else []
    lines += [forged_line(made.rfd_id, found)] if found else []
    if not lines:
        return made
    return replace(
        made, decision=(*made.decision, *(x for line in lines for x in ("", f"> {line}")))
    )


def on_pull_request(ctx: Context) -> None:
    """``pull_request`` opened / synchronize / reopened."""
    pr = ctx.delivery.pull_request
    assert pr is not None
    if post_status(ctx, pr) is None:
        ctx.summary.note(f"#{pr.number} changes no RFD: nothing to do")


def post_status(ctx: Context, pr: PullRequest) -> Comment | None:
    """Post or edit ``pr``'s status comment, sync its label, mark reviews of older revisions.

    None when the PR changes no RFD.  Shared with ``reconcile``, which rebuilds the
    comment of every open PR this way; the job summary notes what was written.
    """
    rows, counts = read_rows(ctx, pr)
    if not rows:
        return None
    for row in rows:
        if row.problem is not None:
            ctx.summary.problem(row.problem)
    posted = posted_reviews(ctx.forge.comments(pr.number))
    known = collaborators(ctx)
    body = status_body(ctx, rows, counts, posted, repo=pr.head_repo, head=pr.head_sha, people=known)
    found = _write(ctx, pr, body, rows)
    update_reviews(ctx, pr, posted, rows, head=pr.head_sha)
    return found


def refresh(
    ctx: Context,
    pr: PullRequest,
    root: Path,
    head: str,
    changed: list[ChangedRfd] | None = None,
    *,
    dismissed_by: str = "",
) -> Comment:
    """After the bot changed the PR (accept, review, dismiss, refine, done): the status
    comment and the label as of ``head``, read from the checkout at ``root``; the review
    comments renumbered, a dismissed one folded (``dismissed_by``: who dismissed it)."""
    if changed is None:
        changed = changed_rfds(ctx.api.pull_files(pr.number), ctx.cfg, ctx.root)
    web = f"{ctx.server_url}/{pr.head_repo}"
    known = collaborators(ctx)
    rows = [read_row(root, ctx.cfg, c, ctx.clock(), web, known) for c in changed]
    posted = posted_reviews(ctx.forge.comments(pr.number))
    counts = lint(ctx, root, rows)
    body = status_body(ctx, rows, counts, posted, repo=pr.head_repo, head=head, people=known)
    found = _write(ctx, pr, body, rows)
    update_reviews(ctx, pr, posted, rows, by=dismissed_by)
    return found


def _write(ctx: Context, pr: PullRequest, body: str, rows: list[Row]) -> Comment:
    """Write the status comment; when it changed, the PR's lifecycle label follows (an
    unchanged comment means the label was synced when it was written: no request)."""
    before = ctx.forge.find_comment(pr.number, marker("status", pr.number))
    found = ctx.upsert("status", pr.number, body, number=pr.number, proofs=True)
    if found != before:
        sync_labels(ctx, pr.number, pr.labels, [r.status for r in rows if r.status])
    return found


def update_reviews(
    ctx: Context,
    pr: PullRequest,
    posted: list[PostedReview],
    rows: list[Row],
    *,
    head: str = "",
    by: str = "",
) -> None:
    """Bring the bot's review comments in line with the branch: a dismissed one folded (by
    ``by``, when known), the others under the number they have now; with ``head`` (a push),
    those of another content of their RFD get a banner.  One edit per comment that changed."""
    web = f"{ctx.server_url}/{pr.head_repo}"
    for row in rows:
        if row.changed.removed or row.problem is not None:
            continue  # what is on file is not known: nothing is renumbered or dismissed
        numbers = {name: n for n, (name, _) in enumerate(row.reviews, start=1)}
        for review in (p for p in posted if p.rfd == str(row.changed.file.rfd_id)):
            current = not head or review.is_current(head, row.changed.blob)
            number = numbers.get(review.saved_name or "")
            body = brought_up_to_date(review, number, current=current, web=web, by=by)
            if body != review.comment.body:
                ctx.forge.edit_comment(pr.number, review.comment.id, body)
                ctx.summary.note(f"review of RFD {review.rfd} {_why(body)}")


def _why(body: str) -> str:
    if DISMISSED_MARK in body:
        return "marked as dismissed, its text folded"
    return "marked as of an older revision" if STALE_MARK in body else "renumbered"
