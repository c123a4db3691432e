"""Heading anchors as GitHub makes them: a link to a section opens at its heading."""

from __future__ import annotations

import pytest

from bot.core.github_markdown import anchors, listed, slug


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Design", "design"),
        ("Implementation Plan", "implementation-plan"),
        ("Design choices & trade-offs", "design-choices--trade-offs"),
        ("3. Rollout (v2)", "3-rollout-v2"),
        ("snake_case and kebab-case", "snake_case-and-kebab-case"),
        ("Über Größe", "über-größe"),
        ("Why? Why not!", "why-why-not"),
    ],
)
def test_a_heading_gets_githubs_anchor(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_markup_is_not_part_of_the_anchor_and_repeats_are_numbered() -> None:
    text = "# Title\n\n## **Open** `questions`\n\n## Open questions\n\nSetext\n---\n\n## Setext\n"
    assert listed(text) == [
        ("Title", "title"),
        ("Open questions", "open-questions"),
        ("Open questions", "open-questions-1"),
        ("Setext", "setext"),
        ("Setext", "setext-1"),
    ]
    assert anchors(text)["open questions"] == "open-questions"  # the first one is linked


def test_a_numbered_heading_is_found_by_its_name_too() -> None:
    found = anchors("## 2.1 Goals\n")
    assert found["2.1 goals"] == found["goals"] == "21-goals"


def test_a_heading_named_like_a_repeat_gets_the_next_free_anchor() -> None:
    found = anchors("## a\n\n## a\n\n## a-1\n")
    assert found == {"a": "a", "a-1": "a-1-1"}  # the second "a" took "a-1"
