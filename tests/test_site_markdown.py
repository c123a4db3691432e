"""An RFD's markdown as its page shows it: untrusted text stays text, links stay on the site."""

from __future__ import annotations

import pytest

from bot.site.markdown import LinkContext, render, slug

PAGES = {"docs/rfd/020-pipeline.md": "020.html", "docs/rfd/drafts/D05-plugin.md": "D05.html"}


def html(text: str, repository: bool = True) -> str:
    blob = (lambda p: f"https://github.com/o/r/blob/HEAD/{p}") if repository else (lambda p: None)
    return render(text, LinkContext("docs/rfd/032-x.md", PAGES, blob)).html


@pytest.mark.parametrize(
    ("link", "href"),
    [
        ("./020-pipeline.md", "020.html"),
        ("020-pipeline.md#design", "020.html#design"),
        ("drafts/D05-plugin.md", "D05.html"),
        ("../../src/main.py", "https://github.com/o/r/blob/HEAD/src/main.py"),
        ("#motivation", "#motivation"),
        ("https://example.org/a", "https://example.org/a"),
    ],
)
def test_links_go_to_site_pages_or_the_repository(link: str, href: str) -> None:
    assert f'<a href="{href}">see</a>' in html(f"[see]({link})")


@pytest.mark.parametrize(
    "link",
    ["javascript:alert(1)", "data:text/html,hi", "//evil.example/x", "../../../../etc/passwd"],
)
def test_links_that_could_hurt_or_leave_the_repository_become_text(link: str) -> None:
    out = html(f"[see]({link})")
    assert "<a " not in out and "see" in out


def test_a_file_link_without_a_known_repository_becomes_text() -> None:
    out = html("[code](../../src/main.py)", repository=False)
    assert "<a " not in out and "<span>code</span>" in out


def test_raw_html_is_shown_not_run() -> None:
    out = html('<script>alert("x")</script>\n\n<img src=x onerror=alert(1)>')
    assert "<script" not in out and "&lt;script&gt;" in out
    assert "<img" not in out


def test_an_image_is_a_link_never_a_request() -> None:
    out = html("![the architecture](https://cdn.example/arch.png)")
    assert "<img" not in out
    assert '<a href="https://cdn.example/arch.png">[image: the architecture]</a>' in out


def test_headings_get_anchors_and_the_title_is_left_out() -> None:
    found = render(
        "# RFD 032: X\n\n## Design\n\n## Design\n\n### Back-pressure & flow\n",
        LinkContext("a.md", {}, lambda p: None),
    )
    assert "<h1" not in found.html
    assert '<h2 id="design">' in found.html and '<h2 id="design-1">' in found.html
    assert found.toc == (
        (2, "design", "Design"),
        (2, "design-1", "Design"),
        (3, "back-pressure-flow", "Back-pressure & flow"),
    )


def test_code_is_highlighted_by_its_language_and_escaped_without_one() -> None:
    out = html("```python\ndef f(): pass\n```\n\n```\n<b>x</b>\n```\n")
    assert '<span class="k">def</span>' in out
    assert "&lt;b&gt;x&lt;/b&gt;" in out


def test_slug_is_githubs() -> None:
    assert slug("Risks and Open Questions") == "risks-and-open-questions"
    assert slug("Über & Co.") == "über-co"
    assert slug("!!!") == "section"
