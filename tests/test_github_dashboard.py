"""The status comment's text: stepper, next step per status, numbered reviews, lint."""

from __future__ import annotations

import pytest

from bot.github.status_comment import Panel, ReviewEntry, Who, lint_line, next_step, render, stepper
from bot.model.reviews import Severity
from bot.model.status import Status

WHO = Who(
    "people with write access or more",
    "people with write access or more other than the RFD's author",
)
URL = "https://github.com/o/r/blob/abc/docs/rfd/045-x.md"


def step(panel: Panel) -> str:
    return next_step(panel, "rfd:review", "rfd:accept")


@pytest.mark.parametrize(
    ("status", "line"),
    [
        (Status.DRAFT, "**Draft** → Discussion → Accepted → Implemented"),
        (Status.DISCUSSION, "✓ Draft → **Discussion** → Accepted → Implemented"),
        (Status.ACCEPTED, "✓ Draft → ✓ Discussion → **Accepted** → Implemented"),
        (Status.IMPLEMENTED, "✓ Draft → ✓ Discussion → ✓ Accepted → **Implemented**"),
        (Status.ABANDONED, "Draft → Discussion → Accepted → Implemented · **✕ Abandoned**"),
        (Status.SUPERSEDED, "Draft → Discussion → Accepted → Implemented · **✕ Superseded**"),
    ],
)
def test_stepper_marks_the_current_status(status: Status, line: str) -> None:
    assert stepper(status) == line


@pytest.mark.parametrize(
    ("status", "word", "line"),
    [
        (
            Status.DISCUSSION,
            "discussion",
            "✓ prediscussion → **discussion** → published → committed",
        ),
        (Status.ACCEPTED, "publish", "✓ predraft → ✓ draft → **publish** → implemented"),
        (Status.IMPLEMENTED, "released", "✓ draft → ✓ exploring → ✓ accepted → **released**"),
    ],
)
def test_the_stepper_speaks_the_repositorys_words(status: Status, word: str, line: str) -> None:
    assert stepper(status, word) == line


def test_a_panel_says_the_status_as_the_rfd_writes_it() -> None:
    panel = Panel("0012", "Audit logging", URL, Status.ACCEPTED, word="published")
    body = render(
        [panel],
        head="abc",
        who=WHO,
        review_label="rfd:review",
        accept_label="rfd:accept",
        commands="",
    )
    assert "RFD 0012: Audit logging](" in body and ") — published" in body
    assert "**published**" in body


def test_discussion_without_reviews_offers_review_and_accept_and_says_who() -> None:
    panel = Panel("045", "X", URL, Status.DISCUSSION)
    text = step(panel)
    assert "`/rfd review`" in text and "`/rfd accept`" in text and "`rfd:accept`" in text
    assert "/rfd implement" not in text
    body = render(
        [panel],
        head="abc",
        who=WHO,
        review_label="rfd:review",
        accept_label="rfd:accept",
        commands="",
    )
    who = (
        "<sub>Who may: people with write access or more; `/rfd accept` and `rfd:accept`: "
        "people with write access or more other than the RFD's author.</sub>"
    )
    assert who in body


def test_open_reviews_with_a_blocker_say_so_and_offer_refine_and_dismiss() -> None:
    blocker = ReviewEntry(1, "u", {Severity.BLOCKER: 1, Severity.MINOR: 2})
    text = step(Panel("045", "X", URL, Status.DISCUSSION, reviews=(blocker,)))
    assert text.startswith("1 open review (🛑 1 blocker · 2 minor): push fixes")
    assert "`/rfd refine`" in text and "`/rfd dismiss all`" in text


def test_an_accepted_rfd_is_offered_implement_on_its_issue_never_accept() -> None:
    text = step(
        Panel("045", "X", URL, Status.ACCEPTED, next_phase="1: Writer", phases=2, tracking=12)
    )
    assert "`/rfd implement` on tracking issue #12" in text and "phase 1: Writer" in text
    assert "/rfd accept" not in text


def test_an_accepted_rfd_with_every_phase_done_is_offered_done() -> None:
    text = step(Panel("045", "X", URL, Status.ACCEPTED, phases=2, tracking=12))
    assert "`/rfd done`" in text and "/rfd implement" not in text


def test_reviews_are_numbered_as_dismiss_takes_them_and_dismissed_ones_fold_away() -> None:
    commit = "https://github.com/o/r/commit/"
    panel = Panel(
        "045",
        "X",
        URL,
        Status.DISCUSSION,
        reviews=(
            ReviewEntry(
                1, "https://r/1", {Severity.MAJOR: 1}, "ec26c3e", commit=f"{commit}ec26c3e"
            ),
            ReviewEntry(
                None,
                "https://r/0",
                None,
                "f95f852",
                current=False,
                dismissed=True,
                commit=f"{commit}f95f852",
            ),
            ReviewEntry(None, "https://r/2", None, "f95f852", current=False, dismissed=True),
        ),
    )
    body = render(
        [panel],
        head="ec26c3e",
        who=WHO,
        review_label="rfd:review",
        accept_label="rfd:accept",
        commands="table",
    )
    table, folded = body.split("<details><summary>2 dismissed reviews</summary>")
    assert f"| [Review 1](https://r/1) | ⚠️ 1 major | [`ec26c3e`]({commit}ec26c3e) |" in table
    assert "dismissed" not in table.split("**Next step:**")[1]  # out of the table
    items = folded.split("</details>")[0].strip().splitlines()
    assert items == [
        f"- [dismissed review](https://r/0) of [`f95f852`]({commit}f95f852)",
        "- [dismissed review](https://r/2) of `f95f852`",
    ]


def test_only_dismissed_reviews_say_none_is_open() -> None:
    panel = Panel(
        "045",
        "X",
        URL,
        Status.DISCUSSION,
        reviews=(ReviewEntry(None, "https://r/0", None, "f95f852", dismissed=True),),
    )
    body = render(
        [panel],
        head="ec26c3e",
        who=WHO,
        review_label="rfd:review",
        accept_label="rfd:accept",
        commands="table",
    )
    assert "No open reviews.\n\n<details><summary>1 dismissed review</summary>" in body
    assert "| review |" not in body


def test_lint_is_summarised_only_when_there_are_findings() -> None:
    assert lint_line(0, 0) == ""
    assert lint_line(1, 2).startswith("Lint: 1 error, 2 warnings")


def test_the_title_cannot_become_markdown_structure() -> None:
    panel = Panel("045", "x](https://evil) <img src=x> | @org/team", URL, Status.DISCUSSION)
    body = render(
        [panel],
        head="abc",
        who=WHO,
        review_label="rfd:review",
        accept_label="rfd:accept",
        commands="",
    )
    heading = body.splitlines()[0]
    assert heading == (
        "### [RFD 045: x\\]\u200b(https:\u200b//evil) <\u200bimg src=x> | "
        f"@\u200borg/team]({URL}) — Discussion"
    )
