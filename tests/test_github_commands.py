"""Parsing `/rfd` commands from comments."""

from __future__ import annotations

import pytest

from bot.config import load as config
from bot.github.commands import CONSENSUS, REGISTRY, Verb, help_text, parse


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/rfd review", [(Verb.REVIEW, None, None)]),
        ("Thanks!\n/rfd status\n", [(Verb.STATUS, None, None)]),
        ("/rfd review --model opus", [(Verb.REVIEW, "opus", None)]),
        ("/rfd refine --model=sonnet --rfd 045", [(Verb.REFINE, "sonnet", "045")]),
        ("/RFD help", []),  # the prefix is lowercase, like GitHub's own
        ("  /rfd ACCEPT", [(Verb.ACCEPT, None, None)]),
        ("/rfd accept\n/rfd status", [(Verb.ACCEPT, None, None), (Verb.STATUS, None, None)]),
        ("see /rfd review in the docs", []),
    ],
)
def test_commands_found(body: str, expected: list[tuple[Verb, str | None, str | None]]) -> None:
    parsed = parse(body)
    assert [(c.verb, c.model, c.rfd) for c in parsed.commands] == expected
    assert parsed.errors == ()


@pytest.mark.parametrize(
    "body",
    [
        "```\n/rfd accept\n```",
        "~~~md\n/rfd accept\n~~~",
        "Like this:\n\n    /rfd accept\n",
        "> /rfd accept",
        "  > /rfd accept",
        "<!-- /rfd accept -->",
        "<!--\n/rfd accept\n-->",
        # what an attacker tried: a reader sees none of these as a command
        "Intro\n\n<!-- hides the rest\n\n/rfd accept\n\nmore",
        "<!--\n/rfd accept",
        "~~~\n```\n/rfd accept\n```\n~~~",
        "````md\n```\n````\n",
        "<pre>\n/rfd accept\n</pre>",
        "<details>\n/rfd accept\n</details>",
        "> quoted\u2028/rfd accept",
        "> quoted\u2029/rfd accept",
        "> quoted\u0085/rfd accept",
        "> quoted\n/rfd accept",  # a lazy continuation: still the quote
        "- /rfd accept",
        "`/rfd accept`",
        "text <!-- hidden\n/rfd accept\n--> more",
    ],
)
def test_commands_a_reader_does_not_see_as_text_are_ignored(body: str) -> None:
    assert parse(body).commands == ()


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("<!-- a note -->\n\n/rfd accept", 3),
        ("```\ncode\n```\n/rfd accept", 4),
        ("> quoted\n\n/rfd accept", 3),
        ("Done, thanks.\n/rfd accept", 2),
        ("&#47;rfd accept", 1),  # shown as "/rfd accept": it is one
        ("Not hidden: <!-- is text mid-line\n\n/rfd accept", 3),
    ],
)
def test_commands_after_closed_code_quotes_and_comments_run(body: str, line: int) -> None:
    (command,) = parse(body).commands
    assert (command.verb, command.line) == (Verb.ACCEPT, line)


@pytest.mark.parametrize(
    ("line", "selection"),
    [("/rfd dismiss 2", (2,)), ("/rfd dismiss 3 1 3", (1, 3)), ("/rfd dismiss all", None)],
)
def test_dismiss_selection(line: str, selection: tuple[int, ...] | None) -> None:
    (command,) = parse(line).commands
    assert command.selection == selection


@pytest.mark.parametrize(
    ("line", "phase"),
    [("/rfd implement", None), ("/rfd implement 2", "2"), ("/rfd implement 3a", "3a")],
)
def test_implement_phase(line: str, phase: str | None) -> None:
    (command,) = parse(line).commands
    assert command.phase == phase


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("/rfd", "needs a command"),
        ("/rfd deploy", "unknown command `/rfd deploy`: try `/rfd help`"),
        ("/rfd aprove", "unknown command `/rfd aprove`: did you mean `/rfd approve`?"),
        ("/rfd Dnoe", "did you mean `/rfd done`?"),
        ("/rfd dismiss", "review numbers or `all`"),
        ("/rfd dismiss 0", "review numbers or `all`"),
        ("/rfd accept --model opus", "does not take `--model`"),
        ("/rfd status now", "does not take `now`"),
        ("/rfd review --model", "needs a value"),
        ("/rfd review --model $(rm -rf)", "needs a value"),
        ("/rfd review --rfd ../../etc", "needs a value"),
        ("/rfd implement 2 3", "does not take `2 3`"),
        ("/rfd implement next", "does not take `next`"),
        ("/rfd review\n/rfd refine", "one AI command per comment"),
    ],
)
def test_errors_say_what_is_wrong(body: str, error: str) -> None:
    parsed = parse(body)
    assert any(error in e for e in parsed.errors), parsed.errors


def test_two_ai_commands_run_neither() -> None:
    parsed = parse("/rfd review\n/rfd implement\n/rfd status")
    assert [c.verb for c in parsed.commands] == [Verb.STATUS]


def test_help_lists_every_verb_and_who_may_use_it() -> None:
    text = help_text(config.parse(""))
    for spec in REGISTRY.values():
        listed = f"`{spec.usage}`".replace("|", "\\|") in text
        assert listed is (spec.verb not in CONSENSUS)  # sign-offs only where configured
    signing = help_text(config.parse('[consensus]\nreviewers = ["alice"]\napprovals = 1\n'))
    assert all(f"`{s.usage}`" in signing for s in REGISTRY.values() if s.verb in CONSENSUS)
    assert "| people with write access or more other than the RFD's author |" in text
    assert "Commands from bot accounts are ignored" in text


def test_help_says_what_the_repository_configured() -> None:
    cfg = config.parse(
        '[accept]\nmin_permission = "maintain"\nallow_author = true\n'
        '[bot]\nallowed_bots = ["renovate[bot]"]\n'
    )
    text = help_text(cfg)
    assert "write access" not in text
    assert "| people with maintain access or more (the RFD's author too) |" in text
    assert "| review the RFDs of this PR and commit the review | people with maintain" in text
    assert "only `renovate[bot]` may use the commands" in text
