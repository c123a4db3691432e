"""The status comment's text: for each RFD of the PR, where it stands and what to do next.

Pure: :class:`Panel` records in, markdown out.  Each RFD gets its lifecycle as a
one-line stepper with the current status marked, a **Next step** that names the
commands that apply in that status and who may run them, its reviews numbered as
``/rfd dismiss`` takes them (each linked to its comment and its commit, dismissed ones
folded away) and a lint summary.  Text that comes from the RFD (its title) goes
through :mod:`bot.core.markdown_safe` only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.core.markdown_safe import inline, link_text
from bot.core.text import plural
from bot.github.review_post import ICON
from bot.model.reviews import Severity
from bot.model.status import Status

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
NEXT_DONE = "every phase is done: comment `/rfd done` here to mark it Implemented."
WHO_MAY = "Who may: {who_review}; `/rfd accept` and `{accept}`: {who_accept}."
WHO_MAY_LATER = "Who may: {who_review}."
NEXT_NO_PLAN = "merge this pull request; its plan has no phase to implement."
NEXT_IMPLEMENTED = "nothing left to do: merging this pull request closes {issue}."
NEXT_CLOSED = "nothing left to do: merging this pull request records it as {status}."
NO_REVIEWS = "No reviews yet."
NO_OPEN_REVIEWS = "No open reviews."
LINT = "Lint: {counts}, annotated on the changed lines (**Files changed** tab)."
BROKEN = "⚠️ The bot cannot read this RFD: {problem}"
FOOTER = "<sub>Updated for `{head}` · rfd-bot keeps this comment current</sub>"


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
    """Who may run the commands, in words (from ``commands.who_may``)."""

    review: str
    accept: str


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
    if not word or word in {s.value for s in Status}:
        return lambda s: s.value
    from bot.model.vocabulary import word_for

    return lambda s: word_for(s, word, lower=True)


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
    status = panel.status
    if status is Status.ACCEPTED:
        if panel.next_phase:
            where = f"tracking issue #{panel.tracking}" if panel.tracking else "its tracking issue"
            return NEXT_IMPLEMENT.format(where=where, phase=inline(panel.next_phase), **facts)
        return NEXT_DONE.format(**facts) if panel.phases else NEXT_NO_PLAN
    if status is Status.IMPLEMENTED:
        issue = f"tracking issue #{panel.tracking}" if panel.tracking else "its tracking issue"
        return NEXT_IMPLEMENTED.format(issue=issue)
    return NEXT_CLOSED.format(status=status.value if status else "changed")


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
    items = [f"- [dismissed review]({e.url}) of {_revision(e)}" if e.url
             else f"- dismissed review of {_revision(e)}" for e in gone]  # fmt: skip
    summary = plural(len(gone), "dismissed review")
    return ["", f"<details><summary>{summary}</summary>", "", *items, "", "</details>"]


def lint_line(errors: int, warnings: int) -> str:
    parts = [f"{n} {word}{'s' if n > 1 else ''}"
             for n, word in ((errors, "error"), (warnings, "warning")) if n]  # fmt: skip
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


def render(panels: Sequence[Panel], *, head: str, who: Who, review_label: str,
           accept_label: str, commands: str) -> str:  # fmt: skip
    """The whole comment: one block per RFD, the command list folded, and when it was made."""
    lines: list[str] = []
    for panel in panels:
        lines += panel_text(panel, who, review_label, accept_label)
    folded = ["<details><summary>All commands</summary>", "", commands, "", "</details>", ""]
    return "\n".join([*lines, *folded, FOOTER.format(head=head)])
