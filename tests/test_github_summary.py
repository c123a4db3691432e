"""Job summary and annotations."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.core.errors import InvalidStructure
from bot.github.run import Summary, annotation


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, "::error::bad"),
        ({"file": "docs/rfd/045-a.md", "line": 3}, "::error file=docs/rfd/045-a.md,line=3::bad"),
        ({"file": "a,b:c.md"}, "::error file=a%2Cb%3Ac.md::bad"),
    ],
)
def test_annotation(kwargs: dict[str, object], expected: str) -> None:
    assert annotation("error", "bad", **kwargs) == expected  # type: ignore[arg-type]


def test_multiline_messages_stay_one_command() -> None:
    assert annotation("warning", "a\nb 100%") == "::warning::a%0Ab 100%25"


def test_flush_writes_summary_and_annotations(tmp_path: Path) -> None:
    summary = Summary("rfd-bot · pull_request.opened")
    summary.note("status comment updated on #2")
    summary.problem(InvalidStructure("missing Status", path="docs/rfd/045-a.md", line=1))
    out = io.StringIO()
    target = tmp_path / "summary.md"
    summary.flush({"GITHUB_STEP_SUMMARY": str(target)}, out)
    assert out.getvalue() == "::error file=docs/rfd/045-a.md,line=1::missing Status\n"
    text = target.read_text()
    assert text.startswith("### rfd-bot · pull_request.opened")
    assert "- ❌ `docs/rfd/045-a.md:1`: missing Status" in text


def test_summary_lines_quote_rfd_text_as_text() -> None:
    from bot.core.errors import RfdError
    from bot.github.run import Summary

    summary = Summary("rfd-bot")
    summary.problem(RfdError("title <img src=x> @octocat\n## injected", path="docs/rfd/045-a.md"))
    text = summary.markdown()
    assert "<img" not in text and "@octocat" not in text and "\n## injected" not in text


def test_a_commands_outcome_is_one_defused_table_cell() -> None:
    summary = Summary("rfd-bot")
    summary.answered("`/rfd implement`", "Codertocat", "✅ done: a | b @octocat <img>\nmore")
    text = summary.markdown()
    row = "| `/rfd implement` | @Codertocat | ✅ done: a \\| b @\u200boctocat <\u200bimg> |"
    assert row in text
    assert "more" not in text
