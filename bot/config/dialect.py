"""Which RFD dialect a corpus speaks: its layout, the form of its headers, its status words.

Pure: paths, texts and the status changes git history shows in, findings with their evidence
out.  ``rfd init`` (:mod:`bot.lifecycle.adoption`) writes them into ``.github/rfd.toml``: the
layout and form as comments, the words as the ``[statuses]`` table (word → stage), each
under the evidence it was chosen from.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.core.text import plural
from bot.model.ids import DOCUMENT_NAMES
from bot.model.status import DIALECTS, Status, configured

_STATUS_RES = {
    "yaml": re.compile(
        r"""^(?P<key>state|stage|status)[ \t]*:[ \t]*["']?(?P<word>[\w-]+)""",
        re.MULTILINE | re.IGNORECASE,
    ),
    "adoc": re.compile(
        r"^:(?P<key>state|stage|status):[ \t]*(?P<word>[\w-]+)", re.MULTILINE | re.IGNORECASE
    ),
    "list": re.compile(
        r"^[ ]{0,3}(?:[-*+][ \t]+)?\*\*(?P<key>Status)(?::\*\*|\*\*[ \t]*:)[ \t]*"
        r"(?P<word>[\w-]+)",
        re.MULTILINE | re.IGNORECASE,
    ),
}
"""A document's status word, read without parsing it (its word may be one rfd does not
know yet: that is what detection is for)."""

FORM_NAMES = {
    "yaml": "YAML front matter",
    "adoc": "AsciiDoc attributes",
    "list": "a '- **Status**:' field list",
}
DIALECT_NAMES = {
    "rfd-bot": "rfd-bot's",
    "oxide": "Oxide's",
    "joyent": "Joyent's",
    "rfc": "RFC stages'",
}


@dataclass(frozen=True)
class Word:
    """A status word of the corpus and the stage it is mapped to (None: no known meaning)."""

    word: str
    stage: Status | None
    evidence: str


@dataclass(frozen=True)
class Dialect:
    layout: str
    """``flat`` (``NNN-slug.md``) or ``directory`` (``NNNN/README.md``)."""
    layout_evidence: str
    form: str
    """The header form most documents use: ``yaml``, ``adoc`` or ``list``."""
    form_evidence: str
    key: str
    """The key the status is written under (``state``, ``stage``, ``Status``)."""
    vocabulary: str
    """The known vocabulary most words belong to (a key of DIALECTS)."""
    words: tuple[Word, ...]
    moves: tuple[tuple[str, tuple[str, ...], int], ...] = ()
    """From history: each word, the words it moved to, and how many moves that was."""

    @property
    def unmapped(self) -> tuple[str, ...]:
        return tuple(w.word for w in self.words if w.stage is None)

    @property
    def own_words(self) -> bool:
        """Does the corpus need a ``[statuses]`` table (words that are not rfd's own)?"""
        return self.form != "list" or self.vocabulary != "rfd-bot"


def status_word(text: str, path: str) -> tuple[str, str, str] | None:
    """``(form, key, word)`` of a document's status, read by pattern; None without one."""
    forms = ("adoc",) if path.endswith(".adoc") else ("yaml", "list")
    for form in forms:
        if form == "yaml" and not text.startswith(("---", "\ufeff---")):
            continue
        match = _STATUS_RES[form].search(text)
        if match is not None:
            return form, match["key"], match["word"]
    return None


def detect(
    documents: Sequence[tuple[str, str]], transitions: Counter[tuple[str, str]] | None = None
) -> Dialect:
    """The dialect of ``(path, text)`` documents; ``transitions``: the status changes the
    history shows (old word, new word), counted."""
    layout, layout_evidence = _layout([p for p, _ in documents])
    found = [(path, s) for path, text in documents if (s := status_word(text, path))]
    forms = Counter(s[0] for _, s in found)
    form = forms.most_common(1)[0][0] if forms else "list"
    form_evidence = ", ".join(
        f"{FORM_NAMES[f]} in {n} of {plural(len(documents), 'document')}"
        for f, n in forms.most_common()
    )
    keys = Counter(s[1] for _, s in found if s[0] == form)
    key = keys.most_common(1)[0][0] if keys else "Status"
    counts = Counter(s[2].casefold() for _, s in found)
    vocabulary = _vocabulary(counts, form)
    found_words = [_word(w, n, vocabulary, transitions or Counter()) for w, n in counts.items()]
    words = tuple(sorted(found_words, key=lambda w: _order(w, vocabulary)))
    return Dialect(
        layout,
        layout_evidence,
        form,
        form_evidence or "no status found",
        key,
        vocabulary,
        words,
        _moves(transitions or Counter(), counts),
    )


def _moves(
    transitions: Counter[tuple[str, str]], counts: Counter[str]
) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """The moves of the words in use, as history made them."""
    out: dict[str, dict[str, int]] = {}
    for (old, new), n in transitions.items():
        if old in counts or new in counts:
            out.setdefault(old, {})[new] = n
    return tuple((old, tuple(sorted(to)), sum(to.values())) for old, to in sorted(out.items()))


def _order(word: Word, vocabulary: str) -> tuple[int, int, str]:
    """Lifecycle order, and within a stage the dialect's own order: the first word of a
    stage is the one rfd writes."""
    stages = list(Status)
    table = list(DIALECTS[vocabulary])
    rank = stages.index(word.stage) if word.stage is not None else len(stages)
    return rank, table.index(word.word) if word.word in table else len(table), word.word


def _layout(paths: Iterable[str]) -> tuple[str, str]:
    paths = list(paths)
    folders = [p for p in paths if p.rpartition("/")[2] in DOCUMENT_NAMES]
    if folders and len(folders) * 2 >= len(paths):
        names = Counter(p.rpartition("/")[2] for p in folders)
        shown = ", ".join(f"{n} {name}" for name, n in names.most_common())
        return "directory", f"a directory per RFD (NNNN/{names.most_common(1)[0][0]}): {shown}"
    return "flat", f"a file per RFD (NNN-slug.md): {plural(len(paths) - len(folders), 'file')}"


def _vocabulary(counts: Counter[str], form: str) -> str:
    """The known vocabulary covering the most documents (in a field list, rfd's own wins
    ties; in front matter and AsciiDoc, the dialects that write there do)."""
    names = list(DIALECTS)
    order = names if form == "list" else names[1:] + names[:1]

    def covered(name: str) -> int:
        table = DIALECTS[name]
        return sum(n for w, n in counts.items() if w in table)

    return max(order, key=lambda name: (covered(name), -order.index(name)))


def _word(word: str, count: int, vocabulary: str, transitions: Counter[tuple[str, str]]) -> Word:
    table = {**DIALECTS[vocabulary], **configured()}
    stage = table.get(word)
    source = "the configuration's" if word in configured() else DIALECT_NAMES[vocabulary]
    if stage is None:
        other = next(((n, t[word]) for n, t in DIALECTS.items() if word in t), None)
        if other is not None:
            source, stage = DIALECT_NAMES[other[0]], other[1]
    moves = [
        f"{a} → {b} {plural(n, 'time')}"
        for (a, b), n in transitions.most_common()
        if word in (a, b)
    ][:3]
    evidence = f"{plural(count, 'document')}"
    if stage is not None:
        evidence += f"; {source} word for {stage.value.lower()}"
    else:
        evidence += "; no known meaning: map it to a stage here"
    if moves:
        evidence += f"; history: {', '.join(moves)}"
    return Word(word, stage, evidence)


def render_statuses(dialect: Dialect) -> list[str]:
    """The ``[statuses]`` table, each word under its evidence."""
    lines = [
        "",
        "[statuses]",
        f"# the repository's own words ({dialect.key}:), each mapped to "
        "the stage rfd reasons about",
    ]
    for word in dialect.words:
        if word.stage is not None:
            lines += [f"# {word.evidence}", f'{_key(word.word)} = "{word.stage.value.lower()}"']
    if dialect.moves:
        lines += [
            "",
            "[transitions]",
            "# the moves the history shows: from a word listed here, only the words they lead to",
        ]
        for old, to, n in dialect.moves:
            shown = ", ".join(f'"{w}"' for w in to)
            lines += [f"# {plural(n, 'move')} in history", f"{_key(old)} = [{shown}]"]
    return lines


def _key(word: str) -> str:
    return word if re.fullmatch(r"[A-Za-z0-9_-]+", word) else f'"{word}"'
