from __future__ import annotations

import pytest

from bot.agent.authoring.refine import ask_dismiss, parse_selection
from bot.core.errors import ValidationError
from tests.fakes import ScriptedPrompter


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("", []), ("all", "all"), (" ALL ", "all"), ("1", [1]), ("2, 1 2", [2, 1])],
)
def test_parse_selection(answer: str, expected: object) -> None:
    assert parse_selection(answer, 2) == expected


@pytest.mark.parametrize("answer", ["0", "3", "one", "all 1"])
def test_bad_selections_are_refused(answer: str) -> None:
    with pytest.raises(ValidationError):
        parse_selection(answer, 2)


def test_the_prompt_lists_reviews_and_asks_again_after_a_bad_answer() -> None:
    prompter = ScriptedPrompter(answers=["7", "1"])
    assert ask_dismiss(prompter, ["Error handling...", "Migration path..."]) == [1]
    assert "  1. Error handling...\n  2. Migration path..." in prompter.asked[0]
    assert prompter.asked[1].startswith("`7` is not a review number between 1 and 2")


def test_nothing_to_dismiss_asks_nothing() -> None:
    prompter = ScriptedPrompter()
    assert ask_dismiss(prompter, []) == []
    assert prompter.asked == []
