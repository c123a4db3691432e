from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.core.errors import InvalidStructure, ParseError
from bot.model import document, plan
from bot.model.plan import PlanPhase, PlanResult

BODY = """\
Intro text that belongs to no phase.

### Phase 1: Plugin skeleton and status display

Scaffold the plugin.
No LLM interaction.

#### Tests

Unit tests for the status display.

### Phase 2: Dedicated RFD tools

Implement the tools.

```markdown
### Phase 9: Not a phase (inside a code fence)
```

### Rollout notes

Not part of phase 2.
"""


def test_extract_titles_and_descriptions() -> None:
    result = plan.extract_from_section(BODY)
    assert result.problem is None
    assert result.phases == (
        PlanPhase(
            "Plugin skeleton and status display",
            "Scaffold the plugin.\nNo LLM interaction.\n\n#### Tests\n\nUnit tests for the "
            "status display.",
            "1",
        ),
        PlanPhase(
            "Dedicated RFD tools",
            "Implement the tools.\n\n```markdown\n### Phase 9: Not a phase (inside a code fence)"
            "\n```",
            "2",
        ),
    )


@pytest.mark.parametrize(
    ("heading", "label", "title"),
    [
        ("### Phase 1: Title", "1", "Title"),
        ("### Phase 0: Groundwork", "0", "Groundwork"),
        ("### Phase 3a: First half", "3a", "First half"),
        ("### Phase 3b — Second half", "3b", "Second half"),
        ("### Phase A – Letters", "A", "Letters"),
        ("### phase b: lower case", "B", "lower case"),
        ("## Phase 2: Level two", "2", "Level two"),
        ("### Phase 5: Later (deferred)", "5", "Later (deferred)"),
        ("### Phase 4 (optional): Extras", "4", "Extras (optional)"),
        ("### Phase 5 (Deferred) — Later", "5", "Later (deferred)"),
        ("### Phase 6 - Hyphen", "6", "Hyphen"),
        ("### Phase 7. Dot", "7", "Dot"),
        ("#### Phase 8: Level four ###", "8", "Level four"),
        ("### Phase 10", "10", "Phase 10"),
        ("###   Phase   11 :   Spaces  ", "11", "Spaces"),
    ],
)
def test_phase_heading_variants(heading: str, label: str, title: str) -> None:
    result = plan.extract_from_section(f"{heading}\n\nDo it.\n")
    assert result.phases == (PlanPhase(title, "Do it.", label),)


@pytest.mark.parametrize(
    "heading",
    [
        "# Phase 1: Too high",
        "##### Phase 1: Too deep",
        "### Phases overview",
        "### Phase One: Words",
        "### Step 1: Not a phase",
        "Phase 1: not a heading",
    ],
)
def test_non_phase_headings_are_not_phases(heading: str) -> None:
    result = plan.extract_from_section(f"{heading}\n\ntext\n")
    assert result.phases == ()
    assert result.problem is not None and "no phase headings" in result.problem


def test_the_shallowest_phase_level_wins() -> None:
    body = "### Phase 1: A\n#### Phase 1a: Step\ndetail\n### Phase 2: B\n"
    result = plan.extract_from_section(body)
    assert [(p.label, p.title) for p in result.phases] == [("1", "A"), ("2", "B")]
    assert result.phases[0].description == "#### Phase 1a: Step\ndetail"


def test_duplicate_and_non_sequential_phases_are_kept_in_order() -> None:
    body = "### Phase 2: B\nb\n### Phase 2: B again\n\n### Phase 7: C\n"
    result = plan.extract_from_section(body)
    assert [(p.label, p.title, p.description) for p in result.phases] == [
        ("2", "B", "b"),
        ("2", "B again", ""),
        ("7", "C", ""),
    ]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (None, "there is no `## Implementation Plan` section"),
        ("", "section is empty"),
        ("  \n\n", "section is empty"),
        ("<!-- Describe the phases:\n### Phase 1: Title -->\n", "template placeholder"),
        ("_(List the phases, one heading each.)_\n", "template placeholder"),
        ("TODO\n", "template placeholder"),
        ("TBD.\n\n...\n", "template placeholder"),
        ("…\n<!-- x -->\n_(guidance)_\n", "template placeholder"),
        ("We will do it in one go.\n", "no phase headings; write one heading per phase"),
        ("TODO: write the phases\n", "no phase headings"),
        ("1. Widen the parser.\n2. **Switch** the writers.\n", "or a numbered list of phases"),
    ],
)
def test_missing_empty_or_placeholder_extracts_nothing_and_says_so(
    body: str | None, problem: str
) -> None:
    result = plan.extract_from_section(body)
    assert result.phases == ()
    assert result.problem is not None and problem in result.problem


@dataclass(frozen=True)
class FakeDoc:
    path: str
    body: str | None

    def section(self, title: str) -> None:
        return None

    def section_body(self, title: str) -> str | None:
        return self.body if title == "Implementation Plan" else None


def test_extract_reads_the_documents_implementation_plan() -> None:
    doc = FakeDoc("docs/rfd/045-x.md", "### Phase 1: A\nDo A.\n")
    assert plan.extract(doc) == PlanResult((PlanPhase("A", "Do A.", "1"),))
    missing = plan.extract(FakeDoc("045-x.md", None))
    assert missing == PlanResult((), "there is no `## Implementation Plan` section")


PHASES = (PlanPhase("A", "Do A.", "1"), PlanPhase("Bé", "Multi\nline", ""))


def test_dumps_loads_round_trip() -> None:
    text = plan.dumps(PHASES)
    assert text.endswith("]\n") and "Bé" in text
    assert '"label": "1"' in text and text.count('"label"') == 1
    assert plan.loads(text, "plan.json") == PHASES
    assert plan.loads("[]", "plan.json") == ()


@pytest.mark.parametrize(
    ("text", "line"),
    [("", 1), ('[\n  {"title": "A",\n  }\n]', 3), ("[{'title': 'A'}]", 1), ('[\n{"a": 1}\n', 3)],
)
def test_loads_bad_json_is_a_parse_error_with_line(text: str, line: int) -> None:
    with pytest.raises(ParseError, match="not valid JSON") as info:
        plan.loads(text, ".state/045/plan.json")
    assert info.value.line == line
    assert str(info.value).startswith(f".state/045/plan.json:{line}: plan is not valid JSON")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"title": "A"}', "must be a JSON array, not an object"),
        ("null", "must be a JSON array, not null"),
        ('["A"]', "phase at index 0 must be an object, not a string"),
        ('[{"title": "A", "description": "", "owner": "me"}]', "index 0 has unknown key 'owner'"),
        ('[{"title": "A", "description": ""}, {"description": "x"}]', "index 1 needs a non-empty"),
        ('[{"title": "  ", "description": ""}]', "index 0 needs a non-empty 'title'"),
        ('[{"title": 3, "description": ""}]', "'title' must be a string"),
        ('[{"title": "A", "description": ["x"]}]', "'description' must be a string"),
        ('[{"title": "A", "description": "", "label": 1}]', "'label' must be a string"),
        ('[{"title": "A"}]', "index 0 needs a 'description'"),
    ],
)
def test_loads_schema_errors_name_index_and_key(text: str, message: str) -> None:
    with pytest.raises(InvalidStructure, match=message) as info:
        plan.loads(text, "plan.json")
    assert info.value.path == "plan.json"


TRICKY = """[
  {"title": "A, [b] {c}", "description": "say \\"x\\", then ]"},
  {
    "description": "the title key below is the second one: \\"title\\": here is text",
    "label": "1b",
    "title": ["B"]
  }
]
"""


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('\n\n  {"title": "A"}', 3),  # the top-level value's own line
        (TRICKY, 6),  # brackets, commas and quoted keys inside strings are text
        ('[{"title": "A", "description": ""},\n\n 7]', 3),
        ('[\n  {"title": "A", "description": "", "extra": 1}]', 2),
        ('[{"title": "A", "description": ""},\n {"title": "B"}]', 2),
    ],
)
def test_schema_errors_point_at_the_phase_or_key_at_fault(text: str, line: int) -> None:
    with pytest.raises(InvalidStructure) as info:
        plan.loads(text, "plan.json")
    assert info.value.line == line
    assert info.value.hint is not None and '{"title": "…", "description": "…"}' in info.value.hint


def test_to_dict_leaves_out_empty_label() -> None:
    assert PlanPhase("A", "d").to_dict() == {"title": "A", "description": "d"}


RFD = """\
<!-- generated from the design template -->
# RFD 045: Layered Interrupt Handlers

- **Status**: Discussion
- **Category**: Design

## Summary

Handlers in layers.

## Implementation Plan

{plan}
## References

- none
"""


@pytest.mark.parametrize(
    ("plan_text", "titles", "problem"),
    [
        (
            "### Phase 1: Trait\n\nExtract it.\n\n### Phase 2 — Stack\n\nAdd it.\n",
            ["Trait", "Stack"],
            None,
        ),
        ("<!-- One `### Phase N: Title` heading per phase. -->\n", [], "template placeholder"),
        ("_(Describe the phases.)_\n\nTBD\n", [], "template placeholder"),
        ("", [], "section is empty"),
    ],
)
def test_extract_from_a_parsed_rfd(plan_text: str, titles: list[str], problem: str | None) -> None:
    doc = document.parse(RFD.format(plan=plan_text), "docs/rfd/045-layered.md")
    result = plan.extract(doc)
    assert [p.title for p in result.phases] == titles
    assert result.problem is None if problem is None else problem in (result.problem or "")
    if titles:
        assert result.phases[0].description == "Extract it."


def test_a_numbered_list_of_bold_titles_is_a_plan() -> None:
    body = (
        "We go in three steps.\n\n"
        "1. **Widen the parser** so that it reads both forms.\n"
        "   Both are kept for a release.\n\n"
        "2. **Switch the writers**: every caller moves.\n"
        "3) **Drop the old form** — once nobody writes it.\n\n"
        "```\n4. **Not a phase** in code\n```\n"
        "## Later\n\n5. **Not this one either**\n"
    )
    result = plan.extract_from_section(body)
    assert [(p.label, p.title, p.description) for p in result.phases] == [
        ("1", "Widen the parser", "so that it reads both forms.\nBoth are kept for a release."),
        ("2", "Switch the writers", "every caller moves."),
        ("3", "Drop the old form", "once nobody writes it."),
    ]
    assert plan.extract_from_section(body) == result  # deterministic
