"""Edits in the repository's style: link fields and the abandon notice."""

from __future__ import annotations

import pytest

from bot.config.discovery import RfdFile
from bot.config.load import ConventionsSection
from bot.lifecycle import style
from bot.model import document
from bot.model.ids import RfdId

RFD = (
    "# RFD 028: Plugins\n\n- **Status**: Accepted\n- **Date**: 2025-04-07\n\n## Summary\n\nText.\n"
)
NEW = RfdFile(RfdId(draft=True, number=18, digits=2), "events", "docs/rfd/drafts/D18-events.md")
REFERENCE = ConventionsSection(link_style="reference")
NOTICE = ConventionsSection(abandon_notice="> [!CAUTION]\n> **Abandoned.** {reason}")


def test_reference_style_writes_a_label_and_one_definition() -> None:
    text = style.set_link_field(RFD, "docs/rfd/028-plugins.md", "Superseded by", NEW, REFERENCE)
    assert "- **Superseded by**: [RFD D18]\n" in text
    assert text.endswith("Text.\n\n[RFD D18]: ./drafts/D18-events.md\n")
    again = style.set_link_field(text, "docs/rfd/028-plugins.md", "Superseded by", NEW, REFERENCE)
    assert again == text


def test_a_definition_joins_the_definitions_already_at_the_end() -> None:
    text = RFD + "\n[RFD 001]: ./001-process.md\n"
    linked = style.set_link_field(text, "docs/rfd/028-plugins.md", "Extends", NEW, REFERENCE)
    assert linked.endswith("[RFD 001]: ./001-process.md\n[RFD D18]: ./drafts/D18-events.md\n")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("docs/rfd/028-plugins.md", "drafts/D18-events.md"),
        ("docs/rfd/drafts/D05-x.md", "D18-events.md"),
    ],
)
def test_inline_links_are_relative_to_the_file(source: str, expected: str) -> None:
    text = style.set_link_field(RFD, source, "Supersedes", NEW, ConventionsSection())
    assert f"- **Supersedes**: [RFD D18]({expected})\n" in text


def test_the_abandon_notice_goes_under_the_header_in_the_repository_form() -> None:
    text = style.abandon(RFD, "docs/rfd/028-plugins.md", "Replaced by\nMCP.  ", NOTICE)
    assert (
        "- **Date**: 2025-04-07\n\n> [!CAUTION]\n> **Abandoned.** Replaced by MCP.\n\n## Summary"
        in text
    )
    assert "**Abandoned**:" not in text


def test_without_a_notice_form_the_reason_is_a_header_field() -> None:
    text = style.abandon(RFD, "docs/rfd/028-plugins.md", "Replaced by MCP.", ConventionsSection())
    assert "- **Abandoned**: Replaced by MCP.\n" in text and "> " not in text


def test_a_back_link_joins_the_ones_listed_once() -> None:
    text = RFD.replace("- **Date**", "- **Extended by**: [RFD 012]\n- **Date**")
    linked = style.add_back_link(text, "docs/rfd/028-plugins.md", "Extended by", NEW, REFERENCE)
    assert "- **Extended by**: [RFD 012], [RFD D18]\n" in linked
    again = style.add_back_link(linked, "docs/rfd/028-plugins.md", "Extended by", NEW, REFERENCE)
    assert again == linked


ADOC = ":state: published\n:authors: Ada\n\n= RFD 3 Old Way\n\n== Background\n\nWhy.\n"


def test_an_asciidoc_rfd_links_in_asciidoc_whatever_the_style() -> None:
    source = "rfd/0003/README.adoc"
    new = RfdFile(RfdId.published(12, 4), "", "rfd/0012/README.adoc")
    for conventions in (ConventionsSection(), REFERENCE):
        text = style.set_link_field(ADOC, source, "Superseded by", new, conventions)
        assert text == ADOC.replace(
            ":authors: Ada\n", ":authors: Ada\n:superseded-by: link:../0012/README.adoc[RFD 0012]\n"
        )
        assert document.parse(text, source).links("Superseded by") == (new.rfd_id,)
        linked = style.add_back_link(ADOC, source, "Extended by", new, conventions)
        again = style.add_back_link(linked, source, "Extended by", new, conventions)
        assert (
            again
            == linked
            == ADOC.replace(
                ":authors: Ada\n",
                ":authors: Ada\n:extended-by: link:../0012/README.adoc[RFD 0012]\n",
            )
        )


def test_the_abandon_notice_of_an_asciidoc_rfd_goes_under_its_title() -> None:
    source = "rfd/0003/README.adoc"
    text = style.abandon(ADOC.replace("\n\n==", "\n{authors}\n\n=="), source, "Moot.", NOTICE)
    assert text == (
        ":state: published\n:authors: Ada\n\n= RFD 3 Old Way\n{authors}\n\n"
        "> [!CAUTION]\n> **Abandoned.** Moot.\n\n== Background\n\nWhy.\n"
    )
    assert document.parse(text, source).title == "Old Way"
