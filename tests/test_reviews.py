from __future__ import annotations

from bot.model import reviews
from bot.model.reviews import Review, ReviewFinding, Severity


def sample() -> Review:
    return Review(
        kind="design",
        summary="Solid idea; the plan needs detail.",
        findings=(
            ReviewFinding(Severity.MINOR, "Design", 12, "Name the backoff cap."),
            ReviewFinding(Severity.BLOCKER, "Implementation Plan", None, "Phase 2 is empty."),
        ),
        questions=("Who owns the queue?",),
        reviewer="anthropic",
        model="claude-sonnet-4-5",
    )


def test_render_then_parse_round_trips() -> None:
    text = reviews.render(sample(), rfd_id="045", title="Queue")
    assert text.startswith("# Review of RFD 045: Queue\n")
    assert "- **blocker** · Implementation Plan: Phase 2 is empty." in text
    assert "- **minor** · Design (line 12): Name the backoff cap." in text
    back = reviews.parse(text)
    assert back == sample()


def test_caps_keep_the_most_severe_findings() -> None:
    nits = [ReviewFinding(Severity.NIT, "Design", i, "nit " * 400) for i in range(25)]
    many = (*nits, ReviewFinding(Severity.BLOCKER, "Summary", 1, "must fix"))
    capped = Review("design", "s" * 5000, many).capped()
    assert len(capped.findings) == reviews.MAX_FINDINGS
    assert capped.findings[0].severity is Severity.BLOCKER
    assert len(capped.summary) == reviews.MAX_SUMMARY_CHARS
    assert all(len(f.message) <= reviews.MAX_FINDING_CHARS for f in capped.findings)


def test_from_structured_output_drops_unknown_severities() -> None:
    data = {
        "summary": "ok",
        "findings": [
            {"severity": "MAJOR", "section": "Design", "line": 3, "message": "x"},
            {"severity": "catastrophic", "section": "Design", "message": "y"},
        ],
        "questions": ["q", "  "],
    }
    r = reviews.from_data(data, kind="implementation", reviewer="openai", model="m")
    assert [f.severity for f in r.findings] == [Severity.MAJOR]
    assert r.questions == ("q",)
    assert r.kind == "implementation"


def test_a_hand_written_review_is_kept_as_its_summary() -> None:
    r = reviews.parse("The migration path is underspecified.\nPlease add one.")
    assert r.summary.startswith("The migration path")
    assert reviews.headline("The migration path is underspecified.\nMore") == (
        "The migration path is underspecified."
    )


def test_digest_keeps_what_a_later_review_must_not_repeat() -> None:
    text = reviews.render(sample(), rfd_id="045", title="Queue")
    short = reviews.digest(text)
    assert "Solid idea" not in short and "# Review of" not in short
    assert short.startswith("## Findings\n\n- **minor** · Design (line 12): Name the backoff cap.")
    assert short.endswith("## Questions\n\n- Who owns the queue?\n")
    back = reviews.parse(short)
    assert (back.findings, back.questions) == (sample().findings, sample().questions)


def test_digest_passes_a_hand_written_review_whole() -> None:
    text = "# Notes\n\n## Findings\n\nThe queue never drains under load.\n"
    assert reviews.digest(text) == text
