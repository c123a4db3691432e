"""The header in each corpus's own form: YAML front matter, AsciiDoc attributes, field lists."""

from __future__ import annotations

import difflib

import pytest

from bot.core.errors import InvalidStructure, ParseError
from bot.model.document import parse, remove_field, set_field, set_status
from bot.model.status import Status

OXIDE = """---
authors: Ada Lovelace <ada@example.com>, Grace Hopper <grace@example.com>
state: "discussion"   # moved on 2021-03-02
discussion: https://github.com/acme/rfd/pull/12
labels:
  - api
  - storage
---

# RFD 12 Layered storage

## Background
text
"""

ADOC = """:showtitle:
:toc: left
:numbered:
:state: published
:discussion: https://github.com/acme/rfd/pull/2
:authors: Jess <jess@example.com>

= RFD 1 Requests for Discussion

== Introduction
"""

RFC = """---
stage: accepted
start-date: 2022-01-05T00:00:00.000Z
release-date: # fill in when released
teams:
  - cli
  - framework
prs:
  accepted: https://github.com/acme/rfcs/pull/800
project-link:
---

<!---
Directions for the template
-->

# TypeScript adoption plan
"""


def changed_lines(old: str, new: str) -> list[str]:
    diff = difflib.unified_diff(old.splitlines(True), new.splitlines(True), n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++")]


def test_oxide_front_matter_reads_id_title_state_authors_and_lists() -> None:
    doc = parse(OXIDE, "rfd/0012/README.md")
    assert (str(doc.rfd_id), doc.title, doc.form) == ("0012", "Layered storage", "yaml")
    assert (doc.status, doc.status_word) == (Status.DISCUSSION, "discussion")
    assert doc.authors == ("Ada Lovelace <ada@example.com>", "Grace Hopper <grace@example.com>")
    assert doc.field("labels") == "api, storage"
    assert [s.title for s in doc.sections] == ["Background"]


def test_asciidoc_attributes_read_state_and_title() -> None:
    doc = parse(ADOC, "rfd/0001/README.adoc")
    assert (str(doc.rfd_id), doc.title, doc.form) == ("0001", "Requests for Discussion", "adoc")
    assert (doc.status, doc.status_word, doc.authors) == (
        Status.ACCEPTED,
        "published",
        ("Jess <jess@example.com>",),
    )


def test_rfc_stage_without_heading_id_takes_the_number_from_the_file_name() -> None:
    doc = parse(RFC, "text/0800-typescript-adoption.md")
    assert (str(doc.rfd_id), doc.heading_id, doc.title) == (
        "0800",
        None,
        "TypeScript adoption plan",
    )
    assert (doc.status, doc.status_word) == (Status.ACCEPTED, "accepted")
    assert doc.field("prs") == "accepted: https://github.com/acme/rfcs/pull/800"


@pytest.mark.parametrize(
    ("text", "path", "stage", "expected"),
    [
        (
            OXIDE,
            "rfd/0012/README.md",
            Status.ACCEPTED,
            [
                '-state: "discussion"   # moved on 2021-03-02\n',
                '+state: "published"   # moved on 2021-03-02\n',
            ],
        ),
        (
            ADOC,
            "rfd/0001/README.adoc",
            Status.IMPLEMENTED,
            ["-:state: published\n", "+:state: committed\n"],
        ),
        (
            RFC,
            "text/0800-x.md",
            Status.IMPLEMENTED,
            ["-stage: accepted\n", "+stage: ready-for-release\n"],
        ),
    ],
)
def test_a_state_change_is_one_line_in_the_repositorys_words(
    text: str, path: str, stage: Status, expected: list[str]
) -> None:
    new = set_status(text, stage)
    assert changed_lines(text, new) == expected
    assert parse(new, path).status is stage


def test_a_new_front_matter_key_is_one_added_line_and_the_rest_is_kept() -> None:
    new = set_field(RFC, "Tracking Issue", "#4")
    assert changed_lines(RFC, new) == ['+tracking-issue: "#4"\n']
    assert parse(new, "text/0800-x.md").tracking_issue == 4


def test_replacing_a_list_rewrites_only_that_key() -> None:
    new = set_field(RFC, "teams", "cli")
    assert changed_lines(RFC, new) == [
        "-teams:\n",
        "-  - cli\n",
        "-  - framework\n",
        "+teams: cli\n",
    ]
    assert "start-date: 2022-01-05T00:00:00.000Z\n" in new  # no re-emitted date


def test_removing_a_front_matter_key() -> None:
    new = remove_field(OXIDE, "discussion")
    assert changed_lines(OXIDE, new) == ["-discussion: https://github.com/acme/rfd/pull/12\n"]


def test_front_matter_without_a_state_key_is_a_clear_error_when_nothing_else_says_it() -> None:
    with pytest.raises(InvalidStructure, match="no state in the front matter") as err:
        parse("---\nauthors: x\n---\n\n# RFD 3 Title\n", "rfd/0003/README.md")
    assert "state: draft" in (err.value.hint or "")


def test_broken_yaml_names_the_line() -> None:
    with pytest.raises(ParseError) as err:
        parse("---\nstate: draft\nlabels: [a, b\n---\n# RFD 3 T\n", "rfd/0003/README.md")
    assert err.value.path == "rfd/0003/README.md"
    assert err.value.line is not None and err.value.line >= 3


def test_an_unknown_word_names_the_statuses_table() -> None:
    with pytest.raises(ParseError, match="unknown status 'pondering'") as err:
        parse("---\nstate: pondering\n---\n# RFD 3 T\n", "rfd/0003/README.md")
    assert "[statuses]" in (err.value.hint or "")


def test_the_repositorys_table_decides_what_a_shared_word_means() -> None:
    from bot.model.status import use

    joyent = "---\nstate: draft\n---\n\n# RFD 3 Title\n"
    assert parse(joyent, "rfd/0003/README.md").status is Status.DRAFT
    use({"predraft": "draft", "draft": "discussion", "publish": "accepted"})
    try:
        assert parse(joyent, "rfd/0003/README.md").status is Status.DISCUSSION
        assert changed_lines(joyent, set_status(joyent, Status.ACCEPTED)) == [
            "-state: draft\n",
            "+state: publish\n",
        ]
    finally:
        use({})


def test_a_field_list_keeps_rfds_words() -> None:
    text = "# RFD 045: T\n\n- **Status**: Discussion\n"
    assert set_status(text, Status.ACCEPTED) == "# RFD 045: T\n\n- **Status**: Accepted\n"
