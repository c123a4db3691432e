"""``decisions.md``: the design decisions of one RFD, as values and as text.

The values: each decision (numbered, never renumbered), the rejected ones with their
reasons, and the actions and statuses that change them.

The text: a ``# Decisions for RFD <id>: <title>`` heading, then ``## Locked`` and
``## Under Discussion`` (``N. text``) and ``## Rejected`` (``- ~~N. text~~ reason``).
Numbers are shared by all three parts and never reused: a decision keeps its number
when it is locked, reopened or rejected (rejected entries keep it inside the
strike-through).  Pure functions; the state store does the I/O.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from bot.core.errors import ParseError, ValidationError


class Action(Enum):
    ADD = "add"
    UPDATE = "update"
    REJECT = "reject"


class DecisionStatus(Enum):
    LOCKED = "locked"
    DISCUSSING = "discussing"


@dataclass(frozen=True)
class Decision:
    number: int
    text: str


@dataclass(frozen=True)
class Rejected:
    text: str
    reason: str
    number: int | None = None


@dataclass(frozen=True)
class Decisions:
    title: str = ""
    locked: tuple[Decision, ...] = ()
    discussing: tuple[Decision, ...] = ()
    rejected: tuple[Rejected, ...] = ()
    rfd: str = ""
    """The RFD id shown in the heading (``D32``, ``045``)."""

    @property
    def next_number(self) -> int:
        numbers = [d.number for d in (*self.locked, *self.discussing)]
        numbers += [r.number for r in self.rejected if r.number is not None]
        return max(numbers, default=0) + 1


_E = TypeVar("_E", bound=Enum)
_T = TypeVar("_T")


_HEADING = re.compile(
    r"""^\#\s+(?:Decisions(?:\s+for\s+RFD\s+(?P<rfd>[\w-]+))?\s*:?\s*)?  # "Decisions for RFD D32:"
        (?P<title>.*?)\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_SECTION = re.compile(r"^\#\#\s+(?P<name>.+?)\s*$")
_NUMBERED = re.compile(r"^(?P<number>\d+)[.)]\s+(?P<text>\S.*?)\s*$")
_REJECTED = re.compile(
    r"""^[-*]\s+~~\s*(?:(?P<number>\d+)[.)]\s+)?   # - ~~3.  (number optional)
        (?P<text>(?:\\[\\~]|[^~]|~(?!~))+?)         # text: \~ and \\ are escapes
        \s*~~\s*(?P<reason>.*?)\s*$""",
    re.VERBOSE,
)
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_PARTS = {
    "locked": "locked",
    "under discussion": "discussing",
    "discussing": "discussing",
    "discussion": "discussing",
    "rejected": "rejected",
}
_TITLES = {"locked": "Locked", "discussing": "Under Discussion", "rejected": "Rejected"}
_LINE_HINT = "decisions are `N. text`; rejected ones `- ~~N. text~~ reason`"


@dataclass
class _Reader:
    path: str
    title: str = ""
    rfd: str = ""
    part: str = ""
    headed: bool = False
    taken: set[int] = dataclasses.field(default_factory=set)
    entries: dict[str, list[Decision | Rejected]] = dataclasses.field(
        default_factory=lambda: {"locked": [], "discussing": [], "rejected": []}
    )

    def feed(self, n: int, line: str) -> None:
        heading = None if self.part else _HEADING.match(line)
        if heading and not self.headed:
            self.title, self.rfd, self.headed = heading["title"], heading["rfd"] or "", True
        elif section := _SECTION.match(line):
            self.part = _part(section["name"], self.path, n)
        elif line.strip() and not _COMMENT.match(line):
            self.add(n, line)

    def add(self, n: int, line: str) -> None:
        items = self.entries.get(self.part)
        if items and line[:1].isspace():  # an indented continuation of the previous entry
            items[-1] = _continued(items[-1], line.strip())
            return
        entry = _entry(self.part, line.strip())
        if items is None or entry is None:
            where = f"under `## {_TITLES[self.part]}`" if self.part else "before the first section"
            message = f"unexpected line {where}: {line.strip()!r}"
            raise ParseError(message, path=self.path, line=n, hint=_LINE_HINT)
        if entry.number is not None:
            self.claim(entry.number, n)
        items.append(entry)

    def claim(self, number: int, n: int) -> None:
        if number in self.taken:
            hint = "give each decision its own number"
            raise ParseError(f"decision {number} appears twice", path=self.path, line=n, hint=hint)
        self.taken.add(number)

    def result(self) -> Decisions:
        def pick(part: str, kind: type[_T]) -> tuple[_T, ...]:
            return tuple(e for e in self.entries[part] if isinstance(e, kind))

        locked, discussing = pick("locked", Decision), pick("discussing", Decision)
        return Decisions(self.title, locked, discussing, pick("rejected", Rejected), self.rfd)


def parse(text: str, path: str) -> Decisions:
    """Read ``decisions.md``; a line that fits nowhere is a ParseError naming it."""
    reader = _Reader(path)
    for n, line in enumerate(text.splitlines(), start=1):
        reader.feed(n, line)
    return reader.result()


def _part(name: str, path: str, line: int) -> str:
    part = _PARTS.get(name.lower())
    if part is None:
        hint = "use `## Locked`, `## Under Discussion` or `## Rejected`"
        raise ParseError(f"unknown section {name!r} in decisions", path=path, line=line, hint=hint)
    return part


def _entry(part: str, line: str) -> Decision | Rejected | None:
    if part == "rejected":
        match = _REJECTED.match(line)
        if match is None:
            return None
        number = int(match["number"]) if match["number"] else None
        return Rejected(_unescape(match["text"]), match["reason"], number)
    match = _NUMBERED.match(line)
    return Decision(int(match["number"]), match["text"]) if match else None


def _continued(entry: Decision | Rejected, more: str) -> Decision | Rejected:
    if isinstance(entry, Decision):
        return dataclasses.replace(entry, text=f"{entry.text} {more}")
    return dataclasses.replace(entry, reason=f"{entry.reason} {more}".strip())


def render(d: Decisions) -> str:
    """The canonical markdown of ``d`` (open decisions sorted by number)."""
    head = f"# Decisions for RFD {d.rfd}" if d.rfd else "# Decisions"
    blocks = [f"{head}: {d.title}" if d.title else head]
    for part, entries in (("locked", d.locked), ("discussing", d.discussing)):
        ordered = sorted(entries, key=lambda e: e.number)
        blocks.append(_block(_TITLES[part], [f"{e.number}. {e.text}" for e in ordered]))
    blocks.append(_block(_TITLES["rejected"], [_rejected_line(r) for r in d.rejected]))
    return "\n\n".join(blocks) + "\n"


def _block(name: str, lines: list[str]) -> str:
    return "\n".join([f"## {name}", *([""] if lines else []), *lines])


def _rejected_line(r: Rejected) -> str:
    number = f"{r.number}. " if r.number is not None else ""
    text = r.text.replace("\\", "\\\\").replace("~", "\\~")
    return f"- ~~{number}{text}~~ {r.reason}".rstrip()


_ESCAPED = re.compile(r"\\([\\~])")


def _unescape(text: str) -> str:
    return _ESCAPED.sub(r"\1", text)


def apply(
    d: Decisions,
    action: Action | str,
    *,
    number: int | None = None,
    text: str | None = None,
    status: DecisionStatus | str | None = None,
    reason: str | None = None,
) -> Decisions:
    """``d`` after one add / update / reject; bad parameters raise ValidationError.

    ``status`` defaults to discussing for ``add`` and to "unchanged" for ``update``.
    """
    act = _enum(Action, action, "action")
    state = None if status is None else _enum(DecisionStatus, status, "status")
    if act is Action.ADD:
        return _add(d, _text(text, required=True), state or DecisionStatus.DISCUSSING, number)
    current, was = _find(d, number, act)
    if act is Action.REJECT:
        return _reject(d, current, _text(reason, required=True, what="reason"))
    new = Decision(current.number, _text(text) or current.text)
    return _place(_without(d, current.number), new, state or was)


def _enum(kind: type[_E], value: _E | str, what: str) -> _E:
    if isinstance(value, kind):
        return value
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(str(member.value) for member in kind)
        raise ValidationError(f"unknown {what} {value!r}; use one of: {allowed}") from None


def _text(value: str | None, *, required: bool = False, what: str = "text") -> str:
    cleaned = " ".join((value or "").split())
    if required and not cleaned:
        raise ValidationError(f"a non-empty {what} is required")
    return cleaned


def _add(d: Decisions, text: str, status: DecisionStatus, number: int | None) -> Decisions:
    if number is not None:
        hint = "use `update` to change an existing decision"
        raise ValidationError("`add` numbers the decision itself; leave out the number", hint=hint)
    return _place(d, Decision(d.next_number, text), status)


def _find(d: Decisions, number: int | None, act: Action) -> tuple[Decision, DecisionStatus]:
    if number is None:
        raise ValidationError(f"`{act.value}` needs the number of the decision")
    for entry in d.locked:
        if entry.number == number:
            return entry, DecisionStatus.LOCKED
    for entry in d.discussing:
        if entry.number == number:
            return entry, DecisionStatus.DISCUSSING
    rejected = any(r.number == number for r in d.rejected)
    detail = "was rejected (add it again instead)" if rejected else "does not exist"
    known = ", ".join(str(n) for n in sorted(e.number for e in (*d.locked, *d.discussing)))
    raise ValidationError(f"decision {number} {detail}", hint=f"open decisions: {known or 'none'}")


def _without(d: Decisions, number: int) -> Decisions:
    locked = tuple(e for e in d.locked if e.number != number)
    discussing = tuple(e for e in d.discussing if e.number != number)
    return dataclasses.replace(d, locked=locked, discussing=discussing)


def _place(d: Decisions, entry: Decision, status: DecisionStatus) -> Decisions:
    if status is DecisionStatus.LOCKED:
        return dataclasses.replace(d, locked=(*d.locked, entry))
    return dataclasses.replace(d, discussing=(*d.discussing, entry))


def _reject(d: Decisions, entry: Decision, reason: str) -> Decisions:
    rest = _without(d, entry.number)
    return dataclasses.replace(
        rest, rejected=(*rest.rejected, Rejected(entry.text, reason, entry.number))
    )
