"""Every rule of :mod:`bot.lifecycle.lint` over the RFDs on disk (templates are not RFDs):
what ``rfd lint`` reports and what ``rfd adopt`` records as the findings a repository had
when it adopted rfd-bot (:mod:`bot.model.baseline`), which are not reported again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import NamedTuple

from bot.config import discovery
from bot.config.discovery import RfdFile
from bot.config.schema import Config
from bot.core.errors import RfdError
from bot.lifecycle.lint import (
    Finding,
    LintSettings,
    combined,
    from_error,
    linked_findings,
    own_findings,
)
from bot.lifecycle.lint_cache import LintCache
from bot.model import baseline
from bot.model.baseline import Baseline, FindingKey
from bot.model.document import Document
from bot.model.ids import RfdId
from bot.state import StateStore


class DocsCorpus:
    """:class:`bot.lifecycle.lint.Corpus` over the RFDs read from disk."""

    def __init__(self, root: Path, docs: dict[RfdId, Document]) -> None:
        self.root, self.docs = root, docs

    def links(self, rfd_id: RfdId, key: str) -> tuple[RfdId, ...] | None:
        doc = self.docs.get(rfd_id)
        return None if doc is None else doc.links(key)

    def exists(self, path: str) -> bool:
        return (self.root / path).exists()  # a file, or a directory (a crate, a folder)


class CorpusLint(NamedTuple):
    docs: list[Document]
    """The RFDs that parse."""
    errors: list[RfdError]
    """The RFD files that do not."""
    findings: list[Finding]
    """The findings of the RFDs, in file order."""


def lint_corpus(root: Path, cfg: Config) -> CorpusLint:
    """Read every RFD and lint each against all the others."""
    docs, errors = discovery.load_all(root, cfg)
    return CorpusLint(docs, errors, lint_docs(root, cfg, docs))


def lint_docs(
    root: Path,
    cfg: Config,
    docs: list[Document],
    chosen: Callable[[str], bool] = lambda _: True,
    scanned: list[RfdFile] | None = None,
    cache: LintCache | None = None,
) -> list[Finding]:
    """The findings of the RFDs of ``docs`` whose path is ``chosen``, in file order
    (``scanned``: the RFD files, when the caller has scanned them; ``cache``: what the last
    run found, :mod:`bot.lifecycle.lint_cache`)."""
    files = {f.path: f for f in (discovery.scan(root, cfg) if scanned is None else scanned)}
    by_id = {f.rfd_id: d for d in docs if (f := files.get(d.path)) is not None}
    known = {rfd_id: d.status for rfd_id, d in by_id.items()}
    settings = LintSettings.of(cfg.lint)
    corpus = DocsCorpus(root, by_id)
    kept = LintCache(None) if cache is None else cache
    found: list[Finding] = []
    for doc in docs:
        if not chosen(doc.path):
            continue
        file = files.get(doc.path)
        own = kept.own_findings(doc, partial(own_findings, doc, file=file, settings=settings))
        linked = linked_findings(doc, known=known, file=file, corpus=corpus)
        found += combined(own, linked, settings)
    return found


def keys(done: CorpusLint) -> list[FindingKey]:
    """What the baseline records of each finding and each RFD that does not parse."""
    found = [(f.path, f.code, f.message) for f in done.findings]
    for err in done.errors:
        if err.path:
            unreadable = from_error(err, err.path)
            found.append((unreadable.path, unreadable.code, unreadable.message))
    return found


def read_baseline(root: Path, cfg: Config) -> Baseline:
    """The adoption baseline (none recorded: nothing is grandfathered)."""
    store = StateStore(root, cfg)
    text = store.read_root_file(baseline.FILE)
    return (
        baseline.NONE
        if text is None
        else baseline.loads(text, store.show(store.base / baseline.FILE))
    )
