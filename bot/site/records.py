"""What the site knows about each RFD: immutable records, filled by :mod:`bot.site.corpus`."""

from __future__ import annotations

from dataclasses import dataclass, field

LINK_KINDS = ("requires", "extends", "supersedes")
"""The header links the graph draws, each pointing from an RFD to the one it names."""


@dataclass(frozen=True)
class Phase:
    label: str
    title: str
    done: bool
    optional: bool = False
    pr: int | None = None


@dataclass(frozen=True)
class Concern:
    number: int
    author: str
    text: str
    open: bool
    link: str = ""


@dataclass(frozen=True)
class Review:
    """The latest review on file: when, by what, and what it found."""

    kind: str
    stamp: int
    summary: str
    counts: dict[str, int]
    findings: tuple[tuple[str, str, str], ...]
    """``(severity, section, message)`` of each finding, most severe first."""
    reviewer: str = ""

    @property
    def verdict(self) -> str:
        if self.counts.get("blocker"):
            return "changes needed"
        if self.counts.get("major"):
            return "concerns"
        return "no major findings"


@dataclass(frozen=True)
class Decisions:
    locked: tuple[str, ...] = ()
    discussing: tuple[str, ...] = ()
    rejected: tuple[tuple[str, str], ...] = ()
    """``(decision, reason)``."""


@dataclass(frozen=True)
class SiteRfd:
    """One RFD as the site shows it.  ``id`` is the id its file name gives (``045``, ``D05``);
    the link tuples hold the ids its header names, as written."""

    id: str
    title: str
    status: str
    """rfd's stage (``Accepted``): what colours, filters and gates go by."""
    path: str
    text: str
    """The document below its title and header, as written (Markdown or AsciiDoc)."""
    word: str = ""
    """The status as the repository writes it (``published``); empty: the same as ``status``."""
    files: tuple[str, ...] = ()
    """The other files of the RFD's directory (diagrams, notes), relative to the repository."""
    category: str | None = None
    authors: tuple[str, ...] = ()
    date: str | None = None
    labels: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    extends: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()
    discussion: int | None = None
    tracking_issue: int | None = None
    plan: tuple[Phase, ...] | None = None
    approvals: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()
    """Reviewers whose sign-off the accept gate still needs (``[consensus]``)."""
    concerns: tuple[Concern, ...] = ()
    fcp_end: float | None = None
    review: Review | None = None
    decisions: Decisions = field(default_factory=Decisions)

    @property
    def shown(self) -> str:
        """The status a reader sees: the repository's own word."""
        return self.word or self.status

    def links(self, kind: str) -> tuple[str, ...]:
        found: tuple[str, ...] = getattr(self, kind)
        return found

    @property
    def progress(self) -> tuple[int, int] | None:
        if self.plan is None:
            return None
        return sum(p.done for p in self.plan), len(self.plan)

    @property
    def open_concerns(self) -> tuple[Concern, ...]:
        return tuple(c for c in self.concerns if c.open)


@dataclass(frozen=True)
class Corpus:
    """Every RFD of the repository, and what could not be read (``path: message``)."""

    rfds: tuple[SiteRfd, ...]
    problems: tuple[str, ...] = ()
    repository: str | None = None
    """``owner/name`` on GitHub, for links to pull requests and issues (None: no links)."""
    site_url: str = ""
