"""The one adapter between the repository and the site: :func:`read_corpus`.

Everything the site shows comes out of here as :class:`~bot.site.records.SiteRfd` values,
read with the model and state functions ``rfd list`` and ``rfd status`` use (documents from
:mod:`bot.config.discovery`, state files from :class:`bot.state.StateStore`).  Reading another
dialect of RFD repository means changing this module only.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from bot.config import discovery
from bot.config.load import load_config
from bot.config.schema import Config
from bot.core.errors import RfdError
from bot.lifecycle.consensus_gate import standing
from bot.model import consensus, phase_ids
from bot.model import reviews as reviews_md
from bot.model.document import Document, parse_links
from bot.model.status import Status
from bot.site.records import Concern, Corpus, Decisions, Phase, Review, SiteRfd
from bot.state import StateStore

_NUMBER = re.compile(r"(?:#|/pull/|/issues/)([0-9]+)\b|^\s*([0-9]+)\s*$")
_PR_IN_SUMMARY = re.compile(r"(?:\bPR\s*#|/pull/)([0-9]+)\b", re.IGNORECASE)
_LABEL_SPLIT = re.compile(r"[,;]")
REVIEW_FINDINGS = 8
"""Findings of the latest review shown on an RFD's page (the most severe first)."""


def read_corpus(root: Path, *, repository: str | None = None) -> Corpus:
    """Every RFD under ``root`` with its state; files that do not parse become problems."""
    cfg = load_config(root)
    docs, errors = discovery.load_all(root, cfg)
    store = StateStore(root, cfg)
    rfds = tuple(_rfd(doc, store, cfg) for doc in sorted(docs, key=_order) if doc.rfd_id)
    return Corpus(
        rfds=rfds,
        problems=tuple(str(e) for e in errors),
        repository=repository,
        site_url=cfg.site.url,
    )


def _order(doc: Document) -> tuple[bool, int, str]:
    rid = doc.rfd_id
    return (rid.draft, rid.number, doc.path) if rid else (True, 0, doc.path)


def _rfd(doc: Document, store: StateStore, cfg: Config) -> SiteRfd:
    rid = str(doc.rfd_id)
    ledger = _ledger(store, rid)
    waiting: tuple[str, ...] = ()
    if cfg.consensus.enabled and doc.status is Status.DISCUSSION:
        rev = consensus.revision(doc.text)
        waiting = standing(cfg.consensus, ledger, rid, rev, time.time()).waiting
    return SiteRfd(
        id=rid,
        title=doc.title,
        status=doc.status.value,
        path=doc.path,
        text=_body(doc),
        category=doc.category,
        authors=doc.authors,
        date=(doc.field("Date") or "").strip() or None,
        labels=_labels(doc.field("Labels")),
        requires=_ids(doc, "Requires"),
        extends=_ids(doc, "Extends"),
        supersedes=_ids(doc, "Supersedes"),
        discussion=_number(doc.field("Discussion") or doc.field("Discussion PR")),
        tracking_issue=doc.tracking_issue,
        plan=_plan(store, rid),
        approvals=tuple(a.login for a in ledger.approvals),
        waiting_for=waiting,
        concerns=tuple(
            Concern(c.number, c.author, c.text, c.open, c.link) for c in ledger.concerns
        ),
        fcp_end=ledger.fcp.end if ledger.fcp else None,
        review=_review(store, rid),
        decisions=_decisions(store, rid),
    )


def _body(doc: Document) -> str:
    """The document below its title and header fields (the page shows those itself)."""
    last = max((f.line + f.span - 1 for f in doc.fields), default=doc.heading_line)
    return "".join(doc.lines[last:])


def _ids(doc: Document, key: str) -> tuple[str, ...]:
    return tuple(str(i) for i in parse_links(doc.field(key) or ""))


def _labels(value: str | None) -> tuple[str, ...]:
    return tuple(p.strip() for p in _LABEL_SPLIT.split(value or "") if p.strip())


def _number(value: str | None) -> int | None:
    match = _NUMBER.search(value or "")
    return None if match is None else int(match[1] or match[2])


def _ledger(store: StateStore, rid: str) -> consensus.Ledger:
    try:
        return store.read_consensus(rid)
    except RfdError:
        return consensus.Ledger()


def _plan(store: StateStore, rid: str) -> tuple[Phase, ...] | None:
    try:
        plan = store.read_plan(rid)
    except RfdError:
        return None
    if plan is None:
        return None
    files = store.phase_files(rid)
    done = phase_ids.done(plan, files)
    return tuple(
        Phase(
            label=label,
            title=p.title,
            done=n in done,
            optional=phase_ids.optional(p),
            pr=_phase_pr(files.get(phase_ids.normalize(label) or "")),
        )
        for n, (label, p) in enumerate(zip(phase_ids.labels(plan), plan, strict=True), start=1)
    )


def _phase_pr(summary: Path | None) -> int | None:
    if summary is None:
        return None
    try:
        match = _PR_IN_SUMMARY.search(summary.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    return None if match is None else int(match[1])


def _review(store: StateStore, rid: str) -> Review | None:
    found = [*store.list_reviews(rid), *store.list_reviews(rid, impl=True)]
    if not found:
        return None
    latest = max(found, key=lambda r: r.timestamp)
    try:
        parsed = reviews_md.parse(latest.path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    findings = sorted(parsed.findings, key=lambda f: f.severity.rank)[:REVIEW_FINDINGS]
    return Review(
        kind=parsed.kind,
        stamp=latest.timestamp,
        summary=parsed.summary,
        counts=parsed.counts(),
        findings=tuple((f.severity.value, f.section, f.message) for f in findings),
        reviewer=parsed.reviewer,
    )


def _decisions(store: StateStore, rid: str) -> Decisions:
    try:
        found = store.read_decisions(rid)
    except RfdError:
        return Decisions()
    if found is None:
        return Decisions()
    return Decisions(
        locked=tuple(d.text for d in found.locked),
        discussing=tuple(d.text for d in found.discussing),
        rejected=tuple((r.text, r.reason) for r in found.rejected),
    )
