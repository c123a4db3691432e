"""A default-branch job cannot commit: an RFD header without its tracking-issue link is reported."""

from __future__ import annotations

import pytest

from bot.forge.base import Issue
from bot.github.tracked import unlinked
from bot.model import document
from bot.model.document import Document
from tests.github_world import RFD_PATH, RFD_TEXT

LINK = "`- **Tracking Issue**: [#12](https://github.com/Codertocat/Hello-World/issues/12)`"

ISSUE = Issue(
    12,
    "RFD 045: Streaming exports",
    "",
    "open",
    "https://github.com/Codertocat/Hello-World/issues/12",
)


def with_link(value: str) -> Document:
    text = RFD_TEXT.replace("- **Date**", f"- **Tracking Issue**: {value}\n- **Date**")
    return document.parse(text, RFD_PATH)


@pytest.mark.parametrize("value", ["#12", f"[#12]({ISSUE.url})"])
def test_a_header_linking_the_issue_is_fine(value: str) -> None:
    assert unlinked(with_link(value), ISSUE) is None


def test_a_header_linking_another_issue_names_both_and_its_line() -> None:
    # accepted offline: the header links the local forge's issue, not GitHub's
    problem = unlinked(with_link("#3 (.rfd/issues/3.md)"), ISSUE)
    assert problem is not None
    assert problem.message == "RFD 045's header links #3, but its tracking issue is #12"
    assert (problem.path, problem.line) == (RFD_PATH, 6)
    assert problem.hint is not None and problem.hint.startswith(f"make that line {LINK}")
