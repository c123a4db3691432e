"""The one rule naming phases: labels, summary files, positions, optional phases."""

from __future__ import annotations

import pytest

from bot.model import phase_ids
from bot.model.plan import PlanPhase

UNLABELLED = (PlanPhase("A", ""), PlanPhase("B", ""), PlanPhase("C", ""))
LABELLED = (
    PlanPhase("Groundwork", "", "0"),
    PlanPhase("Split", "", "3a"),
    PlanPhase("Polish (optional)", "", "3b"),
    PlanPhase("Ship (deferred)", "", "4"),
)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("1.md", "1"),
        ("01.md", "1"),
        ("007.md", "7"),
        ("0.md", "0"),
        ("00.md", "0"),
        ("10.md", "10"),
        ("3a.md", "3a"),
        ("03A.md", "3a"),
        ("b.md", "B"),
        ("first.md", None),
        ("1.txt", None),
        ("3ab.md", None),
        (".1.md", None),
        ("-1.md", None),
    ],
)
def test_one_rule_for_summary_file_names(name: str, key: str | None) -> None:
    assert phase_ids.file_key(name) == key


def test_without_labels_phases_are_their_positions() -> None:
    assert phase_ids.labels(UNLABELLED) == ["1", "2", "3"]
    assert phase_ids.done(UNLABELLED, ["1", "3", "4", "0"]) == {1, 3}


def test_labels_name_phases_and_free_positions_still_count() -> None:
    assert phase_ids.labels(LABELLED) == ["0", "3a", "3b", "4"]
    assert phase_ids.position(LABELLED, "3A") == 2
    assert phase_ids.position(LABELLED, "4") == 4  # the label, not the 4th position
    assert phase_ids.position(LABELLED, "2") == 2  # no label 2: a summary from before labels
    assert phase_ids.position(LABELLED, "5") is None


def test_what_a_user_types_names_a_phase_by_its_label_only() -> None:
    assert phase_ids.named(LABELLED, "3A") == 2
    assert phase_ids.named(LABELLED, "04") == 4
    assert phase_ids.named(LABELLED, "2") is None  # a position, but no label
    assert phase_ids.named(UNLABELLED, "2") == 2  # unlabelled plans are numbered 1..N


def test_optional_and_deferred_phases_never_block() -> None:
    assert phase_ids.missing(LABELLED, set()) == [1, 2]
    assert phase_ids.missing(LABELLED, {1, 2}) == []
