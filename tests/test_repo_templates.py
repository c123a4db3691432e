"""Recognising the repository's own templates and finding the one for a category."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import repo_templates


@pytest.mark.parametrize(
    ("relative", "pattern", "category"),
    [
        ("000-design-template.md", "000-*-template.md", "design"),
        ("000-Decision-template.md", "000-*-template.md", "decision"),
        ("templates/guide.md", "templates/*.md", "guide"),
        ("001-design.md", "000-*-template.md", None),
        ("drafts/000-design-template.md", "000-*-template.md", None),
        ("000-design-template.md", "", None),
    ],
)
def test_a_template_is_recognised_by_the_pattern(
    relative: str, pattern: str, category: str | None
) -> None:
    assert repo_templates.category_of(relative, pattern) == category
    assert repo_templates.is_template(relative, pattern) == (category is not None)


def test_find_picks_the_category_template(tmp_path: Path) -> None:
    (tmp_path / "000-guide-template.md").write_text("# RFD NNN: TITLE\n")
    (tmp_path / "001-a.md").write_text("# RFD 001: A\n")
    assert repo_templates.find(tmp_path, "000-*-template.md", "Guide") == (
        tmp_path / "000-guide-template.md"
    )
    assert repo_templates.find(tmp_path, "000-*-template.md", "design") is None
    assert repo_templates.find(tmp_path, "templates/*.md", "guide") is None
