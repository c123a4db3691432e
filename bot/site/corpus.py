"""The one adapter between the repository and the site: :func:`read_corpus`.

Everything the site shows comes out of here as :class:`~bot.site.records.SiteRfd` values,
read through the corpus API every dialect shares (:mod:`bot.config.corpus`: flat files, a
directory per RFD with YAML front matter or AsciiDoc attributes, RFC ``text/``), with the
state files of :class:`bot.state.StateStore`.  Each RFD keeps the repository's own status
word for display and rfd's stage for colours, filters and gates; a document's body is kept
as written (Markdown or AsciiDoc) for :mod:`bot.site.markdown` to render.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from bot.config import corpus as rfd_corpus
from bot.config import discovery
from bot.config.load import CONFIG_PATH, load_config
from bot.config.schema import Config
from bot.core.errors import RfdError
from bot.lifecycle.consensus_gate import standing
from bot.model import consensus, phase_ids
from bot.model import reviews as reviews_md
from bot.model.document import Document
from bot.model.ids import DOCUMENT_NAMES, RfdId
from bot.model.status import Status
from bot.site import readcache
from bot.site.graph import canonical, key
from bot.site.records import Concern, Corpus, Decisions, Phase, Review, SiteRfd
from bot.state import StateStore
from bot.state.files import IMPL_REVIEWS, REVIEWS, numbered

_NUMBER = re.compile(r"(?:#|/pull/|/issues/)([0-9]+)\b|^\s*([0-9]+)\s*$")
_PR_IN_SUMMARY = re.compile(r"(?:\bPR\s*#|/pull/)([0-9]+)\b", re.IGNORECASE)
_LABEL_SPLIT = re.compile(r"[,;]")
PARALLEL_FROM = 1000
"""RFDs to read before a pool of processes pays for its start-up."""
CHUNK = 250
REVIEW_FINDINGS = 8
"""Findings of the latest review shown on an RFD's page (the most severe first)."""


def read_corpus(root: Path, *, repository: str | None = None, cache: Path | None = None) -> Corpus:
    """Every RFD under ``root`` with its state; files that do not parse become problems.
    With a ``cache`` (:mod:`bot.site.readcache`), an RFD whose files did not change since
    the last read is not read again; a large corpus is read by several processes."""
    cfg = load_config(root)
    files = discovery.scan(root, cfg)
    config = readcache.signature([str(root / CONFIG_PATH)])
    known = readcache.load(cache, config) if cache else {}
    store = StateStore(root, cfg)
    sigs = {
        f.path: readcache.signature(
            readcache.files_of(str(root / f.path), str(store.dir(f.rfd_id)), _folder(root, f))
        )
        for f in files
    }
    kept = [known[f.path][1] for f in files if known.get(f.path, ("",))[0] == sigs[f.path]]
    todo = [f for f in files if known.get(f.path, ("",))[0] != sigs[f.path]]
    rfds, errors = _read(root, todo)
    rfds += kept
    if cache is not None:
        readcache.save(cache, config, {r.path: (sigs[r.path], r) for r in rfds})
    return Corpus(
        rfds=tuple(sorted(_canonical_links(rfds), key=_order)),
        problems=(*map(str, discovery.duplicates(files)), *errors),
        repository=repository,
        site_url=cfg.site.url,
    )


def _canonical_links(rfds: list[SiteRfd]) -> list[SiteRfd]:
    """Each linked id as the file names of the corpus give it (``RFD 5`` → ``0005``), so that
    links, back-links and the graph agree; an id no RFD has stays as written."""
    known = canonical(r.id for r in rfds)

    def ids(found: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(known.get(key(i), i) for i in found)

    return [
        replace(r, requires=ids(r.requires), extends=ids(r.extends), supersedes=ids(r.supersedes))
        for r in rfds
    ]


def _read(root: Path, files: list[discovery.RfdFile]) -> tuple[list[SiteRfd], list[str]]:
    chunks = [files[n : n + CHUNK] for n in range(0, len(files), CHUNK)]
    workers = min(4, os.cpu_count() or 1)
    if len(files) < PARALLEL_FROM or workers < 2:
        parts = [_read_chunk(root, chunk) for chunk in chunks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_read_chunk, [root] * len(chunks), chunks))
    return [r for found, _ in parts for r in found], [e for _, errs in parts for e in errs]


def _read_chunk(root: Path, files: list[discovery.RfdFile]) -> tuple[list[SiteRfd], list[str]]:
    cfg = load_config(root)
    store = StateStore(root, cfg)
    found: list[SiteRfd] = []
    errors: list[str] = []
    for file in files:
        try:
            doc = discovery.read(root, file)
        except RfdError as err:
            errors.append(str(err))
            continue
        if doc.rfd_id is not None:
            found.append(_rfd(rfd_corpus.of(root, file, doc), store, cfg))
    return found, errors


def _folder(root: Path, file: discovery.RfdFile) -> str | None:
    """A directory-per-RFD document's directory (its other files belong to it)."""
    return str((root / file.path).parent) if file.name in DOCUMENT_NAMES else None


def _order(rfd: SiteRfd) -> tuple[bool, int, str]:
    rid = RfdId.parse(rfd.id)
    return rid.draft, rid.number, rfd.path


def _rfd(rfd: rfd_corpus.Rfd, store: StateStore, cfg: Config) -> SiteRfd:
    doc = rfd.document
    rid = str(rfd.rfd_id)
    links = dict(rfd.links)
    ledger = _ledger(store, rid)
    waiting: tuple[str, ...] = ()
    if cfg.consensus.enabled and doc.status is Status.DISCUSSION:
        rev = consensus.revision(doc.text)
        waiting = standing(cfg.consensus, ledger, rid, rev, time.time()).waiting
    return SiteRfd(
        id=rid,
        title=rfd.title,
        status=rfd.stage.value,
        path=rfd.path,
        text=_body(doc),
        word=rfd.status if rfd.status != rfd.stage.value else "",
        files=rfd.paths[1:],
        category=doc.category,
        authors=rfd.authors,
        date=(doc.field("Date") or "").strip() or None,
        labels=_labels(doc.field("Labels")),
        requires=_ids(links, "Requires"),
        extends=_ids(links, "Extends"),
        supersedes=_ids(links, "Supersedes"),
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
    """The document below its title and header fields (the page shows those itself); an
    AsciiDoc document's header runs on to the first blank line (the author line)."""
    last = max((f.line + f.span - 1 for f in doc.fields), default=0)
    lines = doc.lines[max(last, doc.heading_line) :]
    if doc.path.endswith((".adoc", ".asciidoc")):
        while lines and lines[0].strip():
            lines = lines[1:]
    return "".join(lines)


def _ids(links: dict[str, tuple[RfdId, ...]], key: str) -> tuple[str, ...]:
    return tuple(str(i) for i in links.get(key, ()))


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
    found = [*numbered(store.path(rid, REVIEWS)), *numbered(store.path(rid, IMPL_REVIEWS))]
    if not found:
        return None
    stamp, path = max(found, key=lambda r: r[0])
    try:
        parsed = reviews_md.parse(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    findings = sorted(parsed.findings, key=lambda f: f.severity.rank)[:REVIEW_FINDINGS]
    return Review(
        kind=parsed.kind,
        stamp=stamp,
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
