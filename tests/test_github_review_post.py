"""A review as posted: verdict and tally first, majors visible and linked, the rest folded."""

from __future__ import annotations

from bot.github.review_post import Where, render
from bot.model.reviews import Review, ReviewFinding, Severity

WHERE = Where("https://github.com/o/r", "docs/rfd/045-x.md", "a" * 40)


def review(*findings: ReviewFinding, questions: tuple[str, ...] = ()) -> Review:
    return Review("design", "Sound design.", findings, questions, "anthropic", "m")


def test_the_heading_carries_the_tally_and_the_next_line_the_verdict() -> None:
    text = render(
        review(
            ReviewFinding(Severity.BLOCKER, "Design", 26, "Twice."),
            ReviewFinding(Severity.NIT, "Summary", 9, "Spelling."),
        ),
        rid="045",
        where=WHERE,
    )
    lines = text.splitlines()
    assert lines[0] == "### 🔍 Review of RFD 045 — 🛑 1 blocker · 1 nit"
    assert lines[2].startswith("**Not ready to accept:**")


def test_blockers_and_majors_link_their_line_at_the_reviewed_commit_the_rest_fold() -> None:
    text = render(
        review(
            ReviewFinding(Severity.MAJOR, "Design", 27, "TODO limit."),
            ReviewFinding(Severity.MINOR, "Drawbacks", None, "Retention."),
            questions=("Replay ids?",),
        ),
        rid="045",
        where=WHERE,
    )
    visible, folded = text.split("<details>")
    link = f"https://github.com/o/r/blob/{'a' * 40}/docs/rfd/045-x.md#L27"
    assert f"| ⚠️ major | [Design L27]({link}) | TODO limit. |" in visible
    assert "Retention" not in visible and "| minor | Drawbacks | Retention. |" in folded
    assert "<summary>1 more finding (1 minor) and 1 question</summary>" in folded


def test_no_findings_says_so_once_without_a_table() -> None:
    text = render(review(), rid="045", where=WHERE)
    assert "no findings" in text.splitlines()[0] and "|" not in text and "<details>" not in text


def test_model_text_cannot_break_the_table_or_mention_anyone() -> None:
    text = render(
        review(ReviewFinding(Severity.MAJOR, "Design", 3, "a | b\n## c <b>@team</b>")),
        rid="045",
        where=WHERE,
    )
    row = next(line for line in text.splitlines() if line.startswith("| ⚠️"))
    assert row.endswith("| a \\| b ## c <\u200bb>@\u200bteam<\u200b/b> |")


RFD = """# RFD 045: Streaming exports

## 1. Summary

## Design **choices** & `trade-offs`

## Open questions

## Open questions
"""


def test_a_finding_naming_a_section_links_its_heading_at_the_reviewed_commit() -> None:
    where = Where.at("https://github.com/o/r", "docs/rfd/045-x.md", "a" * 40, RFD)
    text = render(
        review(
            ReviewFinding(Severity.MAJOR, "Summary", None, "Too short."),
            ReviewFinding(Severity.BLOCKER, "Design choices & trade-offs", None, "Undecided."),
            ReviewFinding(Severity.MAJOR, "General", None, "Whole RFD."),
        ),
        rid="045",
        where=where,
    )
    blob = f"https://github.com/o/r/blob/{'a' * 40}/docs/rfd/045-x.md"
    assert f"| ⚠️ major | [Summary]({blob}#1-summary) | Too short. |" in text
    assert f"[Design choices & trade-offs]({blob}#design-choices--trade-offs)" in text
    assert "| ⚠️ major | General | Whole RFD. |" in text  # no such heading: no link


def test_a_section_named_by_hostile_text_stays_inert_in_its_link() -> None:
    where = Where.at("https://github.com/o/r", "d.md", "a" * 40, "## a](https://evil) @x\n")
    text = render(
        review(ReviewFinding(Severity.MAJOR, "a](https://evil) @x", None, "m")),
        rid="045",
        where=where,
    )
    row = next(line for line in text.splitlines() if line.startswith("| ⚠️"))
    assert "](https://evil)" not in row and "@x" not in row
    assert row.count("](") == 1 and row.split("](")[1].startswith("https://github.com/o/r/blob/")


def test_a_review_carries_its_number_its_commit_and_its_run() -> None:
    from pathlib import Path

    from bot.github.review import review_comment
    from bot.github.review_post import Kept
    from bot.lifecycle.review import ReviewOutcome
    from bot.llm.usage import Usage

    result = ReviewOutcome(
        "045", Path("r.md"), review(), "# Review\n", Usage(), "m", 0.0, (), "saved", ()
    )
    run = "https://github.com/o/r/actions/runs/42"
    kept = Kept("docs/rfd/.state/045/reviews/17.md", 2, run)
    body = review_comment(result, ("b" * 40, ""), kept, [], WHERE)
    assert "### 🔍 Review 2 of RFD 045 — no findings" in body
    footer = body.rstrip().splitlines()[-1]
    assert f"of [`{'a' * 12}`](https://github.com/o/r/commit/{'a' * 40})" in footer
    assert footer.endswith(f"· [workflow run]({run})</sub>")
    local = review_comment(result, ("b" * 40, ""), Kept(None), [], WHERE)  # a fork, locally
    assert "### 🔍 Review of RFD 045" in local and "workflow run" not in local
    assert "not saved to the branch" in local
