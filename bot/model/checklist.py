"""Phase checklists in markdown: parse, mark, append amendments, show progress.

A checklist is a list of lines ``- [ ] 1. Label``; ``[x]`` marks an item done and
``[!]`` failed, with the reason kept at the end: ``- [!] 2. Label [Failed: reason]``.
Numbers are labels, not keys: duplicates and gaps are accepted and items are
addressed by their position.  ``<!-- original_count: N -->`` records how many items
the plan started with; amendments may grow it to twice that.  A missing or garbled
count means no cap (amendments are never blocked by bad metadata).  Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from bot.core.errors import ValidationError
from bot.core.text import plural

INFLATION = 2
"""Amendments may grow a checklist to this many times its original item count."""

_ITEM = re.compile(
    r"""^(?P<head>\s*[-*+]\s*\[)(?P<box>[ xX!])(?P<mid>\]\s*)
        (?P<tag>(?P<number>\d+)[a-z]?|[A-Za-z])[.)]\s*  # 1.  1)  3a.  B.
        (?P<label>\S.*?)\s*$""",
    re.VERBOSE,
)
_FAILED = re.compile(r"\s*\[Failed:\s*(?P<reason>.*)\]\s*$")
_COUNT = re.compile(r"<!--\s*original_count:\s*(?P<value>.*?)\s*-->")
_NEW_ITEM = re.compile(r"^\s*[-*+]\s*\[ \]\s*\d+[.)]\s*(?P<label>\S.*?)\s*$")


class ItemStatus(Enum):
    """State of one checklist item, valued by its box character."""

    PENDING = " "
    DONE = "x"
    FAILED = "!"


@dataclass(frozen=True)
class Item:
    """One checklist line; ``line`` is 1-based within the parsed text."""

    number: int
    """The item's number (``3`` of ``3a``; 0 for a letter such as ``B``)."""
    label: str
    status: ItemStatus
    reason: str
    line: int
    tag: str = ""
    """The number as written: ``1``, ``3a``, ``B`` (phase labels, see ``bot.model.phase_ids``)."""


@dataclass(frozen=True)
class Checklist:
    """The items of a checklist, in order, and its recorded original count."""

    items: tuple[Item, ...]
    original_count: int | None

    @property
    def done(self) -> int:
        return sum(item.status is ItemStatus.DONE for item in self.items)

    @property
    def all_done(self) -> bool:
        """No pending item left (true for an empty checklist, as seed 003 says)."""
        return all(item.status is not ItemStatus.PENDING for item in self.items)

    @property
    def cap(self) -> int | None:
        """Most items amendments may grow to, or None when there is no cap."""
        return None if self.original_count is None else self.original_count * INFLATION


def parse(text: str) -> Checklist:
    """Every checklist item of ``text`` (other lines are ignored) and the original count."""
    items = [_item(match, n) for n, match in _matches(text)]
    return Checklist(tuple(items), _original_count(text))


def _matches(text: str) -> list[tuple[int, re.Match[str]]]:
    found = ((n, _ITEM.match(line)) for n, line in enumerate(text.splitlines(), start=1))
    return [(n, match) for n, match in found if match]


def _item(match: re.Match[str], line: int) -> Item:
    label, reason = match["label"], ""
    failed = _FAILED.search(label)
    if failed:
        label, reason = label[: failed.start()].rstrip(), failed["reason"].strip()
    status = ItemStatus(match["box"].lower())
    number = int(match["number"]) if match["number"] else 0
    return Item(number, label, status, reason, line, match["tag"])


def _original_count(text: str) -> int | None:
    match = _COUNT.search(text)
    if match is None or not match["value"].isdigit() or int(match["value"]) <= 0:
        return None
    return int(match["value"])


def render(
    labels: list[str] | tuple[str, ...],
    *,
    original_count: bool = True,
    tags: list[str] | tuple[str, ...] | None = None,
) -> str:
    """A fresh checklist numbered from 1 (or by ``tags``: phase labels such as ``3a``),
    with the count comment unless told otherwise."""
    names = list(tags) if tags is not None else [str(n) for n in range(1, len(labels) + 1)]
    if len(names) != len(labels):
        raise ValidationError(
            f"{plural(len(labels), 'checklist item')} but {plural(len(names), 'number')}"
        )
    lines = [f"<!-- original_count: {len(labels)} -->"] if original_count else []
    lines += [f"- [ ] {tag}. {_one_line(label)}" for tag, label in zip(names, labels, strict=True)]
    return "".join(f"{line}\n" for line in lines)


def _one_line(text: str) -> str:
    label = " ".join(text.split())
    if not label:
        raise ValidationError("a checklist item needs a label", hint="give every item a title")
    return label


def mark(text: str, position: int, status: ItemStatus, reason: str = "") -> str:
    """``text`` with the item at ``position`` (0-based) set to ``status``, all else kept.

    Failed items get `` [Failed: reason]`` appended; re-marking replaces an old reason.
    """
    found = _matches(text)
    if not 0 <= position < len(found):
        raise ValidationError(
            f"no checklist item at position {position} ({plural(len(found), 'item')})"
        )
    if status is ItemStatus.FAILED and not reason.strip():
        raise ValidationError("a reason is required to mark an item failed")
    n, match = found[position]
    lines = text.splitlines(keepends=True)
    ending = lines[n - 1][len(lines[n - 1].rstrip("\r\n")) :]
    lines[n - 1] = _marked(match, status, reason) + ending
    return "".join(lines)


def _marked(match: re.Match[str], status: ItemStatus, reason: str) -> str:
    number = match.string[match.start("number") : match.start("label")]  # "1. " as written
    suffix = f" [Failed: {' '.join(reason.split())}]" if status is ItemStatus.FAILED else ""
    return f"{match['head']}{status.value}{match['mid']}{number}{_item(match, 0).label}{suffix}"


def append(
    text: str, labels: list[str] | tuple[str, ...], *, original_count: int | None = None
) -> tuple[str, list[str]]:
    """Add items after the last one, numbered on; returns the text and the labels dropped.

    Items past the cap (twice the original count: ``original_count`` when given, else the
    comment in ``text``) are dropped, not an error.
    """
    checklist = parse(text)
    wanted = [_one_line(_strip_box(label)) for label in labels]
    cap = checklist.cap if original_count is None else original_count * INFLATION
    room = len(wanted) if cap is None else max(0, cap - len(checklist.items))
    kept, dropped = wanted[:room], wanted[room:]
    start = max((item.number for item in checklist.items), default=0) + 1
    new = [f"- [ ] {n}. {label}\n" for n, label in enumerate(kept, start=start)]
    return _insert_after(text, checklist.items[-1].line if checklist.items else None, new), dropped


def _strip_box(label: str) -> str:
    match = _NEW_ITEM.match(label)
    return match["label"] if match else label


def _insert_after(text: str, line: int | None, new: list[str]) -> str:
    if not new:
        return text
    lines = text.splitlines(keepends=True)
    at = len(lines) if line is None else line
    if at and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    return "".join(lines[:at] + new + lines[at:])


def extract_new_items(text: str) -> list[str]:
    """Labels of the unchecked ``- [ ] N. Label`` lines in free text (plan amendments)."""
    found = (_NEW_ITEM.match(line) for line in text.splitlines())
    return [match["label"] for match in found if match]


def progress(done: int, total: int) -> str:
    """``3/5 phases`` (``1/1 phase``)."""
    return f"{done}/{plural(total, 'phase')}"


def progress_bar(done: int, total: int, width: int = 20) -> str:
    """A text bar for issue bodies and terminals, e.g. ``▓▓▓▓▓▓░░░░ 60%``; 0% when empty."""
    if width < 1:
        raise ValidationError(f"progress bar width must be at least 1, not {width}")
    done = max(0, min(done, total))
    filled = done * width // total if total > 0 else 0
    percent = done * 100 // total if total > 0 else 0
    return f"{'▓' * filled}{'░' * (width - filled)} {percent}%"
