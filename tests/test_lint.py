from __future__ import annotations

import pytest

from bot import templates
from bot.config.discovery import RfdFile
from bot.lifecycle.lint import Finding, LintSettings, Severity, lint_document, lint_text
from bot.model.document import parse, parse_links
from bot.model.ids import RfdId
from bot.model.status import Status

ID = RfdId.parse

KNOWN = {ID("001"): Status.ACCEPTED, ID("002"): Status.IMPLEMENTED, ID("D9"): Status.DRAFT}

SECTIONS = "".join(
    f"## {title}\n\nWritten.\n\n" for title in templates.required_sections("decision")
)


def rfd(
    header: str = "", *, rfd_id: str = "045", status: str = "Discussion", body: str = SECTIONS
) -> str:
    fields = f"- **Status**: {status}\n- **Category**: Decision\n- **Authors**: Ada\n"
    return f"# RFD {rfd_id}: Title\n\n{fields}- **Date**: 2026-01-31\n{header}\n{body}"


def codes(text: str, file: RfdFile | None = None) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in lint_text(text, "docs/rfd/x.md", known=KNOWN, file=file)]


def test_a_complete_rfd_is_clean() -> None:
    assert codes(rfd("- **Requires**: [RFD 001], [RFD 002]\n")) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [("RFD000", 1)]),
        ("prose\n", [("RFD000", 1)]),
        ("# RFD 1: T\n\n- **Date**: x\n", [("RFD001", 1)]),
        ("# RFD 1: T\n\n- **Status**: Approved\n", [("RFD002", 3)]),
    ],
)
def test_unparsable_documents_give_one_finding(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text) == expected


def test_missing_fields() -> None:
    text = "# RFD 045: T\n\n- **Status**: Draft\n- **Authors**:\n\n" + SECTIONS
    found = lint_text(text, "x.md", known=KNOWN)
    assert [(f.code, f.line) for f in found] == [("RFD001", 4)] * 3
    assert [f.message for f in found] == [
        "header field 'Category' is missing or empty",
        "header field 'Authors' is missing or empty",
        "header field 'Date' is missing or empty",
    ]
    assert "- **Category**: Design" in found[0].hint


@pytest.mark.parametrize(
    ("name", "ok"),
    [("045-title.md", True), ("046-title.md", False), ("D45-title.md", False)],
)
def test_heading_id_matches_file_name(name: str, ok: bool) -> None:
    rfd_id, slug = name.split("-", 1)
    file = RfdFile(ID(rfd_id), slug, f"docs/rfd/{name}")
    assert codes(rfd(), file) == ([] if ok else [("RFD003", 1)])


def test_heading_without_id() -> None:
    text = rfd().replace("# RFD 045: Title", "# Title")
    [finding] = lint_text(text, "x.md", known=KNOWN, file=RfdFile(ID("045"), "t", "045-t.md"))
    assert finding.message == "heading says no RFD id but the file name says RFD 045"
    assert "# RFD 045: Title" in finding.hint


@pytest.mark.parametrize(
    ("date", "ok"),
    [("2026-01-31", True), ("2026-02-30", False), ("31/01/2026", False), ("20260131", False)],
)
def test_date(date: str, ok: bool) -> None:
    assert codes(rfd().replace("2026-01-31", date)) == ([] if ok else [("RFD004", 6)])


def test_unknown_category() -> None:
    [finding] = lint_text(rfd().replace("Decision", "Essay"), "x.md", known=KNOWN)
    assert (finding.code, finding.line) == ("RFD005", 4)
    assert "Design, Decision, Guide, Process" in finding.hint


@pytest.mark.parametrize(
    ("header", "rfd_id", "expected"),
    [
        ("- **Requires**: [RFD 003]\n", "045", [("RFD008", 7)]),
        ("- **Extends**: RFD 001, RFD 404\n", "045", [("RFD008", 7)]),
        ("- **Requires**: [RFD D9]\n", "045", [("RFD009", 7)]),
        ("- **Requires**: [RFD D9]\n", "D3", []),
        ("- **Supersedes**: [RFD D8]\n", "D3", [("RFD008", 7)]),
    ],
)
def test_links(header: str, rfd_id: str, expected: list[tuple[str, int]]) -> None:
    assert codes(rfd(header, rfd_id=rfd_id)) == expected


def test_draft_mentioned_in_the_text_of_a_published_rfd_is_a_warning() -> None:
    body = SECTIONS + "See RFD D9.\n\n```\nrfd status D9 and RFD D9\n```\n"
    [finding] = lint_text(rfd(body=body), "x.md", known=KNOWN)
    assert (finding.code, finding.severity) == ("RFD017", Severity.WARNING)
    assert finding.line == rfd(body=body).splitlines().index("See RFD D9.") + 1


def test_duplicate_field() -> None:
    assert codes(rfd("- **Category**: Decision\n")) == [("RFD010", 7)]


def test_superseded_needs_superseded_by() -> None:
    assert codes(rfd(status="Superseded")) == [("RFD011", 3)]
    assert codes(rfd("- **Superseded by**: [RFD 002]\n", status="Superseded")) == []


def test_no_section_is_required_unless_configured() -> None:
    assert codes(rfd(body="## Context\n\n<!-- TODO: x -->\n")) == []


DECISION = LintSettings(required_sections={"decision": templates.required_sections("decision")})


def test_missing_and_placeholder_sections() -> None:
    body = "## Summary\n\nWritten.\n\n## Context\n\n<!-- TODO: x -->\n\n## Decision\n\n"
    found = lint_text(rfd(body=body), "x.md", known=KNOWN, settings=DECISION)
    assert [(f.code, f.section, f.severity) for f in found] == [
        ("RFD006", "Options Considered", Severity.ERROR),
        ("RFD006", "Consequences", Severity.ERROR),
        ("RFD007", "Context", Severity.ERROR),
        ("RFD007", "Decision", Severity.ERROR),
    ]
    assert found[2].line == 12


def test_a_fresh_template_only_warns_about_placeholders() -> None:
    text = templates.render("design", "D1", "New idea", "Ada", "2026-01-31")
    design = LintSettings(required_sections={"design": templates.required_sections("design")})
    found = lint_text(text, "docs/rfd/D1-new-idea.md", known=KNOWN, settings=design)
    assert {f.code for f in found} == {"RFD007"}
    assert {f.severity for f in found} == {Severity.WARNING}
    assert len(found) == len(templates.required_sections("design"))


def test_findings_print_like_compiler_errors() -> None:
    finding = Finding("docs/rfd/x.md", 4, "RFD004", "date 'x' is not YYYY-MM-DD", "write it")
    assert (
        str(finding)
        == "docs/rfd/x.md:4: RFD004 error: date 'x' is not YYYY-MM-DD\n  hint: write it"
    )


def test_lint_document_takes_a_parsed_document() -> None:
    doc = parse(rfd(), "docs/rfd/045-t.md")
    assert lint_document(doc, known=KNOWN) == []


class Corpus:
    """The other RFDs' header links by id, and the files that exist."""

    def __init__(self, links: dict[str, dict[str, str]], files: tuple[str, ...] = ()) -> None:
        self._links = {ID(i): {k: parse_links(v) for k, v in f.items()} for i, f in links.items()}
        self._files = files

    def links(self, rfd_id: RfdId, key: str) -> tuple[RfdId, ...] | None:
        found = self._links.get(rfd_id)
        return None if found is None else found.get(key, ())

    def exists(self, path: str) -> bool:
        return path in self._files


def graph_codes(text: str, corpus: Corpus) -> list[tuple[str, int | None, str]]:
    file = RfdFile(ID("045"), "t", "docs/rfd/045-t.md")
    found = lint_text(text, file.path, known=KNOWN, file=file, corpus=corpus)
    return [(f.code, f.line, f.message) for f in found]


def test_status_must_be_written_exactly() -> None:
    [finding] = lint_text(rfd(status="accepted"), "x.md", known=KNOWN)
    assert (finding.code, finding.line) == ("RFD013", 3)
    assert finding.hint == "write it exactly as - **Status**: Accepted"
    assert codes(rfd(status="Accepted (2024-05-01)")) == []


@pytest.mark.parametrize(
    ("header", "others", "expected"),
    [
        (
            "- **Requires**: [RFD 001]\n",
            {"001": {"Extends": "RFD 045"}},
            "Requires RFD 001 leads back to this RFD: RFD 045 → RFD 001 → RFD 045",
        ),
        (
            "- **Extends**: [RFD 001]\n",
            {"001": {"Requires": "002"}, "002": {"Extends": "045"}},
            "Extends RFD 001 leads back to this RFD: RFD 045 → RFD 001 → RFD 002 → RFD 045",
        ),
        (
            "- **Requires**: [RFD 001]\n",
            {"001": {"Requires": "002"}, "002": {"Requires": "001"}},
            None,
        ),  # a cycle elsewhere is reported on its own members
    ],
)
def test_cycles_in_requires_and_extends(
    header: str, others: dict[str, dict[str, str]], expected: str | None
) -> None:
    found = graph_codes(rfd(header), Corpus(others))
    assert found == ([("RFD012", 7, expected)] if expected else [])


@pytest.mark.parametrize(
    ("header", "others", "expected"),
    [
        ("- **Extended by**: [RFD 001]\n", {"001": {"Extends": "RFD 045"}}, None),
        (
            "- **Extended by**: [RFD 001]\n",
            {"001": {"Extends": "RFD 002"}},
            "Extended by: RFD 001, whose Extends does not name RFD 045",
        ),
        ("- **Required by**: [RFD 003]\n", {}, "Required by: RFD 003 does not exist"),
    ],
)
def test_back_links_must_be_returned(
    header: str, others: dict[str, dict[str, str]], expected: str | None
) -> None:
    found = graph_codes(rfd(header), Corpus(others))
    assert found == ([("RFD014", 7, expected)] if expected else [])


def test_reference_link_definitions_must_point_to_a_file() -> None:
    body = SECTIONS + (
        "See [RFD 001] and [RFD 002].\n\n"
        "[RFD 001]: ./001-first.md#context\n"
        "[RFD 002]: 002-gone.md\n"
        "[site]: https://example.com/x.md\n"
        "[up]: ../../README.md\n"
        "```\n[code]: nowhere.md\n```\n"
    )
    text = rfd(body=body)
    found = graph_codes(text, Corpus({}, ("docs/rfd/001-first.md", "README.md")))
    line = text.splitlines().index("[RFD 002]: 002-gone.md") + 1
    assert found == [("RFD015", line, "link [RFD 002] points to 002-gone.md, which does not exist")]


def test_severity_is_configured_per_code() -> None:
    text = rfd("- **Requires**: [RFD 003]\n", status="accepted")
    warn = LintSettings(severity={"RFD008": "warning", "RFD013": "off"})
    found = lint_text(text, "x.md", known=KNOWN, settings=warn)
    assert [(f.code, f.severity) for f in found] == [("RFD008", Severity.WARNING)]


def test_a_second_title_and_a_repeated_section_are_flagged() -> None:
    body = SECTIONS + "# RFD 099: Injected\n\n## summary\n\nAgain.\n\n```\n# not a title\n```\n"
    text = rfd(body=body)
    lines = text.splitlines()
    assert codes(text) == [
        ("RFD018", lines.index("# RFD 099: Injected") + 1),
        ("RFD018", lines.index("## summary") + 1),
    ]
    found = lint_text(text, "x.md", known=KNOWN)
    assert found[0].message == "a second title '# RFD 099: Injected'"
    assert found[1].message == "section 'summary' is given twice (only the first one counts)"


def test_an_asciidoc_rfd_is_linted_on_its_own_sections_with_their_lines() -> None:
    text = (
        ":state: discussion\n:authors: Ada <ada@example.com>\n\n= RFD 12 Title\n\n"
        "== Background\n\nWhy.\n\n[source,asciidoc]\n----\n= RFD 99 in a listing\n"
        "== Background\n----\n\n= RFD 99 Injected\n\n[[again]]\n== background\n\nAgain.\n"
    )
    found = lint_text(text, "rfd/0012/README.adoc", known=KNOWN)
    assert [str(f).splitlines()[0] for f in found] == [
        "rfd/0012/README.adoc:16: RFD018 error: a second title '= RFD 99 Injected'",
        "rfd/0012/README.adoc:19: RFD018 error: section 'background' is given twice (only the "
        "first one counts)",
    ]
    assert "make this a '==' section or remove it" in str(found[0])
