"""Implementation plans: phases extracted from an RFD, and ``plan.json``.

Extraction is deterministic: each ``### Phase N: Title`` (or ``####``) heading of the
Implementation Plan section is one phase; its description is the text under it up to
the next phase heading or the next heading at the same or a higher level.  Accepted
variants: ``Phase 0``, ``3a``/``3b``, letters, an em/en dash or hyphen instead of the
colon, and ``(optional)``/``(deferred)`` before it (kept at the end of the title).
When the section is missing, empty or still the template placeholder, nothing is
extracted and ``PlanResult.problem`` says why.  Pure functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.errors import InvalidStructure, ParseError

SECTION = "Implementation Plan"

_PHASE = re.compile(
    r"""^(?P<hashes>\#{3,4})\s+phase\s+
        (?P<label>\d+[a-z]?|[a-z])\b           # 1, 0, 3a, B
        \s*(?P<note>\((?:optional|deferred)\))?   # (optional) before the colon
        \s*(?:(?:[:—–.]|\s-)\s*(?P<title>.*?))?   # : Title, — Title, - Title
        \s*\#*\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_HEADING = re.compile(r"^(?P<hashes>\#{1,6})\s")
_FENCE = re.compile(r"^\s*(```|~~~)")
_PLACEHOLDER = re.compile(
    r"""<!--.*?-->                      # HTML comment guidance
      | ^\s*_\(.*?\)_\s*$               # _(italic guidance)_
      | ^\s*(?:TODO|TBD|\.\.\.|…)[.:!]?\s*$  # a bare TODO / TBD / ...""",
    re.VERBOSE | re.DOTALL | re.MULTILINE | re.IGNORECASE,
)
_KEYS = {"title", "description", "label"}


@dataclass(frozen=True)
class PlanPhase:
    title: str
    description: str
    label: str = ""
    """The phase's name in the RFD (``1``, ``0``, ``3a``, ``B``); empty when unknown."""

    def to_dict(self) -> dict[str, str]:
        out = {"title": self.title, "description": self.description}
        return {**out, "label": self.label} if self.label else out


@dataclass(frozen=True)
class PlanResult:
    phases: tuple[PlanPhase, ...]
    problem: str | None = None


class HasSections(Protocol):
    """What extraction needs of a parsed RFD (``bot.document.Document``)."""

    @property
    def path(self) -> str: ...

    def section_body(self, title: str) -> str | None: ...


def extract(doc: HasSections) -> PlanResult:
    """The phases of ``doc``'s Implementation Plan (or none, and why)."""
    return extract_from_section(doc.section_body(SECTION), doc.path)


def extract_from_section(body: str | None, path: str) -> PlanResult:
    """The phases in the text of an Implementation Plan section (None: no such section)."""
    if body is None:
        return PlanResult((), f"{path}: no `## {SECTION}` section, so there is no plan to extract")
    if not body.strip():
        return PlanResult((), f"{path}: the {SECTION} section is empty")
    if not _PLACEHOLDER.sub("", body).strip():
        return PlanResult((), f"{path}: the {SECTION} section still holds the template placeholder")
    phases = _phases(body.splitlines())
    if not phases:
        hint = "write one heading per phase, e.g. `### Phase 1: Title`"
        return PlanResult((), f"{path}: the {SECTION} section has no phase headings; {hint}")
    return PlanResult(tuple(phases))


def _phases(lines: list[str]) -> list[PlanPhase]:
    heads = _headings(lines)
    phases = []
    for i, (start, match) in enumerate(heads):
        if match.re is _PHASE:
            phases.append(_phase(lines, start, match, _end(heads[i + 1 :], match, len(lines))))
    return phases


def _headings(lines: list[str]) -> list[tuple[int, re.Match[str]]]:
    """Headings outside code fences: a phase match, or else any heading."""
    found, fenced = [], False
    for n, line in enumerate(lines):
        fenced = fenced != bool(_FENCE.match(line))
        match = None if fenced else (_PHASE.match(line) or _HEADING.match(line))
        if match:
            found.append((n, match))
    return found


def _end(later: list[tuple[int, re.Match[str]]], phase: re.Match[str], default: int) -> int:
    """Where a phase's description stops: the next phase or same-or-higher-level heading."""
    level = len(phase["hashes"])
    ends = (n for n, m in later if m.re is _PHASE or len(m["hashes"]) <= level)
    return next(ends, default)


def _phase(lines: list[str], start: int, match: re.Match[str], end: int) -> PlanPhase:
    label = match["label"]
    title = (match["title"] or "").strip() or f"Phase {label}"
    if match["note"]:
        title = f"{title} {match['note'].lower()}"
    return PlanPhase(title, "\n".join(lines[start + 1 : end]).strip(), label)


def dumps(phases: Sequence[PlanPhase]) -> str:
    """``plan.json`` text: pretty JSON, non-ASCII kept, trailing newline."""
    return json.dumps([p.to_dict() for p in phases], indent=2, ensure_ascii=False) + "\n"


def loads(text: str, path: str) -> tuple[PlanPhase, ...]:
    """Parse and validate ``plan.json`` (ParseError with line / InvalidStructure naming where)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"plan is not valid JSON: {exc.msg}", path=path, line=exc.lineno,
            hint="fix the JSON syntax (a list of {\"title\", \"description\"} objects)",
        ) from exc  # fmt: skip
    if not isinstance(data, list):
        raise InvalidStructure(f"plan must be a JSON array, not {_kind(data)}", path=path)
    return tuple(_load_phase(item, n, path) for n, item in enumerate(data))


def _load_phase(item: Any, index: int, path: str) -> PlanPhase:
    where = f"phase at index {index}"
    if not isinstance(item, dict):
        raise InvalidStructure(f"{where} must be an object, not {_kind(item)}", path=path)
    for key in item:
        if key not in _KEYS:
            hint = "allowed keys: title, description, label"
            raise InvalidStructure(f"{where} has unknown key {key!r}", path=path, hint=hint)
    for key in ("title", "description", "label"):
        if key in item and not isinstance(item[key], str):
            raise InvalidStructure(f"{where}: {key!r} must be a string", path=path)
    if not item.get("title", "").strip():
        raise InvalidStructure(f"{where} needs a non-empty 'title'", path=path)
    if "description" not in item:
        raise InvalidStructure(f"{where} needs a 'description' (may be empty)", path=path)
    return PlanPhase(item["title"], item["description"], item.get("label", ""))


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "null" if value is None else "a number")
