from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.errors import ParseError, ValidationError
from bot.model import decisions
from bot.model.decisions import Action, Decision, Decisions, DecisionStatus, Rejected

TEXT = """\
# Decisions for RFD D32: JP Tracing: Infrastructure

## Locked

1. Flat event structs.
3. Caller location always recorded.

## Under Discussion

4. Chrome verbosity API shape.

## Rejected

- ~~2. Enum-based event hierarchy.~~ Spans carry namespace context instead.
"""

PARSED = Decisions(
    title="JP Tracing: Infrastructure",
    locked=(Decision(1, "Flat event structs."), Decision(3, "Caller location always recorded.")),
    discussing=(Decision(4, "Chrome verbosity API shape."),),
    rejected=(
        Rejected("Enum-based event hierarchy.", "Spans carry namespace context instead.", 2),
    ),
    rfd="D32",
)


def test_parse_reads_the_three_parts() -> None:
    assert decisions.parse(TEXT, "decisions.md") == PARSED


def test_render_round_trips() -> None:
    assert decisions.render(PARSED) == TEXT
    assert decisions.parse(decisions.render(PARSED), "d.md") == PARSED


def test_render_empty_keeps_all_three_headings() -> None:
    text = decisions.render(Decisions(title="T", rfd="045"))
    assert text == "# Decisions for RFD 045: T\n\n## Locked\n\n## Under Discussion\n\n## Rejected\n"
    assert decisions.parse(text, "d.md") == Decisions(title="T", rfd="045")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Decisions()),
        ("# Decisions\n## Locked\n1) A\n", Decisions(locked=(Decision(1, "A"),))),
        (
            "# My notes\n## discussing\n7. A\n",
            Decisions("My notes", discussing=(Decision(7, "A"),)),
        ),
        ("## Locked\n1. Long\n   continued\n", Decisions(locked=(Decision(1, "Long continued"),))),
        ("## Rejected\n* ~~Old~~\n", Decisions(rejected=(Rejected("Old", ""),))),
        (
            "## Rejected\n- ~~Old~~ why\n  more\n",
            Decisions(rejected=(Rejected("Old", "why more"),)),
        ),
        ("<!-- note -->\n## Locked\n\n<!-- x -->\n1. A\n", Decisions(locked=(Decision(1, "A"),))),
    ],
)
def test_parse_tolerates_hand_edits(text: str, expected: Decisions) -> None:
    assert decisions.parse(text, "d.md") == expected


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("# D\nstray text\n", 2, "before the first section"),
        ("# D\n## Locked\n- bullet\n", 3, "under `## Locked`"),
        ("## Rejected\n- not struck\n", 2, "under `## Rejected`"),
        ("## Locked\n1. A\n## Ideas\n", 3, "unknown section 'Ideas'"),
        ("## Locked\n1. A\n## Rejected\n- ~~1. B~~ no\n", 4, "decision 1 appears twice"),
    ],
)
def test_parse_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ParseError, match=message) as info:
        decisions.parse(text, ".state/D32/decisions.md")
    assert info.value.line == line
    assert str(info.value).startswith(f".state/D32/decisions.md:{line}: ")


def numbers(d: Decisions) -> tuple[list[int], list[int], list[int | None]]:
    return (
        [e.number for e in d.locked],
        [e.number for e in d.discussing],
        [r.number for r in d.rejected],
    )


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"action": "add", "text": "New one"}, ([1, 3], [4, 5], [2])),
        ({"action": Action.ADD, "text": "x", "status": "locked"}, ([1, 3, 5], [4], [2])),
        ({"action": "update", "number": 4, "status": "locked"}, ([1, 3, 4], [], [2])),
        ({"action": "update", "number": 1, "status": "discussing"}, ([3], [4, 1], [2])),
        ({"action": "update", "number": 3, "text": "Changed"}, ([1, 3], [4], [2])),
        ({"action": "reject", "number": 4, "reason": "too slow"}, ([1, 3], [], [2, 4])),
        ({"action": "REJECT", "number": 1, "reason": "no"}, ([3], [4], [2, 1])),
    ],
)
def test_apply_keeps_numbers_stable(
    kwargs: dict[str, object], expected: tuple[list[int], ...]
) -> None:
    action = kwargs.pop("action")
    result = decisions.apply(PARSED, action, **kwargs)  # type: ignore[arg-type]
    assert numbers(result) == expected
    assert decisions.parse(decisions.render(result), "d.md") == _sorted(result)


def _sorted(d: Decisions) -> Decisions:
    return Decisions(
        d.title,
        tuple(sorted(d.locked, key=lambda e: e.number)),
        tuple(sorted(d.discussing, key=lambda e: e.number)),
        d.rejected,
        d.rfd,
    )


def test_update_keeps_status_and_text_unless_given() -> None:
    changed = decisions.apply(PARSED, "update", number=3, text="  Changed\n text ")
    assert changed.locked == (Decision(1, "Flat event structs."), Decision(3, "Changed text"))


def test_rejected_number_is_never_reused() -> None:
    d = decisions.apply(PARSED, "reject", number=4, reason="dropped")
    assert decisions.apply(d, "add", text="next").discussing == (Decision(5, "next"),)


def test_reject_moves_text_and_reason() -> None:
    d = decisions.apply(PARSED, "reject", number=3, reason="Not needed")
    assert d.rejected[-1] == Rejected("Caller location always recorded.", "Not needed", 3)
    assert "- ~~3. Caller location always recorded.~~ Not needed" in decisions.render(d)


@pytest.mark.parametrize(
    ("action", "kwargs", "message"),
    [
        ("add", {}, "non-empty text is required"),
        ("add", {"text": "   "}, "non-empty text is required"),
        ("add", {"text": "x", "number": 9}, "numbers the decision itself"),
        ("add", {"text": "x", "status": "maybe"}, "unknown status 'maybe'; use one of: locked"),
        ("update", {"text": "x"}, "`update` needs the number"),
        ("reject", {"reason": "r"}, "`reject` needs the number"),
        ("reject", {"number": 4}, "non-empty reason is required"),
        ("reject", {"number": 4, "reason": " "}, "non-empty reason is required"),
        ("update", {"number": 9, "text": "x"}, "decision 9 does not exist"),
        ("update", {"number": 2, "text": "x"}, "decision 2 was rejected"),
        ("delete", {"number": 1}, "unknown action 'delete'; use one of: add, update, reject"),
    ],
)
def test_apply_validates_parameters(action: str, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        decisions.apply(PARSED, action, **kwargs)  # type: ignore[arg-type]


def test_unknown_number_hint_lists_open_decisions() -> None:
    with pytest.raises(ValidationError) as info:
        decisions.apply(PARSED, "update", number=9, text="x")
    assert info.value.hint == "open decisions: 1, 3, 4"


def test_status_enum_accepted() -> None:
    d = decisions.apply(Decisions(), "add", text="A", status=DecisionStatus.LOCKED)
    assert d.locked == (Decision(1, "A"),) and d.next_number == 2


texts = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1).filter(
    lambda s: s.strip() != "" and "~~" not in s
)
calls = st.tuples(
    st.sampled_from(["add", "update", "reject"]),
    st.integers(1, 8),
    texts,
    st.sampled_from(["locked", "discussing", None]),
)


@settings(max_examples=150)
@given(st.lists(calls, max_size=12))
def test_any_sequence_of_calls_keeps_numbers_and_round_trips(
    script: list[tuple[str, int, str, str | None]],
) -> None:
    d, ever = Decisions(title="T", rfd="045"), 0
    for action, number, text, status in script:
        try:
            if action == "add":
                d = decisions.apply(d, action, text=text, status=status)
            elif action == "update":
                d = decisions.apply(d, action, number=number, text=text, status=status)
            else:
                d = decisions.apply(d, action, number=number, reason=text)
        except ValidationError:
            continue
        ever = max(ever, d.next_number - 1)
        all_numbers = [*numbers(d)[0], *numbers(d)[1], *numbers(d)[2]]
        assert sorted(all_numbers) == list(range(1, ever + 1))  # none lost, none reused
    assert decisions.parse(decisions.render(d), "d.md") == _sorted(d)


@pytest.mark.parametrize("text", ["0~", "a ~~b~~ c", "back\\slash", "ends with \\", "~"])
def test_rejected_text_with_tildes_and_backslashes_round_trips(text: str) -> None:
    found = decisions.apply(decisions.Decisions(), "add", text=text)
    found = decisions.apply(found, "reject", number=1, reason="too risky ~~")
    (back,) = decisions.parse(decisions.render(found), "decisions.md").rejected
    assert (back.text, back.reason) == (text, "too risky ~~")


def test_hand_written_backslashes_are_kept() -> None:
    text = "# Decisions\n\n## Rejected\n\n- ~~2. C:\\temp paths~~ not portable\n"
    (back,) = decisions.parse(text, "decisions.md").rejected
    assert back.text == "C:\\temp paths"
