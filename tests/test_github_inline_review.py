"""``review.inline``: which findings become line comments, and what the PR review says."""

from __future__ import annotations

from bot.forge.base import leading_markers
from bot.github.review import finding_text, line_comments, review_body
from bot.model.reviews import Review, ReviewFinding, Severity

PATH = "docs/rfd/045-x.md"
REVIEW = Review(
    "design",
    "summary",
    (
        ReviewFinding(Severity.BLOCKER, "Design", 12, "the export never ends"),
        ReviewFinding(Severity.MAJOR, "Drawbacks", 30, "no word on retries"),
        ReviewFinding(Severity.MAJOR, "Summary", None, "too long"),
        ReviewFinding(Severity.MINOR, "Design", 13, "a typo"),
    ),
)


def test_blockers_and_majors_on_diff_lines_become_comments_the_rest_are_counted() -> None:
    placed, elsewhere = line_comments(REVIEW, PATH, lambda n: n in {12, 13})
    assert [(c.path, c.line) for c in placed] == [(PATH, 12)]  # the minor on 13 is not shown
    assert placed[0].body == "**🛑 blocker** · Design: the export never ends"
    assert elsewhere == 1  # the major on line 30; the one without a line is not counted


def test_the_body_opens_with_its_marker_and_says_where_the_others_are() -> None:
    body = review_body("045", REVIEW, "ec26c3e57ca3a959", 1, 2)
    assert leading_markers(body) == ("<!-- rfd-bot:pr-review:045:ec26c3e57ca3 -->",)
    assert body.endswith("2 findings on other lines are in the review comment only.")
    assert "other lines" not in review_body("045", REVIEW, "ec26c3e57ca3a959", 2, 0)


def test_a_findings_text_cannot_plant_a_marker_or_ping_anyone() -> None:
    hostile = ReviewFinding(
        Severity.MAJOR, "<!-- rfd-bot:pr-review:045:abc -->", 4, "ask @octocat\n<img src=x>"
    )
    text = finding_text(hostile)
    assert "<!--" not in text and "@octocat" not in text and "<img" not in text
    assert "\n" not in text
