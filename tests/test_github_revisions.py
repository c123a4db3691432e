"""Which revision a posted review is of: only the markers the bot put first count."""

from __future__ import annotations

from bot.forge.base import Comment
from bot.github.revisions import head_marker, posted_reviews, review_marker, with_stale_banner

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
