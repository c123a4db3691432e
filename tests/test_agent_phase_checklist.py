"""The checklist of a phase being implemented (pure functions, the state file of the count)."""

from __future__ import annotations

from pathlib import Path

from bot.agent.implementation.phase_work import amend, failed_items, original_count, reset_failed
from bot.model import checklist
from tests.agent_support import make_repo

ITEMS = "<!-- original_count: 2 -->\n- [x] 1. One\n- [!] 2. Two [Failed: boom]\n"


def test_failed_items_are_listed_as_code_spans_that_cannot_become_markdown() -> None:
    text = checklist.mark(
        "- [ ] 1. ## Own `heading` @team\n",
        0,
        checklist.ItemStatus.FAILED,
        "`pytest` failed (exit code 1)",
    )
    listed = failed_items(checklist.parse(text).items)
    assert listed == (
        "\n## Failed items\n\n- 1. `## Own 'heading' @team` — `'pytest' failed (exit code 1)`\n"
    )
    assert failed_items(checklist.parse("- [x] 1. Fine\n").items) == ""


def test_a_new_run_retries_the_failed_items() -> None:
    items, again = reset_failed(ITEMS)
    assert again == 1 and "- [ ] 2. Two\n" in items and "- [x] 1. One" in items


def test_the_count_is_kept_beside_the_checklist_and_wins_over_its_comment(tmp_path: Path) -> None:
    store = make_repo(tmp_path).store
    assert original_count(store, "D1", "implement/1", ITEMS) == 2
    assert store.read_text("D1", "implement/1/original_count") == "2\n"
    garbled = ITEMS.replace("2 -->", "99 -->")
    assert original_count(store, "D1", "implement/1", garbled) == 2
    grown, dropped = amend(garbled, "- [ ] 3. Three\n- [ ] 4. Four\n- [ ] 5. Five\n", 2)
    assert dropped == ["Five"] and len(checklist.parse(grown).items) == 4
