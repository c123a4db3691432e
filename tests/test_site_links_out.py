"""With ``[site] url`` set, the status comment and the tracking issue link to the RFD's page."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.github_markdown import page_url
from bot.github.status_comment import Panel, Who, render
from bot.lifecycle import accept
from bot.lifecycle.workspace import Workspace
from bot.model.status import Status
from tests.conftest import rfd_text, write_rfd

SITE = "https://acme.github.io/jp/"


@pytest.mark.parametrize(
    ("url", "page"),
    [
        (SITE, "https://acme.github.io/jp/rfd/045.html"),
        ("https://rfd.example.org", "https://rfd.example.org/rfd/045.html"),
        ("", ""),
        ("javascript:alert(1)", ""),
        ("https://x.example/a) [evil](https://y", ""),  # would become markdown structure
    ],
)
def test_page_url(url: str, page: str) -> None:
    assert page_url(url, "045") == page


def test_the_status_comment_links_to_the_page() -> None:
    panel = Panel(
        "045",
        "X",
        "https://github.com/o/r/blob/a/x.md",
        Status.DISCUSSION,
        site=page_url(SITE, "045"),
    )
    body = render(
        [panel], head="abc", who=Who("a", "b"), review_label="r", accept_label="a", commands=""
    )
    assert "[Read it on the RFD site](https://acme.github.io/jp/rfd/045.html)" in body
    plain = render(
        [Panel("045", "X", "u", Status.DISCUSSION)],
        head="abc",
        who=Who("a", "b"),
        review_label="r",
        accept_label="a",
        commands="",
    )
    assert "RFD site" not in plain


def test_the_tracking_issue_links_to_the_page(git_repo: Path) -> None:
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(f'[site]\nurl = "{SITE}"\n')
    write_rfd(git_repo, "001-a.md", rfd_text("001", "Queue"))
    issue = accept.accept(Workspace.open(git_repo), "1").issue
    assert "[Read it on the RFD site](https://acme.github.io/jp/rfd/001.html)." in issue.body
