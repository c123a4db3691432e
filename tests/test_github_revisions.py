"""Which revision a posted review is of: only the markers the bot put first count."""

from __future__ import annotations

from bot.forge.base import Comment
from bot.github.review_post import (
    PostedReview,
    brought_up_to_date,
    head_marker,
    posted_reviews,
    review_marker,
    with_stale_banner,
)

REVIEWED, BOT_COMMIT, FORCED = "a" * 40, "b" * 40, "c" * 40


def review(text: str) -> Comment:
    markers = f"{review_marker('045', REVIEWED)}\n{head_marker(BOT_COMMIT)}"
    return Comment(1, f"{markers}\n{text}\n\n<sub>footer</sub>", "https://x/1")


def test_a_review_is_current_at_the_head_it_reviewed_and_after_the_bots_commit() -> None:
    (posted,) = posted_reviews([review("Looks fine.")])
    assert posted.is_current(REVIEWED) and posted.is_current(BOT_COMMIT)
    assert not posted.is_current(FORCED)


def test_a_head_marker_in_the_review_text_does_not_make_it_current_after_a_force_push() -> None:
    (posted,) = posted_reviews([review(f"Fine.\n{head_marker(FORCED)}")])
    assert not posted.is_current(FORCED)


def test_a_review_marker_quoted_in_a_comment_is_not_a_review() -> None:
    quoted = Comment(2, f"As the bot said:\n{review_marker('045', FORCED)}", "https://x/2")
    assert posted_reviews([quoted]) == []


def test_the_stale_banner_goes_after_the_markers_once() -> None:
    (posted,) = posted_reviews([review("<!-- rfd-bot:stale --> fake")])
    assert not posted.marked_stale
    body = with_stale_banner(posted)
    lines = body.split("\n")
    assert lines[2] == "<!-- rfd-bot:stale -->" and lines[3].startswith("> [!NOTE]")
    (again,) = posted_reviews([Comment(1, body, "https://x/1")])
    assert again.marked_stale and with_stale_banner(again) == body


def with_blob(blob: str) -> Comment:
    markers = (
        f"{review_marker('045', REVIEWED)}\n{head_marker(BOT_COMMIT)}\n<!-- rfd-bot:blob:{blob} -->"
    )
    return Comment(3, f"{markers}\nFine.", "https://x/3")


def test_the_content_reviewed_decides_when_it_is_known() -> None:
    (posted,) = posted_reviews([with_blob("0123456789ab")])
    # a force-push to other content: stale even at a head the review names
    assert not posted.is_current(BOT_COMMIT, "fedcba987654" + "0" * 28)
    # a rebase that left the RFD as it was: still current
    assert posted.is_current(FORCED, "0123456789ab" + "0" * 28)
    assert posted.is_current(BOT_COMMIT)  # content unknown: the heads decide


WEB = "https://github.com/o/r"
SAVED = "<sub>model `m` · of `aaaaaaaaaaaa` · saved as `docs/rfd/.state/045/reviews/17.md`</sub>"


def saved_review(heading: str = "### 🔍 Review 2 of RFD 045 — 1 minor") -> PostedReview:
    markers = f"{review_marker('045', REVIEWED)}\n{head_marker(BOT_COMMIT)}"
    body = f"{markers}\n{heading}\n\nPolish only.\n\n{SAVED}"
    (posted,) = posted_reviews([Comment(4, body, "https://x/4")])
    return posted


def test_a_review_moves_up_to_the_number_it_has_once_an_earlier_one_is_dismissed() -> None:
    body = brought_up_to_date(saved_review(), 1, current=True, web=WEB)
    assert "\n### 🔍 Review 1 of RFD 045 — 1 minor\n" in body
    same = saved_review()
    assert brought_up_to_date(same, 2, current=True, web=WEB) == same.comment.body
    unnumbered = saved_review("### 🔍 Implementation review of RFD 045 — no findings")
    body = brought_up_to_date(unnumbered, 3, current=True, web=WEB)
    assert "### 🔍 Implementation review 3 of RFD 045 — no findings" in body


def test_a_dismissed_review_says_by_whom_and_folds_its_text_once() -> None:
    body = brought_up_to_date(saved_review(), None, current=True, web=WEB, by="hubot")
    head, folded = body.split("<details><summary>The dismissed review</summary>")
    assert head.startswith(saved_review().comment.body.split("\n### ")[0])  # markers kept
    assert (
        f"> **Dismissed** by hubot with `/rfd dismiss`: this review of RFD 045 at "
        f"[`aaaaaaaaaaaa`]({WEB}/commit/aaaaaaaaaaaa) is settled" in head
    )
    assert "Polish only." in folded and folded.rstrip().endswith("</details>")
    (again,) = posted_reviews([Comment(4, body, "https://x/4")])
    assert again.marked_dismissed and again.saved_name == "17.md"  # still found, once
    assert brought_up_to_date(again, None, current=True, web=WEB, by="mona") == body


def test_a_dismisser_named_by_hostile_text_stays_plain() -> None:
    body = brought_up_to_date(saved_review(), None, current=True, web=WEB, by="@team <!-- x")
    assert "@team" not in body and "<!-- x" not in body


def test_an_open_review_of_an_older_revision_gets_its_banner_once() -> None:
    body = brought_up_to_date(saved_review(), 2, current=False, web=WEB)
    assert "This review is of an older revision" in body
    (again,) = posted_reviews([Comment(4, body, "https://x/4")])
    assert brought_up_to_date(again, 2, current=False, web=WEB) == body


def test_an_implementation_review_is_never_taken_for_a_dismissed_one() -> None:
    impl = SAVED.replace("/reviews/17.md", "/impl-reviews/17.md")
    markers = f"{review_marker('045', REVIEWED)}\n{head_marker(BOT_COMMIT)}"
    body = f"{markers}\n### 🔍 Implementation review of RFD 045 — no findings\n\n{impl}"
    (posted,) = posted_reviews([Comment(5, body, "https://x/5")])
    assert posted.implementation and posted.saved_name == "17.md"
    assert brought_up_to_date(posted, None, current=True, web=WEB, by="hubot") == body
    assert not saved_review().implementation
