"""The steps that write an RFD's sections, on an Oxide-style AsciiDoc RFD: ``rfd_section``
(the model's tool, which refine applies too), ``rfd_draft`` on a skeleton, and the shared
section editor beneath them.  Each test states the file a user gets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.agent.authoring.author import draft
from bot.agent.authoring.refine import refine
from bot.agent.toolbox.catalog import ALL_TOOLS, check_arguments
from bot.agent.toolbox.permission import Mode
from bot.core.errors import ValidationError
from bot.events import Notice
from bot.model import document
from tests.agent_support import Repo, make_repo
from tests.fakes import ScriptedLLM, ScriptedPrompter, reply

ADOC_PATH = "rfd/0001/README.adoc"
MIGRATION = (Path(__file__).parent / "data" / "asciidoc" / "instance-migration.adoc").read_text(
    encoding="utf-8"
)
"""Attributes with ``:authors:``, anchors, a NOTE, listing blocks holding ``== `` lines, a
commented-out section, a table, a WARNING example block, ``[discrete]`` titles."""
SECTIONS = "`Background`, `Determinations`, `Implementation Plan`, `Open Questions`"


def adoc_repo(root: Path, text: str = MIGRATION) -> Repo:
    return make_repo(root, rfd=text, path=ADOC_PATH, rfd_id="0001", title="Instance Migration")


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return adoc_repo(tmp_path)


def call(repo: Repo, name: str, **args: Any) -> str:
    tool = ALL_TOOLS[name]
    return tool.handler(repo.tool_context(), check_arguments(tool, args))


def with_body(text: str, title: str, following: str, body: str) -> str:
    """``text`` with the body between ``title``'s line and ``following`` set to ``body``."""
    head, rest = text.split(title, 1)
    return head + title + body + following + rest.split(following, 1)[1]


NEW_DETERMINATIONS = """The migration source drives the protocol.

=== Timeout

A migration that has not finished after 30 s is cancelled:

[source,toml]
----
== not a title: a listing block's line
timeout = "30s"
----
"""


def test_a_section_is_replaced_and_every_other_byte_kept(repo: Repo) -> None:
    out = call(repo, "rfd_section", section="determinations", content=NEW_DETERMINATIONS)
    assert out == f"replaced section `determinations` of {ADOC_PATH}"
    body = "\n" + NEW_DETERMINATIONS + "\n"
    expected = with_body(MIGRATION, "== Determinations\n", "[[implementation-plan]]\n", body)
    assert repo.rfd.read_text(encoding="utf-8") == expected
    doc = document.parse(expected, ADOC_PATH)
    assert [s.title for s in doc.sections if s.level == 2] == SECTIONS.replace("`", "").split(", ")


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_line_endings_and_a_missing_last_newline_are_kept(tmp_path: Path, eol: str) -> None:
    text = MIGRATION.rstrip("\n").replace("\n", eol)
    repo = adoc_repo(tmp_path, text)
    call(repo, "rfd_section", section="Open Questions", content="* [x] No pause.\n")
    expected = text.replace("* [ ] Do we pause the guest during the final copy?", "* [x] No pause.")
    assert repo.rfd.read_bytes() == expected.encode()
    call(repo, "rfd_section", section="Background", content="Short.")
    head, rest = expected.split(f"== Background{eol}", 1)
    tail = rest[rest.index("[[determinations]]") :]
    assert repo.rfd.read_bytes() == f"{head}== Background{eol}{eol}Short.{eol}{eol}{tail}".encode()


def test_a_title_the_content_repeats_is_not_written_twice(repo: Repo) -> None:
    content = "[[background]]\n== Background\n\nLive migration, briefly.\n"
    call(repo, "rfd_section", section="== Background", content=content)
    text = repo.rfd.read_text(encoding="utf-8")
    assert text.count("[[background]]") == 1 and text.count("== Background") == 1
    assert "[[background]]\n== Background\n\nLive migration, briefly.\n\n[[determinations]]" in text


def test_a_new_section_goes_after_the_one_named_and_is_an_asciidoc_title(repo: Repo) -> None:
    out = call(
        repo,
        "rfd_section",
        section="Alternatives",
        content="Cold migration.",
        new=True,
        after="Background",
    )
    assert out == f"added section `Alternatives` to {ADOC_PATH}"
    expected = MIGRATION.replace(
        "[[determinations]]\n", "== Alternatives\n\nCold migration.\n\n[[determinations]]\n"
    )
    assert repo.rfd.read_text(encoding="utf-8") == expected


def test_a_new_section_without_after_ends_the_document(repo: Repo) -> None:
    call(repo, "rfd_section", section="Security", content="Only Nexus starts one.", new=True)
    text = repo.rfd.read_text(encoding="utf-8")
    assert text == MIGRATION + "\n== Security\n\nOnly Nexus starts one.\n"
    assert "## " not in text


def test_a_missing_section_is_named_with_the_real_ones(repo: Repo) -> None:
    with pytest.raises(ValidationError) as refused:
        call(repo, "rfd_section", section="Alternatives", content="x")
    assert str(refused.value).startswith(
        f"the RFD has no section `Alternatives` (its sections: {SECTIONS})"
    )
    with pytest.raises(ValidationError) as refused:
        call(repo, "rfd_section", section="Alternatives", content="x", new=True, after="Goals")
    assert f"no section `Goals` to add a section after (the sections: {SECTIONS})" in str(
        refused.value
    )
    assert repo.rfd.read_text(encoding="utf-8") == MIGRATION


@pytest.mark.parametrize(
    "title",
    [
        "Not a section: this line is inside a listing block",  # in a ---- block
        "not a section",  # a table cell
        "Phase 7: not a phase, inside an example block",  # in a ==== block
    ],
)
def test_a_title_inside_a_delimited_block_is_no_section(repo: Repo, title: str) -> None:
    with pytest.raises(ValidationError, match=f"no section `{title}`"):
        call(repo, "rfd_section", section=title, content="x")
    assert repo.rfd.read_text(encoding="utf-8") == MIGRATION


@pytest.mark.parametrize(
    ("content", "message", "hint"),
    [
        ("Why.\n\n== Goals\n\nX.\n", "holds the heading `== Goals` (line 3", "use === or deeper"),
        ("Why.\n\n### Details\n", "holds the Markdown heading `### Details`", "`=== Title`"),
        ("Why.\n\n----\nopen listing\n", "would hide the sections after it", "----"),
        ("Why.\n\n////\nopen comment\n", "would hide the sections after it", "(////)"),
    ],
)
def test_content_that_would_break_the_outline_is_refused(
    repo: Repo, content: str, message: str, hint: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        call(repo, "rfd_section", section="Background", content=content)
    assert message in str(refused.value) and hint in (refused.value.hint or "")
    assert repo.rfd.read_text(encoding="utf-8") == MIGRATION


SKELETON = """:showtitle:
:state: prediscussion
:authors: Ada Lovelace <ada@example.com>

= RFD 2 Fleet Traces

[[background]]
== Background

== Determinations
"""


def test_draft_lays_out_an_asciidoc_skeleton_in_asciidoc(tmp_path: Path) -> None:
    repo = adoc_repo(tmp_path, SKELETON)
    with pytest.raises(ValidationError, match="no `==` section headings") as refused:
        call(repo, "rfd_draft", content="## Goals\n\n## Design\n")
    assert (
        refused.value.hint
        == "send the section headings (e.g. '== Summary'), each with its text or empty"
    )
    assert repo.rfd.read_text(encoding="utf-8") == SKELETON
    content = "= RFD 2 Fleet Traces\n\n[[goals]]\n== Goals\n\n== Design\n\nOne collector.\n"
    out = call(repo, "rfd_draft", content=content)
    header = SKELETON.split("[[background]]")[0]
    assert repo.rfd.read_text(encoding="utf-8") == (
        header + "[[goals]]\n== Goals\n\n== Design\n\nOne collector.\n"
    )
    assert "laid out its sections: Goals, Design" in out


def test_removing_an_attribute_removes_its_line_only() -> None:
    assert document.remove_field(MIGRATION, "labels") == MIGRATION.replace(
        ":labels: control-plane, storage\n", ""
    )
    assert document.remove_field(MIGRATION, "Superseded by") == MIGRATION


def test_the_model_edits_an_asciidoc_rfd_through_draft(repo: Repo) -> None:
    """Draft in ask mode, the real prompts: the task says AsciiDoc, the model's
    rfd_section call lands in the file as AsciiDoc."""
    repo.store.decide("0001", "add", text="The source drives the protocol", status="locked")
    write = ("rfd_section", {"section": "Open Questions", "content": "* [x] Pause: no."})
    prompter = ScriptedPrompter(approvals=["y"], answers=["go ahead", None])
    llm = ScriptedLLM([reply("Next: Open Questions, settled."), reply("", write), reply("Done.")])
    session, _ = repo.session(llm, mode=Mode.ASK, prompter=prompter)
    draft(session)
    task = llm.requests[0].messages[-1].text
    assert "The RFD is written in AsciiDoc" in task and "`=== Title`" in task
    assert prompter.shown[0][0] == "rfd_section"
    assert "+* [x] Pause: no." in prompter.shown[0][1].splitlines()  # the diff asked about
    expected = MIGRATION.replace(
        "* [ ] Do we pause the guest during the final copy?", "* [x] Pause: no."
    )
    assert repo.rfd.read_text(encoding="utf-8") == expected


def test_refine_revises_an_asciidoc_rfd_section_by_section(repo: Repo) -> None:
    sections = [
        {"section": "Background", "content": "Live migration moves a running instance."},
        {"section": "Security", "content": "Only Nexus may start a migration."},
    ]
    revision = reply("", ("submit_revision", {"sections": sections, "notes": "clearer"}))
    llm = ScriptedLLM([revision, reply("CONVERGED\nDone.")])
    session, _ = repo.session(llm)
    result = refine(session)
    assert result.passes[0].changed_sections == ("Background", "Security")
    assert "The RFD is written in AsciiDoc" in llm.requests[0].messages[-1].text
    expected = with_body(
        MIGRATION,
        "== Background\n",
        "[[determinations]]",
        "\nLive migration moves a running instance.\n\n",
    )
    expected += "\n== Security\n\nOnly Nexus may start a migration.\n"
    assert repo.rfd.read_text(encoding="utf-8") == expected


def test_a_markdown_section_the_model_sends_is_not_written_and_the_user_is_told(
    repo: Repo,
) -> None:
    sections = [{"section": "Background", "content": "Why.\n\n### Details\n\nMore."}]
    revision = reply("", ("submit_revision", {"sections": sections, "notes": "more detail"}))
    llm = ScriptedLLM([revision, reply("CONVERGED\nDone.")])
    session, seen = repo.session(llm)
    refine(session)
    warnings = [e.message for e in seen if isinstance(e, Notice)]
    assert warnings == [
        "section `Background` not applied: the content of `Background` holds the Markdown "
        f"heading `### Details` (line 3 of it), and `{ADOC_PATH}` is AsciiDoc\n"
        "  hint: write the RFD's own syntax: a subsection title is `=== Title`"
    ]
    assert repo.rfd.read_text(encoding="utf-8") == MIGRATION
