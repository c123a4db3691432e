from __future__ import annotations

import pytest

from bot import templates
from bot.core.errors import ValidationError
from bot.model.document import parse
from bot.model.ids import RfdId
from bot.model.plan import phase_headings
from bot.model.status import Status


@pytest.mark.parametrize("category", templates.CATEGORIES)
def test_rendered_template_is_a_draft_rfd(category: str) -> None:
    text = templates.render(category, RfdId.parse("D4"), "Faster {date} Lists", "Ada", "2026-11-22")
    doc = parse(text, "docs/rfd/D4-x.md")
    assert doc.rfd_id == RfdId.parse("D4")
    assert doc.title == "Faster {date} Lists"
    assert doc.status is Status.DRAFT
    assert doc.category == category.capitalize()
    assert doc.authors == ("Ada",)
    assert doc.field("Date") == "2026-11-22"
    assert "{" not in text.replace("{date} Lists", "")


@pytest.mark.parametrize("category", templates.CATEGORIES)
def test_every_section_starts_as_placeholder(category: str) -> None:
    doc = parse(templates.render(category, "D1", "T", "A", "2026-01-01"), "x.md")
    required = templates.required_sections(category)
    assert required[0] == "Summary"
    assert [s.title for s in doc.sections if s.level == 2] == list(required)
    for title in required:
        assert templates.is_placeholder(doc.section_body(title) or "x"), title
    assert len(templates.placeholder_lines(doc.text)) >= len(required)


def test_design_ends_with_a_placeholder_plan() -> None:
    assert templates.required_sections("design")[-1] == "Implementation Plan"
    doc = parse(templates.render("design", "D1", "T", "A", "2026-01-01"), "x.md")
    body = doc.section_body("Implementation Plan") or ""
    assert "### Phase 1: " in body  # shown as an example inside the guidance ...
    assert phase_headings(body) == []  # ... so an untouched template has no plan
    assert templates.is_placeholder(body)


def test_unknown_category_lists_the_known_ones() -> None:
    with pytest.raises(ValidationError) as err:
        templates.load("essay")
    assert "design, decision, guide, process" in str(err.value)


def test_category_is_case_insensitive() -> None:
    assert templates.load(" Design") == templates.load("design")


@pytest.mark.parametrize(
    ("text", "placeholder"),
    [
        ("", True),
        ("\n  \n", True),
        ("<!-- TODO: explain -->", True),
        ("<!-- todo\nmulti\nline -->\n\nTBD\n", True),
        ("### Phase 1: TODO\n\n<!-- TODO: x -->\n", True),
        ("...", True),
        ("Real text.", False),
        ("<!-- TODO: x -->\nReal text.", False),
        ("<!-- a normal comment -->", False),
        ("TODO: finish the benchmarks", False),
        ("### Phase 1: Skeleton\n", False),
    ],
)
def test_is_placeholder(text: str, placeholder: bool) -> None:
    assert templates.is_placeholder(text) is placeholder


def test_placeholder_lines() -> None:
    assert templates.placeholder_lines("a\n<!-- TODO: x -->\nb\n<!-- TODO\ny -->\n") == [2, 4]
