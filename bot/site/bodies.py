"""The rendered documents of a build, cached and, for large corpora, rendered in parallel.

Rendering markdown is most of a build's work.  Each body is keyed by its path, its text and
the set of RFD paths links can resolve to; a rebuild renders only the documents whose key is
not in the cache (``.rfd-site/bodies.json`` in the output directory), and a first build of
many documents spreads them over the machine's cores.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.site.markdown import LinkContext, Rendered, render

PARALLEL_FROM = 400
"""Documents to render before a pool of processes pays for its start-up."""
CHUNK = 100

_pages: Mapping[str, str] = {}
_blob_base = ""


def key(digest: str, path: str, text: str) -> str:
    return hashlib.sha1(f"{digest}\0{path}\0{text}".encode()).hexdigest()


def digest(pages: Mapping[str, str], blob_base: str) -> str:
    """What every body's links depend on: the RFD paths and where other files link to."""
    return key(blob_base, "", "\n".join(sorted(pages)))


def render_all(
    docs: Sequence[tuple[str, str]], pages: Mapping[str, str], blob_base: str, cache: Path
) -> dict[str, Rendered]:
    """``{path: Rendered}`` for ``(path, text)`` pairs, reusing and refreshing ``cache``."""
    common = digest(pages, blob_base)
    keys = {path: key(common, path, text) for path, text in docs}
    known = _load(cache)
    todo = [(path, text) for path, text in docs if keys[path] not in known]
    for (path, _), done in zip(todo, _render(todo, pages, blob_base), strict=True):
        known[keys[path]] = done
    _save(cache, {keys[p]: known[keys[p]] for p, _ in docs})
    return {path: known[keys[path]] for path, _ in docs}


def _render(
    todo: Sequence[tuple[str, str]], pages: Mapping[str, str], blob_base: str
) -> list[Rendered]:
    workers = min(4, os.cpu_count() or 1)
    if len(todo) < PARALLEL_FROM or workers < 2:
        _setup(pages, blob_base)
        return [_one(doc) for doc in todo]
    with ProcessPoolExecutor(workers, initializer=_setup, initargs=(pages, blob_base)) as pool:
        return list(pool.map(_one, todo, chunksize=CHUNK))


def _setup(pages: Mapping[str, str], blob_base: str) -> None:
    global _pages, _blob_base
    _pages, _blob_base = pages, blob_base


def _one(doc: tuple[str, str]) -> Rendered:
    path, text = doc
    return render(text, LinkContext(path, _pages, blob(_blob_base)))


def blob(base: str) -> Callable[[str], str | None]:
    """A repository file → its URL under ``base`` (no link when there is no base)."""
    return (lambda path: f"{base}{path}") if base else (lambda path: None)


def _load(cache: Path) -> dict[str, Rendered]:
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
        return {k: Rendered(html, tuple(tuple(t) for t in toc)) for k, (html, toc) in data.items()}
    except (OSError, ValueError, TypeError):
        return {}


def _save(cache: Path, bodies: Mapping[str, Rendered]) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    data = {k: [r.html, [list(t) for t in r.toc]] for k, r in bodies.items()}
    cache.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
