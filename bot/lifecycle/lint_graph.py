"""Lint rules that look beyond one RFD: cycles in Requires ∪ Extends (RFD012), back-links
that the other RFD does not return (RFD014), and reference-link definitions whose file
or directory does not exist (RFD015).  Pure: the other RFDs and the files come through a
:class:`Corpus` the caller passes in.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import Protocol

from bot.lifecycle.lint_sections import Finding
from bot.model.document import Document
from bot.model.header import normalize_key
from bot.model.ids import RfdId
from bot.model.markdown import LineKind

CYCLE_KEYS = ("Requires", "Extends")
BACK_LINKS = {"Required by": "Requires", "Extended by": "Extends"}
"""A back-link field → the field the RFD it names must have, naming this one."""

CYCLE_HINT = "remove one of the links of the cycle: an RFD cannot wait for itself"
BACK_HINT = "remove RFD {other} from {back}, or add RFD {me} to its {forward} line"
DEFINITION_HINT = "fix the path (relative to this file), or remove the definition"

_DEFINITION = re.compile(r"^[ ]{0,3}\[(?!\^)(?P<label>[^\]]+)\]:[ \t]*<?(?P<target>[^<>\s]+)")
# (``[^1]: text`` is a footnote, not a link definition)
_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#)")


class Corpus(Protocol):
    """The rest of the repository, as the rules need it."""

    def links(self, rfd_id: RfdId, key: str) -> tuple[RfdId, ...] | None:
        """The RFDs that ``rfd_id``'s ``key`` field lists (None: no such RFD)."""
        ...

    def exists(self, path: str) -> bool:
        """Whether the repository-relative ``path`` is a file or a directory (``../../crates/foo``
        links a crate: a link to a folder is no broken link)."""
        ...


def graph_findings(doc: Document, me: RfdId, corpus: Corpus) -> list[Finding]:
    return [*_cycle(doc, me, corpus), *_back_links(doc, me, corpus), *_definitions(doc, corpus)]


def _cycle(doc: Document, me: RfdId, corpus: Corpus) -> Iterator[Finding]:
    for field in doc.fields:
        key = _key(field.key, CYCLE_KEYS)
        if key is None:
            continue
        for target in doc.links(key):
            path = _path_to(target, me, corpus)
            if path is not None:
                chain = " → ".join(f"RFD {i}" for i in (me, *path))
                message = f"{key} RFD {target} leads back to this RFD: {chain}"
                yield Finding(doc.path, field.line, "RFD012", message, CYCLE_HINT)
                return  # one finding per RFD of the cycle


def _path_to(start: RfdId, goal: RfdId, corpus: Corpus) -> tuple[RfdId, ...] | None:
    """The ids from ``start`` to ``goal`` along Requires/Extends (None when unreachable)."""
    came_from: dict[RfdId, RfdId | None] = {start: None}
    todo = [start]
    while todo:
        node = todo.pop(0)
        if node == goal:
            path = [node]
            while (prev := came_from[path[-1]]) is not None:
                path.append(prev)
            return tuple(reversed(path))
        for key in CYCLE_KEYS:
            for nxt in corpus.links(node, key) or ():
                if nxt not in came_from:
                    came_from[nxt] = node
                    todo.append(nxt)
    return None


def _back_links(doc: Document, me: RfdId, corpus: Corpus) -> Iterator[Finding]:
    for field in doc.fields:
        back = _key(field.key, tuple(BACK_LINKS))
        if back is None:
            continue
        forward = BACK_LINKS[back]
        for other in doc.links(back):
            listed = corpus.links(other, forward)
            if listed is None:
                message = f"{back}: RFD {other} does not exist"
            elif me not in listed:
                message = f"{back}: RFD {other}, whose {forward} does not name RFD {me}"
            else:
                continue
            hint = BACK_HINT.format(other=other, back=back, me=me, forward=forward)
            yield Finding(doc.path, field.line, "RFD014", message, hint)


def _definitions(doc: Document, corpus: Corpus) -> Iterator[Finding]:
    if "]:" not in doc.text:  # every link definition has one: most RFDs have none
        return
    folder = posixpath.dirname(doc.path)
    for index, kind in enumerate(doc.kinds):
        match = _DEFINITION.match(doc.lines[index]) if kind is LineKind.TEXT else None
        if match is None or _EXTERNAL.match(match["target"]):
            continue
        target = match["target"].partition("#")[0].partition("?")[0]
        path = posixpath.normpath(posixpath.join(folder, target))
        if target and (path.startswith("../") or not corpus.exists(path)):
            message = f"link [{match['label']}] points to {match['target']}, which does not exist"
            yield Finding(doc.path, index + 1, "RFD015", message, DEFINITION_HINT)


def _key(key: str, wanted: tuple[str, ...]) -> str | None:
    folded = normalize_key(key)
    return next((k for k in wanted if normalize_key(k) == folded), None)
