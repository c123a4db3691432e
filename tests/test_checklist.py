from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.errors import ValidationError
from bot.model import checklist
from bot.model.checklist import Item, ItemStatus

PLAN = """\
# Plan
<!-- original_count: 3 -->

- [ ] 1. Parse the document
- [x] 2. Extract the plan
- [!] 3. Track progress [Failed: tests red]
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- [ ] 1. Title", (1, "Title", ItemStatus.PENDING, "")),
        ("- [x] 2. Title", (2, "Title", ItemStatus.DONE, "")),
        ("- [X] 2. Title", (2, "Title", ItemStatus.DONE, "")),
        ("* [x] 3. Starred", (3, "Starred", ItemStatus.DONE, "")),
        ("  -   [ ]   4.   Extra   spaces  ", (4, "Extra   spaces", ItemStatus.PENDING, "")),
        ("- [ ]7) Paren", (7, "Paren", ItemStatus.PENDING, "")),
        (
            "- [!] 3. Entity: Transport — x [Failed: boom]",
            (3, "Entity: Transport — x", ItemStatus.FAILED, "boom"),
        ),
        ("- [!] 3. No reason given", (3, "No reason given", ItemStatus.FAILED, "")),
        (
            "- [!] 3. A [Failed: a [nested] reason]",
            (3, "A", ItemStatus.FAILED, "a [nested] reason"),
        ),
    ],
)
def test_parse_tolerates_real_world_lines(line: str, expected: tuple[object, ...]) -> None:
    (item,) = checklist.parse(line).items
    assert (item.number, item.label, item.status, item.reason) == expected


@pytest.mark.parametrize(
    "line",
    ["- [ ] no number", "- [?] 1. Bad box", "1. Not a checkbox", "- [ ] 1.", "text - [ ] 1. x"],
)
def test_parse_ignores_non_items(line: str) -> None:
    assert checklist.parse(line).items == ()


def test_parse_reads_items_lines_and_count() -> None:
    parsed = checklist.parse(PLAN)
    assert parsed.original_count == 3
    assert [i.line for i in parsed.items] == [4, 5, 6]
    assert parsed.done == 1 and not parsed.all_done and parsed.cap == 6


def test_zero_items_is_all_done() -> None:
    parsed = checklist.parse("# Plan\n\nNothing actionable here.\n")
    assert parsed.items == () and parsed.all_done


def test_duplicate_and_non_sequential_numbers_are_accepted_in_order() -> None:
    parsed = checklist.parse("- [ ] 2. B\n- [ ] 2. B again\n- [ ] 9. C\n")
    assert [(i.number, i.label) for i in parsed.items] == [(2, "B"), (2, "B again"), (9, "C")]


@pytest.mark.parametrize(
    ("comment", "count"),
    [
        ("<!-- original_count: 4 -->", 4),
        ("<!--original_count:4-->", 4),
        ("<!-- original_count: four -->", None),
        ("<!-- original_count: -2 -->", None),
        ("<!-- original_count: 0 -->", None),
        ("<!-- original_count: -->", None),
        ("", None),
    ],
)
def test_original_count_missing_or_garbled_means_no_cap(comment: str, count: int | None) -> None:
    parsed = checklist.parse(f"{comment}\n- [ ] 1. A\n")
    assert parsed.original_count == count
    assert parsed.cap == (None if count is None else 2 * count)


def test_render_numbers_from_one_with_count() -> None:
    assert checklist.render(["A", "B  c\nd"]) == (
        "<!-- original_count: 2 -->\n- [ ] 1. A\n- [ ] 2. B c d\n"
    )
    assert checklist.render(["A"], original_count=False) == "- [ ] 1. A\n"


def test_render_refuses_empty_label() -> None:
    with pytest.raises(ValidationError, match="label"):
        checklist.render(["A", "  "])


@pytest.mark.parametrize(
    ("position", "status", "reason", "line"),
    [
        (0, ItemStatus.DONE, "", "- [x] 1. Parse the document"),
        (0, ItemStatus.FAILED, "no parser", "- [!] 1. Parse the document [Failed: no parser]"),
        (1, ItemStatus.PENDING, "", "- [ ] 2. Extract the plan"),
        (2, ItemStatus.FAILED, "still red", "- [!] 3. Track progress [Failed: still red]"),
        (2, ItemStatus.DONE, "", "- [x] 3. Track progress"),
        (2, ItemStatus.FAILED, "multi\nline", "- [!] 3. Track progress [Failed: multi line]"),
    ],
)
def test_mark_changes_one_line_keeping_number_and_label(
    position: int, status: ItemStatus, reason: str, line: str
) -> None:
    marked = checklist.mark(PLAN, position, status, reason)
    before, after = PLAN.splitlines(), marked.splitlines()
    changed = [n for n, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert after[3 + position] == line
    assert changed in ([], [3 + position])


def test_mark_keeps_bullet_spacing_and_crlf() -> None:
    text = "* [X]  7)  Seven\r\n* [ ] 8. Eight\r\n"
    assert checklist.mark(text, 1, ItemStatus.DONE) == "* [X]  7)  Seven\r\n* [x] 8. Eight\r\n"
    assert checklist.mark(text, 0, ItemStatus.PENDING).startswith("* [ ]  7)  Seven\r\n")


@pytest.mark.parametrize(
    ("position", "status", "reason", "message"),
    [
        (3, ItemStatus.DONE, "", "position 3 \\(3 items\\)"),
        (-1, ItemStatus.DONE, "", "position -1"),
        (0, ItemStatus.FAILED, " ", "reason is required"),
    ],
)
def test_mark_rejects_bad_parameters(
    position: int, status: ItemStatus, reason: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        checklist.mark(PLAN, position, status, reason)


def test_append_numbers_on_after_last_item() -> None:
    text = "<!-- original_count: 2 -->\n- [x] 1. A\n- [ ] 5. B\n\nNotes below.\n"
    new, dropped = checklist.append(text, ["C", "- [ ] 9. D"])
    assert dropped == []
    assert new == (
        "<!-- original_count: 2 -->\n- [x] 1. A\n- [ ] 5. B\n- [ ] 6. C\n- [ ] 7. D\n"
        "\nNotes below.\n"
    )


def test_append_drops_items_past_twice_the_original_count() -> None:
    text = checklist.render(["A", "B"])
    new, dropped = checklist.append(text, ["C", "D", "E", "F"])
    assert dropped == ["E", "F"]
    assert [i.label for i in checklist.parse(new).items] == ["A", "B", "C", "D"]
    again, dropped_again = checklist.append(new, ["G"])
    assert again == new and dropped_again == ["G"]


def test_append_without_count_is_uncapped() -> None:
    new, dropped = checklist.append("- [ ] 1. A", [str(n) for n in range(10)])
    assert dropped == [] and len(checklist.parse(new).items) == 11
    assert new.startswith("- [ ] 1. A\n- [ ] 2. 0\n")


def test_append_to_empty_checklist_starts_at_one() -> None:
    new, _ = checklist.append("# Plan\n", ["First"])
    assert new == "# Plan\n- [ ] 1. First\n"


def test_extract_new_items_finds_unchecked_lines_only() -> None:
    reply = "Done.\n\n- [ ] 4. Sub-entity A\n- [x] 5. Not new\n  - [ ] 6. Sub-entity B\nbye"
    assert checklist.extract_new_items(reply) == ["Sub-entity A", "Sub-entity B"]


@pytest.mark.parametrize(
    ("done", "total", "text"), [(3, 5, "3/5 phases"), (0, 1, "0/1 phase"), (0, 0, "0/0 phases")]
)
def test_progress(done: int, total: int, text: str) -> None:
    assert checklist.progress(done, total) == text


@pytest.mark.parametrize(
    ("done", "total", "width", "bar"),
    [
        (3, 5, 10, "▓▓▓▓▓▓░░░░ 60%"),
        (0, 5, 10, "░░░░░░░░░░ 0%"),
        (5, 5, 4, "▓▓▓▓ 100%"),
        (1, 3, 20, "▓▓▓▓▓▓░░░░░░░░░░░░░░ 33%"),
        (7, 5, 4, "▓▓▓▓ 100%"),
        (0, 0, 4, "░░░░ 0%"),
    ],
)
def test_progress_bar(done: int, total: int, width: int, bar: str) -> None:
    assert checklist.progress_bar(done, total, width) == bar


def test_progress_bar_default_width_and_bad_width() -> None:
    assert len(checklist.progress_bar(1, 2).split()[0]) == 20
    with pytest.raises(ValidationError):
        checklist.progress_bar(1, 2, 0)


labels = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1
).filter(lambda s: s.strip() and "[Failed:" not in s and not s.rstrip().endswith("]"))
reasons = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1).filter(
    lambda s: s.strip() != ""
)
statuses = st.sampled_from(list(ItemStatus))


@settings(max_examples=200)
@given(st.lists(labels, min_size=1, max_size=6), st.data())
def test_render_mark_parse_round_trip(names: list[str], data: st.DataObject) -> None:
    text = checklist.render(names)
    expected: list[Item] = []
    for position, label in enumerate(checklist.parse(text).items):
        status, reason = data.draw(statuses), data.draw(reasons)
        text = checklist.mark(text, position, status, reason)
        kept = " ".join(reason.split()) if status is ItemStatus.FAILED else ""
        expected.append(Item(label.number, label.label, status, kept, label.line, label.tag))
    assert checklist.parse(text).items == tuple(expected)
    assert [i.label for i in expected] == [" ".join(n.split()) for n in names]


@settings(max_examples=100)
@given(st.lists(labels, min_size=1, max_size=5), st.integers(0, 4), statuses)
def test_marking_twice_is_idempotent(names: list[str], pick: int, status: ItemStatus) -> None:
    text = checklist.render(names)
    position = pick % len(names)
    once = checklist.mark(text, position, status, "why")
    assert checklist.mark(once, position, status, "why") == once


@settings(max_examples=100)
@given(st.integers(1, 5), st.lists(st.lists(labels, max_size=4), max_size=5))
def test_amendments_never_pass_twice_the_original_count(
    original: int, batches: list[list[str]]
) -> None:
    text = checklist.render([f"item {n}" for n in range(original)])
    asked = kept = 0
    for batch in batches:
        text, dropped = checklist.append(text, batch)
        asked, kept = asked + len(batch), kept + len(batch) - len(dropped)
    items = checklist.parse(text).items
    assert len(items) == original + kept <= 2 * original
    assert kept == min(asked, original)
    assert [i.number for i in items] == list(range(1, len(items) + 1))
