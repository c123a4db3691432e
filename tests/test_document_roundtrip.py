"""Property tests: parsing never crashes, edits change only the bytes they mean to."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.errors import RfdError
from bot.model.document import (
    Document,
    parse,
    remove_field,
    replace_section,
    set_field,
    set_status,
)
from bot.model.markdown import ending
from bot.model.status import Status

# database=None: no .hypothesis directory in the worktree (pytest would warn about it).
SETTINGS = settings(
    max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

WORDS = (
    st.text(
        alphabet=st.characters(
            codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="*:"
        ),
        min_size=1,
        max_size=12,
    )
    .map(str.strip)
    .filter(bool)
)
# Text lines that cannot open a heading, list item, fence or comment.
PLAIN = st.builds(
    lambda w: "w " + w,
    st.text(st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30),
)
SUBHEADING = WORDS.map(lambda w: "### " + w)
CODE = st.lists(st.sampled_from(["## in code", "# in code", "plain"]), max_size=3).map(
    lambda xs: ["```", *xs, "```"]
)
BODY = st.lists(
    st.one_of(PLAIN.map(lambda x: [x]), SUBHEADING.map(lambda x: [x]), CODE, st.just([""])),
    max_size=6,
).map(lambda chunks: [line for chunk in chunks for line in chunk])
KEYS = st.lists(WORDS, min_size=0, max_size=5, unique_by=lambda k: " ".join(k.split()).casefold())


@dataclass(frozen=True)
class Built:
    text: str
    eol: str
    keys: list[str]
    titles: list[str]


@st.composite
def documents(draw: st.DrawFn) -> Built:
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    status = draw(st.sampled_from(list(Status)))
    keys = [k for k in draw(KEYS) if k.casefold() != "status"]
    fields = [f"- **{k}**: {draw(WORDS)}" for k in keys]
    fields.insert(draw(st.integers(0, len(fields))), f"- **Status**: {status.value}")
    titles = draw(st.lists(WORDS, max_size=4, unique_by=lambda t: " ".join(t.split()).casefold()))
    lines = draw(st.sampled_from([[], ["<!-- note -->", ""]]))
    lines += [f"# RFD {draw(st.integers(0, 999)):03d}: {draw(WORDS)}", "", *fields]
    for title in titles:
        lines += ["", f"## {title}", "", *draw(BODY)]
    text = eol.join(lines) + (eol if draw(st.booleans()) else "")
    return Built(text, eol, ["Status", *keys], titles)


def offsets(doc: Document, first: int, last: int) -> tuple[int, int]:
    """Character offsets of 0-based lines [first, last) of the document."""
    start = len("".join(doc.lines[:first]))
    return start, start + len("".join(doc.lines[first:last]))


def assert_only_changed(old: str, new: str, start: int, end: int) -> None:
    assert new[:start] == old[:start]
    assert new[len(new) - (len(old) - end) :] == old[end:]


@SETTINGS
@given(st.lists(st.sampled_from([*"# -*:`~<!>\r\nRFD045Dstatu", "Status", "Draft"])).map("".join))
def test_parse_never_crashes(text: str) -> None:
    try:
        doc = parse(text, "x.md")
    except RfdError as err:
        assert err.path == "x.md"
    else:
        assert isinstance(doc.status, Status)


@SETTINGS
@given(st.text(max_size=300))
def test_parse_never_crashes_on_any_text(text: str) -> None:
    with contextlib.suppress(RfdError):
        parse(text, "x.md")


@SETTINGS
@given(documents())
def test_generated_documents_parse(built: Built) -> None:
    doc = parse(built.text, "x.md")
    assert {f.key for f in doc.fields} == set(built.keys)
    assert [s.title for s in doc.sections if s.level == 2] == built.titles


@SETTINGS
@given(documents(), WORDS, st.data())
def test_set_field_changes_only_that_field(built: Built, value: str, data: st.DataObject) -> None:
    doc = parse(built.text, "x.md")
    key = data.draw(st.sampled_from(built.keys))
    value = "Accepted" if key == "Status" else value
    field = next(f for f in doc.fields if f.key == key)
    new = set_field(built.text, key, value)
    start, end = offsets(doc, field.index, field.index + field.span)
    assert_only_changed(built.text, new, start, end)
    assert parse(new, "x.md").field(key) == value


@SETTINGS
@given(documents(), st.sampled_from(list(Status)))
def test_set_status_changes_only_the_status_line(built: Built, status: Status) -> None:
    doc = parse(built.text, "x.md")
    field = next(f for f in doc.fields if f.key == "Status")
    new = set_status(built.text, status)
    assert_only_changed(built.text, new, *offsets(doc, field.index, field.index + 1))
    assert parse(new, "x.md").status is status


@SETTINGS
@given(documents(), WORDS)
def test_adding_a_field_inserts_after_the_last_one(built: Built, value: str) -> None:
    doc = parse(built.text, "x.md")
    last = doc.fields[-1]
    new = set_field(built.text, "Brand New Key", value)
    _, end = offsets(doc, 0, last.index + last.span)
    point = end - len(ending(doc.lines[last.index + last.span - 1]))
    assert_only_changed(built.text, new, point, point)
    assert parse(new, "x.md").field("brand new key") == value
    assert remove_field(new, "Brand New Key") == built.text


@SETTINGS
@given(documents(), BODY, st.data())
def test_replace_section_changes_only_its_body(
    built: Built, body: list[str], data: st.DataObject
) -> None:
    if not built.titles:
        return
    doc = parse(built.text, "x.md")
    title = data.draw(st.sampled_from(built.titles))
    section = doc.section(title)
    assert section is not None
    new = replace_section(built.text, title, "\n".join(body))
    start, end = offsets(doc, section.start, section.end)
    start -= len(ending(doc.lines[section.start - 1]))  # the heading's ending may be added
    assert_only_changed(built.text, new, start, end)
    assert normalized(parse(new, "x.md").section_body(title)) == normalized("\n".join(body))
    for other in built.titles:
        if other != title:
            assert parse(new, "x.md").section_body(other) == doc.section_body(other)


@SETTINGS
@given(documents(), BODY)
def test_replace_missing_section_appends(built: Built, body: list[str]) -> None:
    new = replace_section(built.text, "Zz Appendix Zz", "\n".join(body))
    assert new.startswith(built.text)
    assert normalized(parse(new, "x.md").section_body("Zz Appendix Zz")) == normalized(
        "\n".join(body)
    )
    assert new.endswith(built.eol) == built.text.endswith(built.eol)


def normalized(text: str | None) -> str:
    return "\n".join(line.rstrip("\r") for line in (text or "").split("\n")).strip()
