"""Text the bot did not write reads as text in its posts: no markers, HTML, images or mentions."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from bot.core.github_markdown import block, cell, code, fenced, inline, one_line

GFM = MarkdownIt("commonmark").enable("table")
HOSTILE = [
    "Beta <!-- rfd-bot:tracking:001 -->",
    "<!-- rfd-bot:checklist:end -->",
    "<img src=x onerror=alert(1)>",
    "<details><summary>x</summary>",
    "![pixel](https://evil.example/track.png)",
    "ping @octocat and @github/security",
    "a | b",
    "a \\| b",
    "line\nbreak",
    "para\u2029graph and line\u2028sep",
    "bidi \u202eevil",
]


def html(markdown: str) -> str:
    return GFM.render(markdown)


def text_nodes(markdown: str) -> str:
    """What a reader sees, as plain text."""
    tokens = GFM.parse(markdown)
    return "".join(c.content for t in tokens if t.children for c in t.children if c.content)


@pytest.mark.parametrize("text", HOSTILE)
def test_cell_text_is_one_table_cell_of_plain_text(text: str) -> None:
    row = f"| RFD 1 | {cell(text)} | Discussion |"
    rendered = html(f"| a | b | c |\n|---|---|---|\n{row}\n")
    assert "<!--" not in row and "<img" not in rendered and "<details" not in rendered
    assert rendered.count("<td>") == 3  # never a cell more, never a row more
    assert not any(s in row for s in ("@octocat", "@github", "![", "\u202e"))


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Streaming exports", "Streaming exports"),
        ("a | b", "a | b"),
        ("a \\| b", "a \\| b"),  # the backslash stays a backslash, the pipe a pipe
        ("Use `Option<T>`", "Use Option<\u200bT>"),  # looks the same
        ("two\nlines\u2028here", "two lines here"),
    ],
)
def test_cell_reads_as_the_original_text(text: str, shown: str) -> None:
    assert text_nodes(f"| x |\n|---|\n| {cell(text)} |\n") == f"x{shown}"
    if "\\" not in text:  # outside a table a backslash escapes, as it does in the RFD
        assert text_nodes(inline(text)) == shown


def test_mentions_do_not_ping_and_markers_cannot_form() -> None:
    out = inline("@octocat @github/security <!-- rfd-bot:status:1 -->")
    assert "@octocat" not in out and "@github" not in out and "<!--" not in out
    assert out.replace("\u200b", "") == "@octocat @github/security <!-- rfd-bot:status:1 -->"


def test_block_keeps_markdown_but_not_markers_html_images_or_mentions() -> None:
    review = (
        "## Findings\n\n- **Design**: fine, see `x<y`\n"
        "see <!-- rfd-bot:status:7 --> here\n<img src=x>\n"
        "![p](https://e.example/p.png)\ncc @octocat\n"
    )
    out = block(review)
    rendered = html(out)
    assert "<h2>Findings</h2>" in rendered and "<strong>Design</strong>" in rendered
    assert "<!--" not in out and "<img" not in rendered and "@octocat" not in out
    assert out.replace("\u200b", "") == review.strip("\n")


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_block_closes_a_fence_it_leaves_open(fence: str) -> None:
    out = block(f"Look:\n\n{fence}python\nprint(1)\n")
    rendered = html(f"{out}\n\n<sub>footer</sub>\n")
    assert "<sub>footer</sub>" in rendered and "<code" in rendered


def test_block_leaves_closed_fences_alone() -> None:
    text = "a\n\n```\ncode\n```\n\nafter"
    assert block(text) == text


def test_fenced_text_cannot_close_its_block() -> None:
    out = fenced("error: ``` then\n<!-- rfd-bot:reply:1 --> @octocat")
    rendered = html(f"{out}\n\n**after**\n")
    assert rendered.count("<pre>") == 1 and "<strong>after</strong>" in rendered
    assert "<!--" not in out and "@octocat" not in out


def test_one_line_for_titles() -> None:
    assert one_line(" RFD\n 2:\u2028 Beta\t\u202e ") == "RFD 2: Beta"


def test_block_drops_the_comments_a_reader_never_saw() -> None:
    review = "# Review\n<!-- rfd-bot:review kind=design -->\n\nFine.\n\n```\n<!-- shown -->\n```"
    assert block(review) == "# Review\n\nFine.\n\n```\n<\u200b!-- shown -->\n```"


@pytest.mark.parametrize(
    "text",
    [
        "a`[pwned](https://evil.example)`b",
        "``[x](y)``",
        "`leading and trailing`",
        "0000-cold`<img src=x>`tier",
        *HOSTILE,
    ],
)
def test_code_is_one_code_span_whatever_backticks_the_text_holds(text: str) -> None:
    rendered = html(f"saved as {code(text)}.")
    tokens = GFM.parseInline(f"saved as {code(text)}.")[0].children or []
    assert [t.type for t in tokens] == ["text", "code_inline", "text"]
    assert tokens[1].content == one_line(text)
    assert "<a " not in rendered and "<img" not in rendered
