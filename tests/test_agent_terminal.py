from __future__ import annotations

from typing import Any

import pytest

from bot.agent.toolbox.permission import Choice, TerminalPrompter
from bot.core.errors import LeftPrompt


def prompter(
    answers: list[str], edited: str | None = None
) -> tuple[TerminalPrompter, list[str], list[tuple[str, str]]]:
    shown: list[str] = []
    opened: list[tuple[str, str]] = []

    def edit(text: str, extension: str) -> str | None:
        opened.append((text, extension))
        return edited

    return (
        TerminalPrompter(echo=shown.append, prompt=lambda _: answers.pop(0), edit=edit),
        shown,
        opened,
    )


@pytest.mark.parametrize(
    ("answer", "choice"), [("", Choice.YES), ("Y", Choice.YES), ("yes", Choice.YES)]
)
def test_yes_is_the_default(answer: str, choice: Choice) -> None:
    p, shown, _ = prompter([answer])
    assert p.approve("write_file", {"path": "a", "content": "x"}, "+x\n").choice is Choice.YES
    assert shown[0] == "\n── write_file ──\n+x\n"


def test_no_carries_a_note_and_bad_answers_ask_again() -> None:
    p, shown, _ = prompter(["maybe", "n", "use b.txt"])
    approval = p.approve("write_file", {"path": "a", "content": "x"}, "+x")
    assert (approval.choice, approval.note) == (Choice.NO, "use b.txt")
    assert "answer y, n or e" in shown


def test_edit_opens_the_content_in_the_editor() -> None:
    p, _, opened = prompter(["e"], edited="better\n")
    approval = p.approve("rfd_section", {"section": "Summary", "content": "draft\n"}, "")
    assert approval.choice is Choice.EDIT
    assert approval.arguments == {"section": "Summary", "content": "better\n"}
    assert opened == [("draft\n", ".md")]


@pytest.mark.parametrize(
    ("edited", "expected"),
    [
        ('{"action": "add", "text": "Edited"}', {"action": "add", "text": "Edited"}),
        ("{not json", {"action": "add", "text": "Original"}),
        (None, {"action": "add", "text": "Original"}),
    ],
)
def test_edit_without_content_edits_the_json_arguments(
    edited: str | None, expected: dict[str, Any]
) -> None:
    p, _, opened = prompter(["e"], edited=edited)
    approval = p.approve("rfd_decision", {"action": "add", "text": "Original"}, "")
    assert approval.arguments == expected
    assert opened[0][1] == ".json"


@pytest.mark.parametrize(
    ("raised", "reason"),
    [(EOFError, "Ctrl-D at the prompt"), (KeyboardInterrupt, "Ctrl-C at the prompt")],
)
def test_leaving_the_prompt_is_not_an_empty_answer(
    raised: type[BaseException], reason: str
) -> None:
    def leave(_: str) -> str:
        raise raised

    with pytest.raises(LeftPrompt) as left:
        TerminalPrompter(echo=lambda _: None, prompt=leave).ask("you>")
    assert left.value.reason == reason
    assert TerminalPrompter(echo=lambda _: None, prompt=lambda _: "more").ask("you>") == "more"


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("Dismiss resolved reviews? [numbers, 'all', or enter to skip]: ", "to skip]: "),
        ("you (enter to finish)>", "finish)> "),
        ("Apply? [Y]es / [n]o / [e]dit (enter: yes)", "(enter: yes): "),
    ],
)
def test_a_prompt_never_ends_in_two_colons(question: str, shown: str) -> None:
    from click.testing import CliRunner

    from bot.agent.toolbox.permission import _click_prompt

    with CliRunner().isolation(input="1\n") as (out, *_):
        assert _click_prompt(question) == "1"
        printed = out.getvalue().decode()
    assert printed.endswith(f"{shown}1\n") and ": :" not in printed
