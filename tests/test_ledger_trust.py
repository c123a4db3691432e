"""Which entries of a ledger count: the default branch's, changed by the bot's proven commits."""

from __future__ import annotations

import pytest

from bot.model.consensus import Approval, Concern, Fcp, Ledger, Step, forged, in_place, trusted

HUBOT = Approval("hubot", "abc", 1.0, "hubot")
MONA = Approval("mona", "abc", 2.0, "mona")
OPEN = Concern(1, "mona", "Proxies may buffer")
RESOLVED = Concern(1, "mona", "Proxies may buffer", resolved_by="mona")
FCP = Fcp("hubot", 0.0, 1.0)


def test_the_bots_commits_count_and_hand_written_ones_do_not() -> None:
    base = Ledger((HUBOT,))
    bot = Step(base, Ledger((HUBOT,), (OPEN,)), proven=True)
    hand = Step(bot.after, Ledger((HUBOT, MONA), (RESOLVED,), FCP), proven=False)
    counted = trusted(base, [bot, hand])
    assert counted == Ledger((HUBOT,), (OPEN,))
    assert forged(hand.after, counted) == (
        "an approval by mona",
        "concern 1 as written",
        "a final comment period",
    )


def test_a_concern_taken_out_by_hand_still_counts_and_is_named() -> None:
    base = Ledger((), (OPEN,))
    hand = Step(base, Ledger(), proven=False)
    counted = trusted(base, [hand])
    assert counted.open_concerns == (OPEN,)
    assert forged(hand.after, counted) == ("concern 1 taken out",)


def test_a_proven_commit_after_a_hand_edit_adds_only_what_it_changed() -> None:
    """The bot's commit of a later approval carries the forged entry along in its file: only
    its own change (the new approval) counts."""
    hand = Step(Ledger(), Ledger((MONA,)), proven=False)
    bot = Step(hand.after, Ledger((MONA, HUBOT)), proven=True)
    counted = trusted(Ledger(), [hand, bot])
    assert counted == Ledger((HUBOT,))
    assert forged(bot.after, counted) == ("an approval by mona",)


def test_a_renewed_approval_replaces_the_older_one() -> None:
    newer = Approval("hubot", "def", 3.0, "hubot")
    bot = Step(Ledger((HUBOT,)), Ledger((newer,)), proven=True)
    assert trusted(Ledger((HUBOT,)), [bot]).approvals == (newer,)


def test_the_acceptance_counts_as_the_bot_wrote_it_and_a_hand_edit_of_it_is_named() -> None:
    """Who accepted is the bot's record of the event's actor: a push that rewrites it (to
    claim someone else accepted, or with other sign-offs) is left out and named."""
    from bot.model.consensus import Acceptance

    signed = Ledger((HUBOT, MONA))
    mine = Acceptance("hubot", "f00", 3.0, ("hubot", "mona"))
    bot = Step(signed, Ledger((HUBOT, MONA), accepted=mine), proven=True)
    claimed = Acceptance("octocat", "f00", 3.0, ("octocat",))
    hand = Step(bot.after, Ledger((HUBOT, MONA), accepted=claimed), proven=False)
    counted = trusted(signed, [bot, hand])
    assert counted.accepted == mine
    assert forged(hand.after, counted) == ("an acceptance",)
    assert trusted(signed, [Step(signed, hand.after, proven=False)]).accepted is None


# in_place: the branch's ledger commits (sha, proven) with the bot's commits it lost put back.
# Each commit's change is named by a letter: equal letters, the same change.
CHANGES = {"b1": "A", "b2": "B", "b3": "C", "o1": "A", "o2": "B", "o3": "C", "h1": "X", "b2x": "B'"}
IN_PLACE = [
    # (case, the branch's commits, the bot's commits it lost, those its comments name, result)
    ("nothing lost", [("b1", True), ("h1", False)], [], {"b1"}, [("b1", True), ("h1", False)]),
    (
        "rebased: each copy stands for the bot's commit",
        [("b1", False), ("b2", False)],
        ["o1", "o2"],
        {"o1", "o2"},
        [("o1", True), ("o2", True)],
    ),
    (
        "a hand's commit between copies stays unproven",
        [("b1", False), ("h1", False), ("b2", False)],
        ["o1", "o2"],
        {"o1", "o2"},
        [("o1", True), ("h1", False), ("o2", True)],
    ),
    (
        "squashed: nothing copies them, they count after the branch's commits",
        [("h1", False)],
        ["o1", "o2"],
        {"o1", "o2"},
        [("h1", False), ("o1", True), ("o2", True)],
    ),
    (
        "dropped or edited: it counts before the copy of a later one",
        [("b2x", False), ("b3", False)],
        ["o1", "o2", "o3"],
        {"o1", "o2", "o3"},
        [("b2x", False), ("o1", True), ("o2", True), ("o3", True)],
    ),
    (
        "a lost commit no comment names counts only through a copy",
        [("h1", False), ("b2", False)],
        ["o1", "o2"],
        {"o2"},
        [("h1", False), ("o2", True)],
    ),
    (
        "one commit of the bot stands for one copy only",
        [("b1", False), ("b1", False)],
        ["o1"],
        {"o1"},
        [("o1", True), ("b1", False)],
    ),
]


@pytest.mark.parametrize(
    ("branch", "olds", "kept", "placed"), [c[1:] for c in IN_PLACE], ids=[c[0] for c in IN_PLACE]
)
def test_the_bots_lost_commits_are_put_back_in_place(
    branch: list[tuple[str, bool]], olds: list[str], kept: set[str], placed: list[tuple[str, bool]]
) -> None:
    assert in_place(branch, olds, kept, CHANGES.__getitem__) == placed
