"""The bot's own text: markers where it puts them, and bodies that fit GitHub's limit."""

from __future__ import annotations

from markdown_it import MarkdownIt

from bot.forge.base import BODY_LIMIT, fit, leading_markers, marker, with_marker


def test_leading_markers_are_the_marker_lines_opening_the_body() -> None:
    body = f"{marker('review', '045:abc')}\r\n{marker('head', 'def')}\ntext {marker('status', 1)}"
    assert leading_markers(body) == (marker("review", "045:abc"), marker("head", "def"))
    assert leading_markers(f"quote:\n{marker('status', 1)}") == ()


def test_a_marker_elsewhere_in_the_text_still_gets_one_in_front() -> None:
    mark = marker("status", 7)
    assert with_marker(f"see {mark}", mark) == f"{mark}\nsee {mark}"
    assert with_marker(f"{mark}\nbody", mark) == f"{mark}\nbody"


def test_a_body_over_githubs_limit_is_cut_with_a_note() -> None:
    errors = "\n".join(f"- line {n}: unknown command `/rfd x{n}`" for n in range(5000))
    body = f"{marker('reply', 'k')}\nI could not run this comment's commands:\n\n{errors}"
    out = fit(body)
    assert len(out) <= BODY_LIMIT < len(body)
    assert out.startswith(marker("reply", "k")) and "cut to fit GitHub's limit" in out


def test_a_cut_inside_a_code_block_closes_it_before_the_note() -> None:
    out = fit("```\n" + "x = 1\n" * 20_000)
    assert len(out) <= BODY_LIMIT
    assert "<blockquote>" in MarkdownIt("commonmark").render(out)  # the note is not code


def test_a_body_within_the_limit_is_left_alone() -> None:
    assert fit("short") == "short"
