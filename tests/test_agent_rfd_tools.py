from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.agent.toolbox.catalog import ALL_TOOLS, check_arguments
from bot.agent.toolbox.rfd import section_edit
from bot.core.errors import AlreadyExists, FileNotFound, InvalidStructure, ValidationError
from tests.agent_support import RFD, RFD_PATH, Repo, make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return make_repo(tmp_path)


def call(repo: Repo, name: str, **args: Any) -> str:
    tool = ALL_TOOLS[name]
    return tool.handler(repo.tool_context(), check_arguments(tool, args))


def preview(repo: Repo, name: str, **args: Any) -> str:
    tool = ALL_TOOLS[name]
    assert tool.preview is not None
    return tool.preview(repo.tool_context(), check_arguments(tool, args))


def test_explore_summary_goes_to_the_state_directory(repo: Repo) -> None:
    assert preview(repo, "rfd_explore_summary", content="# Research\n").endswith("+# Research\n")
    call(repo, "rfd_explore_summary", content="# Research\n")
    assert repo.store.read_explore("D1") == "# Research\n"


def test_decisions_are_added_updated_and_rejected(repo: Repo) -> None:
    call(repo, "rfd_decision", action="add", text="Flat event structs", status="locked")
    call(repo, "rfd_decision", action="add", text="A macro emits events")
    diff = preview(repo, "rfd_decision", action="reject", number=2, reason="too magic")
    assert "-2. A macro emits events" in diff.splitlines()
    out = call(repo, "rfd_decision", action="reject", number=2, reason="too magic")
    text = repo.store.read_text("D1", "decisions.md") or ""
    assert text.startswith("# Decisions for RFD D1: Tracing")
    assert "1. Flat event structs" in text and "~~2. A macro emits events~~ too magic" in text
    assert out.endswith(text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"action": "update", "text": "x"}, "needs the number"),
        ({"action": "reject", "number": 1}, "reason"),
        ({"action": "update", "number": 9, "text": "x"}, "does not exist"),
        ({"action": "add"}, "non-empty text"),
    ],
)
def test_bad_decisions_are_refused_and_nothing_is_written(
    repo: Repo, args: dict[str, Any], message: str
) -> None:
    call(repo, "rfd_decision", action="add", text="One")
    before = repo.store.read_text("D1", "decisions.md")
    with pytest.raises(ValidationError, match=message):
        call(repo, "rfd_decision", **args)
    assert repo.store.read_text("D1", "decisions.md") == before


def test_rfd_section_replaces_one_section_and_nothing_else(repo: Repo) -> None:
    out = call(repo, "rfd_section", section="design", content="## Design\n\nNew design.\n")
    assert out == f"replaced section `design` of {RFD_PATH}"
    assert repo.rfd.read_text() == RFD.replace("Old design.", "New design.")


def test_rfd_section_appends_only_a_section_the_call_declares_new(repo: Repo) -> None:
    with pytest.raises(ValidationError, match="no section `Alternatives`") as refused:
        call(repo, "rfd_section", section="Alternatives", content="None.")
    assert "`Summary`, `Design`" in str(refused.value) and "new: true" in str(refused.value)
    assert repo.rfd.read_text() == RFD
    call(repo, "rfd_section", section="Alternatives", content="None.", new=True)
    assert repo.rfd.read_text().endswith("## Alternatives\n\nNone.\n")
    assert repo.rfd.read_text().startswith(RFD)


def test_rfd_section_adds_a_new_section_after_the_one_named(repo: Repo) -> None:
    out = call(repo, "rfd_section", section="Goals", content="Fast.", new=True, after="summary")
    assert out == f"added section `Goals` to {RFD_PATH}"
    assert repo.rfd.read_text() == RFD.replace("## Design", "## Goals\n\nFast.\n\n## Design")


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("", "needs a section name"),
        ("  ## ", "needs a section name"),
        ("Status", "`Status` is a header field"),
        ("authors", "`authors` is a header field"),
        ("Superseded by", "`Superseded by` is a header field"),
        ("Tracing", "`Tracing` is the RFD's title"),
        ("# RFD D1: Tracing", "is the RFD's title"),
        ("Summary\n# RFD D2: X", "one line"),
    ],
)
def test_rfd_section_refuses_names_that_are_no_section(
    repo: Repo, section: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        call(repo, "rfd_section", section=section, content="x", new=True)
    assert repo.rfd.read_text() == RFD


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("S.\n\n# RFD D2: Injected\n", "holds the heading `# RFD D2: Injected` \\(line 3"),
        ("S.\n## Design\nReplaced.\n", "holds the heading `## Design`"),
        ("S.\n\n```\nopen fence\n", "would hide the sections after it"),
        ("S.\n<!-- open comment\n", "would hide the sections after it"),
    ],
)
def test_rfd_section_refuses_content_that_would_start_or_hide_sections(
    repo: Repo, content: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        call(repo, "rfd_section", section="Summary", content=content)
    assert repo.rfd.read_text() == RFD


def test_rfd_section_keeps_subsections_and_code(repo: Repo) -> None:
    body = "S.\n\n### Detail\n\nD.\n\n```sh\n# a shell comment\n```\n"
    call(repo, "rfd_section", section="Summary", content=body)
    assert "## Summary\n\n" + body + "\n## Design\n" in repo.rfd.read_text()


def test_rfd_section_preview_is_a_diff_and_writes_nothing(repo: Repo) -> None:
    diff = preview(repo, "rfd_section", section="Summary", content="New summary.")
    assert "-Old summary." in diff.splitlines() and "+New summary." in diff.splitlines()
    assert repo.rfd.read_text() == RFD


def test_rfd_draft_creates_the_file_once(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, rfd=None)
    with pytest.raises(FileNotFound, match="create it with rfd_draft"):
        call(repo, "rfd_section", section="Summary", content="x")
    with pytest.raises(InvalidStructure, match="no '# RFD' heading"):
        call(repo, "rfd_draft", content="no heading here\n")
    call(repo, "rfd_draft", content=RFD)
    assert repo.rfd.read_text() == RFD
    with pytest.raises(AlreadyExists, match="has written sections already") as refused:
        call(repo, "rfd_draft", content=RFD)
    assert refused.value.hint == "write its sections one by one with rfd_section"


SKELETON = RFD.replace("Old summary.", "<!-- TODO: one paragraph -->").replace("Old design.", "")


def test_rfd_draft_lays_out_a_bare_skeleton_keeping_its_header(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, rfd=SKELETON.replace("\n", "\r\n"))
    content = "# RFD D9: Other\n\n- **Status**: Accepted\n\n## Goals\n\n## Design\n\nFlat.\n"
    diff = preview(repo, "rfd_draft", content=content)
    assert "\n+## Goals\r\n" in diff and repo.rfd.read_text() == SKELETON
    out = call(repo, "rfd_draft", content=content)
    header = SKELETON.split("## Summary")[0]
    expected = header + "## Goals\n\n## Design\n\nFlat.\n"
    assert repo.rfd.read_bytes() == expected.replace("\n", "\r\n").encode()
    assert out.startswith(f"kept the heading and header fields of {RFD_PATH}")
    assert "sections: Goals, Design; now write" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("Just prose.\n", "no `##` section headings"),
        ("## Summary\n\n# RFD D2: Injected\n", "a `#` title after its sections begin"),
    ],
)
def test_rfd_draft_refuses_content_without_sections_or_with_a_second_title(
    tmp_path: Path, content: str, message: str
) -> None:
    repo = make_repo(tmp_path, rfd=SKELETON)
    with pytest.raises(ValidationError, match=message):
        call(repo, "rfd_draft", content=content)
    assert repo.rfd.read_text() == SKELETON


@pytest.mark.parametrize(
    ("section", "content", "expected"),
    [
        ("summary", "S.", "## Summary\n\nS.\n"),
        ("## Summary", "## Summary\nS.\n\n", "## Summary\n\nS.\n"),
        ("SUMMARY", "### Other\nS.", "## Summary\n\n### Other\nS.\n"),
    ],
)
def test_section_edit_matches_titles_and_strips_a_repeated_heading(
    section: str, content: str, expected: str
) -> None:
    assert expected in section_edit(RFD, RFD_PATH, section, content)


def test_rfd_tools_without_an_rfd_say_so(tmp_path: Path) -> None:
    from bot.agent.toolbox.base import ToolContext
    from bot.config.load import Config

    ctx = ToolContext.for_repo(tmp_path, Config())
    with pytest.raises(ValidationError, match="needs an RFD"):
        ALL_TOOLS["rfd_explore_summary"].handler(ctx, {"content": "x"})
