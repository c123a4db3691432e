"""What the status comment shows of each RFD, read from the PR's files and the bot's comments.

A :class:`Row` is what the PR's version of an RFD says (status, reviews on file with
their findings, plan).  :func:`panel` pairs its reviews with the review comments
the bot posted (by the file each one was saved as): a review on file is numbered as
``/rfd dismiss`` takes it and linked to its comment; a posted review whose file is
gone was dismissed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.config.discovery import read
from bot.config.load import Config
from bot.config.schema import ConsensusSection
from bot.core.errors import RfdError
from bot.github.changed import ChangedRfd
from bot.github.dashboard import Panel, ReviewEntry
from bot.github.revisions import PostedReview, short
from bot.lifecycle.consensus_gate import Standing
from bot.model import phase_ids, reviews
from bot.model.consensus import Ledger
from bot.model.document import Document
from bot.model.plan import PlanPhase
from bot.model.reviews import Severity
from bot.model.status import Status
from bot.state import StateStore

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


def read_row(root: Path, cfg: Config, changed: ChangedRfd, now: float, web: str = "") -> Row:
    """What the PR's version of one RFD says at ``now`` (a broken file, or a broken
    consensus record, becomes ``problem``); ``web``: the repository, whose commit pages the
    sign-offs link."""
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
        at = _commit_links(root, changed.file.path, web) if cfg.consensus.enabled else None
        decision, signed_off, blocker = _decision(store, cfg, doc, str(changed.file.rfd_id), now,
                                                  at)  # fmt: skip
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
    )


def _commit_links(root: Path, path: str, web: str) -> Callable[[str], str]:
    """A sign-off's revision (a blob) as a link to the commit that brought it (empty when the
    branch's history does not hold it: no blob is ever shown)."""
    from bot.github.approved_at import commits_of

    commits = commits_of(root, path)

    def at(revision: str) -> str:
        sha = commits.get(revision)
        return f"[`{sha[:7]}`]({web}/commit/{sha})" if sha and web else ""

    return at


Decided = tuple[tuple[str, ...], bool | None, str]


def _decision(store: StateStore, cfg: Config, doc: Document, rid: str, now: float,
              at: Callable[[str], str] | None = None) -> Decided:  # fmt: skip
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
    return lines, found.met, blocker(cfg.consensus, ledger, found)


BLOCKING_CONCERN = (
    "concern {n} by {author} is open: {author} or a maintainer resolves it (`/rfd resolve {n}`)"
)
MISSING_SIGN_OFFS = "sign-offs {have} of {need}: waiting for {who} (`/rfd approve`)"
NO_FCP = "a reviewer ({who}) starts the final comment period (`/rfd fcp`)"


def blocker(cfg: ConsensusSection, ledger: Ledger, found: Standing) -> str:
    """What holds acceptance up, each part naming who can move it (empty when nothing)."""
    from bot.core.markdown_safe import inline

    parts = [BLOCKING_CONCERN.format(n=c.number, author=inline(c.author))
             for c in ledger.open_concerns]  # fmt: skip
    if found.have < found.need:
        who = ", ".join(inline(w) for w in found.waiting) or "any reviewer"
        parts.append(MISSING_SIGN_OFFS.format(have=found.have, need=found.need, who=who))
    if not parts and cfg.fcp_days and ledger.fcp is None:
        parts.append(NO_FCP.format(who=", ".join(inline(r) for r in cfg.reviewers)))
    return "; ".join(parts)


DECIDED = "{status} with the sign-offs of {who}."
DECIDED_ALONE = "{status}: no sign-off was recorded."


def decided(ledger: Ledger, status: Status,
            at: Callable[[str], str] | None = None) -> tuple[str, ...]:  # fmt: skip
    """The Decision block of an RFD past its discussion: who signed off, on which revision
    (the sign-offs are history now: no "older revision", no "ready to accept")."""
    from bot.core.markdown_safe import inline

    revision = at or (lambda blob: f"`{blob[:7]}`")
    who = ", ".join(f"{inline(a.login)} (at {rev})" if (rev := revision(a.revision))
                    else inline(a.login) for a in ledger.approvals)  # fmt: skip
    accepted = status in (Status.ACCEPTED, Status.IMPLEMENTED)
    shown = "✅ Accepted" if accepted else status.value
    line = DECIDED.format(status=shown, who=who) if who else DECIDED_ALONE.format(status=shown)
    return ("#### Decision", "", line)


def _entry(number: int | None, counts: Counts | None, posted: PostedReview | None,
           now: tuple[str, str, str], *, dismissed: bool = False) -> ReviewEntry:  # fmt: skip
    """``now``: the PR's head, the RFD's blob there (a review of that content is current)
    and the repository's web address (a revision links its commit)."""
    if posted is None:
        return ReviewEntry(number, None, counts)
    head, blob, web = now
    revision, current = short(posted.reviewed)[:7], posted.is_current(head, blob)
    commit = f"{web}/commit/{posted.reviewed}" if web else ""
    return ReviewEntry(number, posted.comment.url, counts, revision, current, dismissed, commit)


def review_entries(row: Row, posted: Sequence[PostedReview], head: str,
                   web: str = "") -> list[ReviewEntry]:  # fmt: skip
    """The RFD's reviews as the status comment lists them: on file (numbered), then the
    posted ones no longer on file (dismissed) or never saved (a fork's)."""
    mine = [p for p in posted if p.rfd == str(row.changed.file.rfd_id) and not p.implementation]
    now = (head, row.changed.blob, web)
    by_file = {p.saved_name: p for p in mine if p.saved_name}
    entries = [_entry(n, counts, by_file.get(name), now)
               for n, (name, counts) in enumerate(row.reviews, start=1)]  # fmt: skip
    on_file = {name for name, _ in row.reviews}
    for p in mine:
        if p.saved_name not in on_file:
            entries.append(_entry(None, None, p, now, dismissed=p.saved_name is not None))
    return entries


def panel(row: Row, posted: Sequence[PostedReview], *, url: str, head: str,
          lint: tuple[int, int], web: str = "") -> Panel:  # fmt: skip
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
        lint=lint,
        decision=row.decision,
        signed_off=row.signed_off,
        blocker=row.blocker,
        word=row.word,
    )
