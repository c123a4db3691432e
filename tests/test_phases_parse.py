from __future__ import annotations

import pytest

from bot.model.document import parse
from bot.model.plan import phase_headings


@pytest.mark.parametrize(
    ("heading", "label", "title", "qualifier"),
    [
        ("### Phase 1: Skeleton", "1", "Skeleton", ""),
        ("### Phase 0: Groundwork", "0", "Groundwork", ""),
        ("### Phase 3a: Split", "3a", "Split", ""),
        ("### Phase 3B: Split", "3b", "Split", ""),
        ("### Phase B: Letters", "B", "Letters", ""),
        ("### phase c: lower", "C", "lower", ""),
        ("### Phase 2 — Em dash: and colon", "2", "Em dash: and colon", ""),
        ("### Phase 2 – En dash", "2", "En dash", ""),
        ("### Phase 2 - Hyphen", "2", "Hyphen", ""),
        ("### Phase 2. Dot", "2", "Dot", ""),
        ("### Phase 4 (optional): Extras", "4", "Extras", "optional"),
        ("### Phase 5 (Deferred) — Later", "5", "Later", "deferred"),
        ("### Phase 6: Polish (optional)", "6", "Polish", "optional"),
        ("### Phase 7", "7", "", ""),
        ("### Phase 8 Without separator", "8", "Without separator", ""),
    ],
)
def test_heading_variants(heading: str, label: str, title: str, qualifier: str) -> None:
    [phase] = phase_headings(f"\n{heading}\n\nDo it.\n")
    assert (phase.label, phase.title, phase.qualifier) == (label, title, qualifier)
    assert phase.line == 2
    assert phase.description == "Do it."


@pytest.mark.parametrize(
    "heading", ["### Phases", "### Phase Overview", "### Summary of phases", "# Phase 1: Top"]
)
def test_not_phases(heading: str) -> None:
    assert phase_headings(f"{heading}\n\ntext\n") == []


BODY = """
Intro paragraph.

### Phase 1: First

Line one.

#### Details

Sub-detail.

```text
### Phase 9: inside code
```

### Phase 2: Second
Two.
<!--
### Phase 10: commented out
-->
### Notes

Not part of phase 2.
"""


def test_descriptions_stop_at_next_heading_of_same_level() -> None:
    first, second = phase_headings(BODY)
    assert first.description.startswith("Line one.")
    assert "#### Details\n\nSub-detail." in first.description
    assert "### Phase 9: inside code" in first.description
    assert second.description.startswith("Two.")
    assert "Not part" not in second.description


def test_shallowest_level_wins() -> None:
    body = "## Phase 1: A\n\n### Phase 1a: Sub\n\n## Phase 2: B\n"
    assert [p.label for p in phase_headings(body)] == ["1", "2"]


def test_lines_are_file_lines_with_offset() -> None:
    text = "# RFD 1: T\n\n- **Status**: Draft\n\n## Implementation Plan\n\n### Phase 1: A\n"
    doc = parse(text, "x.md")
    section = doc.section("Implementation Plan")
    assert section is not None
    [phase] = phase_headings(
        doc.section_body("Implementation Plan") or "", line_offset=section.start
    )
    assert phase.line == 7
    assert text.splitlines()[phase.line - 1] == "### Phase 1: A"


def test_is_a_tuple_of_five() -> None:
    [phase] = phase_headings("### Phase 1: A\nB\n")
    label, title, qualifier, line, description = phase
    assert (label, title, qualifier, line, description) == ("1", "A", "", 1, "B")
