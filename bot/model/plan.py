"""Implementation plans: phases extracted from an RFD, and ``plan.json``.

Extraction is deterministic: each phase heading of the Implementation Plan section
(``### Phase 1: Title`` and the variants :mod:`bot.model.phases_parse` accepts — ``Phase 0``,
``3a``, letters, dashes, ``(optional)``/``(deferred)``, kept at the end of the title) is
one phase, described by the text under it; without phase headings, a numbered list of
bold-titled items (:mod:`bot.model.plan_lists`) is.  When the section is missing, empty or still
the template placeholder, nothing is extracted and ``PlanResult.problem`` says why.
Pure functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from bot.core.errors import InvalidStructure, ParseError

SECTION = "Implementation Plan"

_PLACEHOLDER = re.compile(
    r"""<!--.*?-->                      # HTML comment guidance
      | ^\s*_\(.*?\)_\s*$               # _(italic guidance)_
      | ^\s*(?:TODO|TBD|\.\.\.|…)[.:!]?\s*$  # a bare TODO / TBD / ...""",
    re.VERBOSE | re.DOTALL | re.MULTILINE | re.IGNORECASE,
)
_KEYS = {"title", "description", "label"}


class PlanPhase(NamedTuple):
    title: str
    description: str
    label: str = ""
    """The phase's name in the RFD (``1``, ``0``, ``3a``, ``B``); empty when unknown."""

    def to_dict(self) -> dict[str, str]:
        out = {"title": self.title, "description": self.description}
        return {**out, "label": self.label} if self.label else out


class PlanResult(NamedTuple):
    phases: tuple[PlanPhase, ...]
    problem: str | None = None


class HasSections(Protocol):
    """What extraction needs of a parsed RFD (``bot.model.document.Document``)."""

    def section_body(self, title: str) -> str | None: ...


def extract(doc: HasSections) -> PlanResult:
    """The phases of ``doc``'s Implementation Plan (or none, and why)."""
    return extract_from_section(doc.section_body(SECTION))


def extract_from_section(body: str | None) -> PlanResult:
    """The phases in the text of an Implementation Plan section (None: no such section).

    ``problem`` names no file: callers put it next to the document's path.
    """
    from bot.model.phases_parse import phase_headings  # not needed to read plan.json (hooks)

    if body is None:
        return PlanResult((), f"there is no `## {SECTION}` section")
    if not body.strip():
        return PlanResult((), f"the {SECTION} section is empty")
    if not _PLACEHOLDER.sub("", body).strip():
        return PlanResult((), f"the {SECTION} section still holds the template placeholder")
    phases = tuple(_phase(heading) for heading in phase_headings(body))
    if not phases:
        from bot.model.plan_lists import numbered_phases

        phases = tuple(PlanPhase(p.title, p.description, p.label) for p in numbered_phases(body))
    if not phases:
        hint = "write one heading per phase, e.g. `### Phase 1: Title`, or a numbered list of "
        hint += "phases, e.g. `1. **Title** what it does`"
        return PlanResult((), f"the {SECTION} section has no phase headings; {hint}")
    return PlanResult(phases)


def _phase(heading: PhaseHeading) -> PlanPhase:
    title = heading.title or f"Phase {heading.label}"
    if heading.qualifier:
        title = f"{title} ({heading.qualifier})"
    return PlanPhase(title, heading.description, heading.label)


def dumps(phases: Sequence[PlanPhase]) -> str:
    """``plan.json`` text: pretty JSON, non-ASCII kept, trailing newline."""
    return json.dumps([p.to_dict() for p in phases], indent=2, ensure_ascii=False) + "\n"


def loads(text: str, path: str) -> tuple[PlanPhase, ...]:
    """Parse and validate ``plan.json`` (ParseError with line / InvalidStructure naming where)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"plan is not valid JSON: {exc.msg}",
            path=path,
            line=exc.lineno,
            hint='fix the JSON syntax (a list of {"title", "description"} objects)',
        ) from exc
    except RecursionError:
        raise ParseError(TOO_DEEP, path=path, hint=SCHEMA_HINT) from None
    if not isinstance(data, list):
        raise _schema(f"plan must be a JSON array, not {_kind(data)}", text, path)
    return tuple(_load_phase(item, n, text, path) for n, item in enumerate(data))


TOO_DEEP = "plan is nested too deeply to be a list of phases"
SCHEMA_HINT = (
    'each phase is {"title": "…", "description": "…"} (and optionally "label": "3a"), '
    "in one JSON array; fix the file, or delete it and let `rfd accept` extract the plan "
    "again from the RFD's Implementation Plan"
)


def _schema(
    message: str, text: str, path: str, index: int | None = None, key: str | None = None
) -> InvalidStructure:
    """A schema error pointing at the line of phase ``index`` (its ``key``) in ``text``."""
    from bot.model.plan_lines import line_of  # a scan of the text, only once it is known bad

    return InvalidStructure(message, path=path, line=line_of(text, index, key), hint=SCHEMA_HINT)


def _load_phase(item: Any, index: int, text: str, path: str) -> PlanPhase:
    where = f"phase at index {index}"
    if not isinstance(item, dict):
        raise _schema(f"{where} must be an object, not {_kind(item)}", text, path, index)
    for key in item:
        if key not in _KEYS:
            raise _schema(
                f"{where} has unknown key {key!r} (allowed: title, description, label)",
                text,
                path,
                index,
                key,
            )
    for key in ("title", "description", "label"):
        if key in item and not isinstance(item[key], str):
            raise _schema(f"{where}: {key!r} must be a string", text, path, index, key)
    if not item.get("title", "").strip():
        raise _schema(f"{where} needs a non-empty 'title'", text, path, index, "title")
    if "description" not in item:
        raise _schema(f"{where} needs a 'description' (may be empty)", text, path, index)
    return PlanPhase(item["title"], item["description"], item.get("label", ""))


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "null" if value is None else "a number")
