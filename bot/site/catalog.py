"""``rfds.json``: every RFD's metadata, state and links in one document for other tools
(pure).  Its JSON Schema is ``rfds.schema.json`` next to this module, copied into the site."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from bot.site.graph import Graph
from bot.site.records import LINK_KINDS, Corpus, SiteRfd

VERSION = 1
SCHEMA = "rfds.schema.json"


def schema_text() -> str:
    return resources.files("bot.site").joinpath(SCHEMA).read_text(encoding="utf-8")


def document(
    corpus: Corpus, graph: Graph, updated: Mapping[str, str], page: Callable[[str], str]
) -> dict[str, Any]:
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "repository": corpus.repository,
        "rfds": [entry(r, graph, updated.get(r.id), page(r.id)) for r in corpus.rfds],
        "problems": list(corpus.problems),
    }


def entry(rfd: SiteRfd, graph: Graph, updated: str | None, page: str) -> dict[str, Any]:
    back = graph.back_links(rfd.id)
    return {
        "id": rfd.id,
        "title": rfd.title,
        "status": rfd.status,
        "status_word": rfd.shown,
        "category": rfd.category,
        "authors": list(rfd.authors),
        "labels": list(rfd.labels),
        "date": rfd.date,
        "updated": updated,
        "path": rfd.path,
        "page": page,
        "links": {kind: list(rfd.links(kind)) for kind in LINK_KINDS},
        "back_links": {k.replace(" ", "_"): list(back.get(k, ())) for k in BACK_KEYS},
        "discussion_pr": rfd.discussion,
        "tracking_issue": rfd.tracking_issue,
        "plan": _plan(rfd),
        "consensus": {
            "approved_by": list(rfd.approvals),
            "waiting_for": list(rfd.waiting_for),
            "open_concerns": [
                {"number": c.number, "author": c.author, "text": c.text} for c in rfd.open_concerns
            ],
        },
        "review": _review(rfd),
        "decisions": {
            "locked": list(rfd.decisions.locked),
            "discussing": list(rfd.decisions.discussing),
            "rejected": [{"text": t, "reason": r} for t, r in rfd.decisions.rejected],
        },
    }


BACK_KEYS = ("required by", "extended by", "superseded by")


def _plan(rfd: SiteRfd) -> dict[str, Any] | None:
    if rfd.plan is None:
        return None
    phases = [
        {"label": p.label, "title": p.title, "done": p.done, "optional": p.optional, "pr": p.pr}
        for p in rfd.plan
    ]
    return {"done": sum(p.done for p in rfd.plan), "total": len(rfd.plan), "phases": phases}


def _review(rfd: SiteRfd) -> dict[str, Any] | None:
    review = rfd.review
    if review is None:
        return None
    return {
        "kind": review.kind,
        "timestamp": review.stamp,
        "verdict": review.verdict,
        "counts": dict(review.counts),
        "summary": review.summary,
    }
