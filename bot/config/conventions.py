"""Detecting an existing RFD repository's conventions from its files (pure: text in, findings out).

Each :class:`Convention` is a configuration key, the value the corpus shows, and the
evidence in words ("7 of 7 drafts live there"), which ``rfd init`` writes as a comment
above the key.  :mod:`bot.lifecycle.adoption` gathers the files and the history and writes the file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.config.repo_templates import category_of
from bot.core.text import plural
from bot.model.document import Document
from bot.model.ids import RfdId, split_path
from bot.model.status import Status

TEMPLATE_SHAPES = ("000-*-template.md", "*-template.md", "template-*.md", "templates/*.md")
"""Where teams keep their templates, most specific first (globs relative to the RFD dir)."""

_REFERENCE_DEF_RE = re.compile(r"^ {0,3}\[RFD[ \t]*[Dd]?[0-9]+\]:[ \t]*\S", re.MULTILINE | re.I)
_INLINE_LINK_RE = re.compile(r"\[RFD[ \t]*[Dd]?[0-9]+\]\([^)\s]+\)", re.IGNORECASE)
_NOTICE_MARK_RE = re.compile(r"(?P<mark>\*\*Abandoned[.:]?\*\*[.:]?|Abandoned[.:])", re.I)
BACK_LINKS = (("Requires", "Required by"), ("Extends", "Extended by"))


@dataclass(frozen=True)
class Convention:
    key: str
    """The dotted configuration key (``rfd.drafts_dir``)."""
    value: str | int | tuple[str, ...]
    evidence: str


@dataclass(frozen=True)
class Corpus:
    """What detection looks at: paths are relative to the RFD directory."""

    files: tuple[tuple[str, str], ...]
    """``(path, text)`` of every Markdown file under the RFD directory."""
    documents: tuple[Document, ...]
    """The RFDs among them that parse (templates excluded)."""
    drafts_added: tuple[tuple[int, int], ...] | None = None
    """From history: each draft number added, with the highest draft number present
    before it; None without history."""


def detect(corpus: Corpus) -> list[Convention]:
    """Every convention the corpus shows, in the order the configuration file lists them."""
    return [
        _drafts_dir(corpus),
        _templates(corpus),
        _digits(corpus, draft=False),
        _digits(corpus, draft=True),
        _draft_numbers(corpus),
        _link_style(corpus),
        _back_links(corpus),
        _abandon_notice(corpus),
        _tracking_issue(corpus),
    ]


def statuses_in_use(corpus: Corpus) -> str:
    """``Accepted 12, Implemented 11, …`` (most used first), in the repository's own words
    (``discussion 4, published 3, …`` on an Oxide corpus), as its files spell them."""
    spelled = {d.status_word.casefold(): d.status_word for d in reversed(corpus.documents)}
    counts = Counter(d.status_word.casefold() for d in corpus.documents)
    return ", ".join(f"{spelled[word]} {n}" for word, n in counts.most_common())


def _ids(corpus: Corpus) -> list[tuple[str, RfdId]]:
    found = ((path, split_path(path)) for path, _ in corpus.files)
    return [(path, parts[0]) for path, parts in found if parts]


def _drafts_dir(corpus: Corpus) -> Convention:
    drafts = [path for path, rid in _ids(corpus) if rid.draft]
    folders = Counter(path.rpartition("/")[0] for path in drafts)
    folder, count = folders.most_common(1)[0] if folders else ("", 0)
    if not folder:
        return Convention("rfd.drafts_dir", "drafts", "no drafts in a sub-directory; the default")
    evidence = f"{count} of {plural(len(drafts), 'draft')} live in {folder}/"
    return Convention("rfd.drafts_dir", folder, evidence)


def detect_templates(files: Sequence[tuple[str, str]]) -> str:
    """The first of :data:`TEMPLATE_SHAPES` some file matches (the first one when none)."""
    return next((s for s in TEMPLATE_SHAPES if _categories(files, s)), TEMPLATE_SHAPES[0])


def _categories(files: Sequence[tuple[str, str]], shape: str) -> list[str]:
    return sorted(c for c in (category_of(path, shape) for path, _ in files) if c)


def _templates(corpus: Corpus) -> Convention:
    shape = detect_templates(corpus.files)
    found = _categories(corpus.files, shape)
    if not found:
        return Convention("rfd.templates", shape, "no template files found; the default")
    return Convention(
        "rfd.templates", shape, f"{plural(len(found), 'template')}: {', '.join(found)}"
    )


def _digits(corpus: Corpus, *, draft: bool) -> Convention:
    key = "conventions.draft_digits" if draft else "conventions.id_digits"
    widths = Counter(rid.digits for _, rid in _ids(corpus) if rid.draft == draft and rid.number)
    kind = "draft id" if draft else "published id"
    if not widths:
        return Convention(key, 1 if draft else 3, f"no {kind}s yet; the default")
    width, count = widths.most_common(1)[0]
    total = sum(widths.values())
    return Convention(key, width, f"{count} of {plural(total, kind)} have {width} digits")


def _draft_numbers(corpus: Corpus) -> Convention:
    key = "conventions.draft_numbers"
    if not corpus.drafts_added:
        return Convention(key, "max+1", "no drafts added in the history; the default")
    filled = [(n, top) for n, top in corpus.drafts_added if n < top]
    if filled:
        n, top = filled[-1]
        evidence = f"draft {n} was added while draft {top} existed: free numbers are reused"
        return Convention(key, "first-free", evidence)
    total = plural(len(corpus.drafts_added), "draft")
    return Convention(key, "max+1", f"each of {total} added took a number above those before it")


def _link_style(corpus: Corpus) -> Convention:
    texts = [text for _, text in corpus.files]
    definitions = sum(len(_REFERENCE_DEF_RE.findall(t)) for t in texts)
    inline = sum(len(_INLINE_LINK_RE.findall(t)) for t in texts)
    style = "reference" if definitions > inline else "inline"
    evidence = f"{plural(definitions, 'link definition')}, {plural(inline, 'inline link')} to RFDs"
    return Convention("conventions.link_style", style, evidence)


def _back_links(corpus: Corpus) -> Convention:
    by_id = {d.rfd_id: d for d in corpus.documents if d.rfd_id is not None}
    kept: list[str] = []
    notes: list[str] = []
    for forward, back in BACK_LINKS:
        # a published RFD never links back to a draft: a draft's links to one do not count
        pairs = [
            (d.rfd_id, t)
            for d in corpus.documents
            for t in d.links(forward)
            if d.rfd_id is not None and t in by_id and (t.draft or not d.rfd_id.draft)
        ]
        answered = sum(1 for source, t in pairs if source in by_id[t].links(back))
        if pairs and answered * 2 > len(pairs):
            kept.append(back)
        links = plural(len(pairs), forward + " link")
        notes.append(f"{back}: {answered} of {links} answered")
    return Convention("conventions.back_links", tuple(kept), "; ".join(notes))


def _abandon_notice(corpus: Corpus) -> Convention:
    key = "conventions.abandon_notice"
    abandoned = [d for d in corpus.documents if d.status is Status.ABANDONED]
    if not abandoned:
        return Convention(key, "", "no Abandoned RFD; an Abandoned header field, the default")
    blocks = [b for b in map(_notice_block, abandoned) if b]
    fields = sum(1 for d in abandoned if d.field("Abandoned") is not None)
    if blocks and len(blocks) >= fields:
        form, count = Counter(blocks).most_common(1)[0]
        return Convention(key, form, f"{count} of {plural(len(abandoned), 'Abandoned RFD')}")
    evidence = f"{fields} of {plural(len(abandoned), 'Abandoned RFD')} have an Abandoned field"
    return Convention(key, "", evidence)


def _notice_block(doc: Document) -> str | None:
    """The form of the quote block under the header that says Abandoned, the reason
    replaced by ``{reason}`` (None without one)."""
    last = doc.fields[-1] if doc.fields else None
    start = (last.index + last.span) if last else doc.heading_line
    lines = [line.rstrip("\r\n") for line in doc.lines[start:]]
    while lines and not lines[0].strip():
        lines.pop(0)
    block: list[str] = []
    for line in lines:
        if not line.startswith(">"):
            break
        mark = _NOTICE_MARK_RE.search(line)
        if mark:
            block.append(line[: mark.end()] + " {reason}")
            return "\n".join(block)
        block.append(line)
    return None


def _tracking_issue(corpus: Corpus) -> Convention:
    key = "conventions.tracking_issue"
    tracked = [d for d in corpus.documents if d.status in (Status.ACCEPTED, Status.IMPLEMENTED)]
    recorded = sum(1 for d in tracked if d.field("Tracking Issue"))
    header = recorded * 2 >= len(tracked)  # no Accepted RFD yet: the default, header
    evidence = f"{recorded} of {plural(len(tracked), 'Accepted/Implemented RFD')} have the field"
    rule = "at least half" if header else "fewer than half: a retired field, not written"
    return Convention(key, "header" if header else "state", f"{evidence} ({rule})")
