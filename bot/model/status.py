"""RFD statuses: the stages, the transitions between them, the promotion gates, the words
repositories use for them, and the lifecycle labels that show them on GitHub.

    Draft → Discussion → Accepted → Implemented
      └──────────┴───────────┴──→ Abandoned          (anything not yet Implemented)
                             Accepted, Implemented → Superseded

Gates: an RFD may become Accepted only when every RFD it ``Requires`` is at least
Accepted, and Implemented only when every one of them is Implemented.

Vocabularies: a repository names the six stages in its own words: Oxide's RFDs say
``state: published`` for an accepted RFD, Ember's RFCs say ``stage: released`` for an
implemented one.  A :class:`Vocabulary` maps each word to a stage and back; the known
dialects below are what rfd reads without configuration, the ``[statuses]`` table of
``.github/rfd.toml`` (written by ``rfd init`` from the corpus) is what a repository says
itself and wins over them.  Reading goes word → stage; writing goes stage → word, in the
dialect of the word the document had (a document in ``discussion`` becomes
``published``, never ``Accepted``).

Lifecycle labels (the end of this module): ``rfd: discussion``, ``rfd: accepted``, … say
where an RFD stands in any list of issues or pull requests.  They are separate from the
trigger labels (``rfd:review``, ``rfd:accept``), which start a run and are taken off after
it.  Pure: which labels to add and which to take off; the forge does the writing.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from bot.core.errors import GateError, ParseError, TransitionError
from bot.core.text import plural

if TYPE_CHECKING:
    from bot.model.ids import RfdId


class Status(enum.Enum):
    """The status written in an RFD's ``- **Status**:`` line."""

    DRAFT = "Draft"
    DISCUSSION = "Discussion"
    ACCEPTED = "Accepted"
    IMPLEMENTED = "Implemented"
    ABANDONED = "Abandoned"
    SUPERSEDED = "Superseded"

    @classmethod
    def parse(cls, text: str, *, path: str | None = None, line: int | None = None) -> Status:
        """``" accepted "`` → ACCEPTED; ParseError listing the valid statuses otherwise."""
        found = _BY_FOLDED_VALUE.get(text.strip().casefold())
        if found is not None:
            return found
        raise ParseError(
            f"unknown status {text.strip()!r}",
            path=path,
            line=line,
            hint=f"use one of: {', '.join(s.value for s in cls)}",
        )

    @property
    def rank(self) -> int:
        """Position on the main path (Draft 0 … Implemented 3); -1 when off it."""
        return _RANK.get(self, -1)

    @property
    def is_terminal(self) -> bool:
        return not _NEXT[self]

    def __str__(self) -> str:
        return self.value


_BY_FOLDED_VALUE = {s.value.casefold(): s for s in Status}
"""``Status.parse``'s table: one lookup per RFD read, not a loop over the members."""
_RANK = {Status.DRAFT: 0, Status.DISCUSSION: 1, Status.ACCEPTED: 2, Status.IMPLEMENTED: 3}

_NEXT: dict[Status, tuple[Status, ...]] = {
    Status.DRAFT: (Status.DISCUSSION, Status.ABANDONED),
    Status.DISCUSSION: (Status.ACCEPTED, Status.ABANDONED),
    Status.ACCEPTED: (Status.IMPLEMENTED, Status.ABANDONED, Status.SUPERSEDED),
    Status.IMPLEMENTED: (Status.SUPERSEDED,),
    Status.ABANDONED: (),
    Status.SUPERSEDED: (),
}


def allowed_next(status: Status) -> tuple[Status, ...]:
    """The statuses an RFD in ``status`` may move to, main path first."""
    return _NEXT[status]


def check_transition(
    old: Status,
    new: Status,
    *,
    path: str | None = None,
    word: str | None = None,
    lower: bool = False,
) -> None:
    """Raise TransitionError, naming the allowed next steps, unless ``old → new`` is legal.

    ``word``: the document's own status word — the message then speaks the repository's
    words (``cannot move from committed to abandoned``; ``lower`` as :func:`word_for`)."""
    allowed = allowed_next(old)
    if new in allowed:
        return

    def said(stage: Status) -> str:
        return stage.value if word is None else word_for(stage, word, lower=lower)

    now = old.value if word is None else word  # the document's word is old's
    if allowed:
        hint = f"from {now} the next step is: {' or '.join(said(s) for s in allowed)}"
    else:
        hint = f"{now} is final; write a new RFD instead"
    raise TransitionError(f"cannot move from {now} to {said(new)}", path=path, hint=hint)


def check_gates(
    new: Status, requires: Mapping[RfdId, Status | None], *, path: str | None = None
) -> None:
    """Raise GateError when a required RFD is not far enough along for ``new``."""
    needed = _GATES.get(new)
    if needed is None:
        return
    blocking = tuple(
        _blocker(rfd_id, status, needed)
        for rfd_id, status in sorted(requires.items())
        if status is None or status.rank < needed.rank
    )
    if blocking:
        raise GateError(
            f"cannot move to {new}: {plural(len(blocking), 'required RFD')} not {needed} yet",
            path=path,
            hint=f"promote the RFDs below to {needed} first, or remove them from Requires",
            alternatives=blocking,
        )


_GATES = {Status.ACCEPTED: Status.ACCEPTED, Status.IMPLEMENTED: Status.IMPLEMENTED}


def _blocker(rfd_id: RfdId, status: Status | None, needed: Status) -> str:
    if status is None:
        return f"RFD {rfd_id} does not exist"
    if status is Status.SUPERSEDED:
        return f"RFD {rfd_id} is Superseded: require the RFD that replaced it"
    return f"RFD {rfd_id} is {status} (needs {needed})"


D, C, A, IM, AB, S = (
    Status.DRAFT,
    Status.DISCUSSION,
    Status.ACCEPTED,
    Status.IMPLEMENTED,
    Status.ABANDONED,
    Status.SUPERSEDED,
)

DIALECTS: dict[str, dict[str, Status]] = {
    "rfd-bot": {s.value.casefold(): s for s in Status},
    "oxide": {
        "prediscussion": D,
        "ideation": D,
        "discussion": C,
        "published": A,
        "committed": IM,
        "abandoned": AB,
    },
    "joyent": {"predraft": D, "draft": C, "publish": A, "abandoned": AB},
    "rfc": {
        "exploring": C,
        "accepted": A,
        "ready-for-release": IM,
        "released": IM,
        "recommended": IM,
        "discontinued": AB,
    },
}
"""The vocabularies rfd knows, each word in the order its stage is first written (the first
word of a stage is the one rfd writes).  ``draft`` is a stage of its own for rfd-bot but
the discussion stage for Joyent's corpora: which one a corpus means, ``rfd init`` decides from
the words beside it and writes to ``[statuses]``."""

_configured: dict[str, Status] = {}
_moves: dict[str, tuple[str, ...]] = {}


def use(
    statuses: Mapping[str, str], transitions: Mapping[str, Sequence[str]] | None = None
) -> None:
    """Install the repository's ``[statuses]`` table (word → stage name) and its
    ``[transitions]`` (word → the words history shows it moving to); called when the
    configuration is loaded, so every parse of an RFD reads the repository's words."""
    _configured.clear()
    _configured.update((w.casefold(), Status.parse(s)) for w, s in statuses.items())
    _moves.clear()
    _moves.update(
        (w.casefold(), tuple(n.casefold() for n in to)) for w, to in (transitions or {}).items()
    )


def check_move(old: str, new: str, *, path: str | None = None) -> None:
    """TransitionError when the repository lists the moves from ``old`` and ``new`` cannot be
    reached by them (one commit may make several moves the history makes, as ``rfd accept``,
    the phases and ``rfd done`` do together); a word it does not list follows rfd's lifecycle."""
    before, after = old.strip().casefold(), new.strip().casefold()
    allowed = _moves.get(before)
    if allowed is None or before == after or after in _reachable(before):
        return
    raise TransitionError(
        f"cannot move from {before} to {after}: the repository's history never does",
        path=path,
        hint=f"from {before} the history shows: {', '.join(allowed) or 'no move'}"
        " (add the move to [transitions] in .github/rfd.toml to allow it)",
    )


def _reachable(word: str) -> set[str]:
    """The words ``word`` leads to through the moves the repository lists."""
    seen: set[str] = set()
    todo = list(_moves.get(word, ()))
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(_moves.get(current, ()))
    return seen


def configured() -> Mapping[str, Status]:
    return dict(_configured)


def stage_of(
    word: str, *, dialects: bool, path: str | None = None, line: int | None = None
) -> Status:
    """The stage of a status word: the repository's table, rfd's own words, then (for front
    matter and AsciiDoc, ``dialects``) the known dialects.  ParseError naming the words that
    are known otherwise."""
    folded = word.strip().strip("'\"").casefold()
    found = _configured.get(folded) or DIALECTS["rfd-bot"].get(folded)
    if found is None and dialects:
        found = next((t[folded] for t in DIALECTS.values() if folded in t), None)
    if found is not None:
        return found
    known = list(_configured) or [s.value for s in Status]
    raise ParseError(
        f"unknown status {word.strip()!r}",
        path=path,
        line=line,
        hint=f"use one of: {', '.join(known)}, or map the word to a stage in [statuses] "
        f'of .github/rfd.toml (e.g. {folded or "ready"} = "accepted")',
    )


def word_for(stage: Status, current: str | None, *, lower: bool = False) -> str:
    """The word to write for ``stage`` in a document whose status word is ``current``: the
    repository's first word for it, else that of the dialect ``current`` belongs to, else
    rfd's own (lower-case in front matter and AsciiDoc, ``lower``)."""
    for word, found in _configured.items():
        if found is stage:
            return _cased(word, current)
    folded = (current or "").strip().casefold()
    for table in _tables(lower):
        if folded in table:
            mine = next((w for w, s in table.items() if s is stage), None)
            if mine is not None:
                return _cased(mine, current)
    return stage.value.lower() if lower else stage.value


def said(stage: Status, word: str = "") -> str:
    """``stage`` in the words of a repository whose document says ``word``: its own word
    (``published`` beside Oxide's ``discussion``), rfd's own name (``Accepted``) without a
    word or when ``word`` is one of rfd's.  A configured word is the repository's text: a
    bot post makes it inert."""
    if not word or word in {s.value for s in Status}:
        return stage.value
    return word_for(stage, word, lower=True)


def named(stage: Status, word: str = "") -> str:
    """``stage`` as :func:`said`, with rfd's name after it once where they read differently
    (``published (Accepted)``), as the ``rfd-status`` hook says a move."""
    own = said(stage, word)
    return own if own.casefold() == stage.value.casefold() else f"{own} ({stage.value})"


def _tables(dialects_first: bool) -> list[dict[str, Status]]:
    """The known vocabularies to look a word up in: in front matter and AsciiDoc a word such
    as ``discussion`` is first taken as a dialect's (Oxide's), in a field list as rfd's."""
    tables = list(DIALECTS.values())
    return tables[1:] + tables[:1] if dialects_first else tables


def words_of(stage: Status, current: str | None) -> tuple[str, ...]:
    """Every word that means ``stage`` in the vocabulary of ``current`` (for messages)."""
    if _configured:
        return tuple(w for w, s in _configured.items() if s is stage)
    folded = (current or "").strip().casefold()
    table = next((t for t in DIALECTS.values() if folded in t), DIALECTS["rfd-bot"])
    return tuple(w for w, s in table.items() if s is stage)


def _cased(word: str, current: str | None) -> str:
    """``word`` written with the capitals of ``current`` (``Published`` after ``Discussion``)."""
    if current and current.strip()[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


LABEL_PREFIX = "rfd: "
AUTO_COLOR = "ededed"
"""The grey GitHub gives a label it creates because an issue was labelled with it."""

LABEL_COLORS = {
    Status.DRAFT: "c5def5",
    Status.DISCUSSION: "fbca04",
    Status.ACCEPTED: "0e8a16",
    Status.IMPLEMENTED: "5319e7",
    Status.ABANDONED: "6a737d",
    Status.SUPERSEDED: "bfd4f2",
}
LABEL_DESCRIPTION = "RFD status, kept by rfd-bot: {status}"


def label_of(status: Status) -> str:
    """``rfd: accepted`` — in the repository's word when it has one (``rfd: published``)."""

    return f"{LABEL_PREFIX}{word_for(status, None, lower=True).lower()}"


def status_of(label: str) -> Status | None:
    """The status a lifecycle label names (None for any other label); rfd's own names are
    still read in a repository with its own words, so their labels are replaced."""
    if not label.startswith(LABEL_PREFIX):
        return None
    found = next((s for s in Status if label_of(s) == label), None)
    return found or next((s for s in Status if f"{LABEL_PREFIX}{s.value.lower()}" == label), None)


class LabelChanges(NamedTuple):  # not a dataclass: the hooks read this module
    add: tuple[str, ...]
    remove: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.add or self.remove)


def label_changes(current: Iterable[str], statuses: Iterable[Status]) -> LabelChanges:
    """What makes ``current`` carry exactly the labels of ``statuses`` (others untouched)."""
    have = {name for name in current if status_of(name) is not None}
    want = {label_of(s) for s in statuses}
    return LabelChanges(tuple(sorted(want - have)), tuple(sorted(have - want)))


def label_style(label: str) -> tuple[str, str] | None:
    """``(color, description)`` the bot gives a lifecycle label it created."""
    status = status_of(label)
    if status is None:
        return None
    return LABEL_COLORS[status], LABEL_DESCRIPTION.format(status=status.value)
