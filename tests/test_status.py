from __future__ import annotations

import itertools

import pytest

from bot.core.errors import GateError, ParseError, TransitionError
from bot.model.ids import RfdId
from bot.model.status import Status, allowed_next, check_gates, check_transition, named, said

D, DI, A, IM, AB, S = (
    Status.DRAFT,
    Status.DISCUSSION,
    Status.ACCEPTED,
    Status.IMPLEMENTED,
    Status.ABANDONED,
    Status.SUPERSEDED,
)

LEGAL = {
    (D, DI),
    (D, AB),
    (DI, A),
    (DI, AB),
    (A, IM),
    (A, AB),
    (A, S),
    (IM, S),
}


@pytest.mark.parametrize(("old", "new"), list(itertools.product(Status, Status)))
def test_every_transition(old: Status, new: Status) -> None:
    if (old, new) in LEGAL:
        check_transition(old, new)
        assert new in allowed_next(old)
        return
    with pytest.raises(TransitionError) as err:
        check_transition(old, new, path="docs/rfd/001-x.md")
    message = str(err.value)
    assert message.startswith(f"docs/rfd/001-x.md: cannot move from {old} to {new}")
    for step in allowed_next(old):
        assert step.value in message


@pytest.mark.parametrize("status", [AB, S])
def test_final_statuses_say_so(status: Status) -> None:
    with pytest.raises(TransitionError, match="is final"):
        check_transition(status, D)


def test_main_path_comes_first() -> None:
    assert allowed_next(D)[0] is DI
    assert allowed_next(DI)[0] is A
    assert allowed_next(A)[0] is IM


@pytest.mark.parametrize(
    ("text", "status"),
    [("Draft", D), ("discussion", DI), ("  ACCEPTED  ", A), ("implemented\n", IM)],
)
def test_parse_is_tolerant(text: str, status: Status) -> None:
    assert Status.parse(text) is status


def test_parse_unknown_lists_the_valid_ones() -> None:
    with pytest.raises(ParseError) as err:
        Status.parse("Approved", path="a.md", line=3)
    assert str(err.value).startswith("a.md:3: unknown status 'Approved'")
    assert "Draft, Discussion, Accepted, Implemented, Abandoned, Superseded" in str(err.value)


def test_rank_orders_the_main_path() -> None:
    assert D.rank < DI.rank < A.rank < IM.rank
    assert AB.rank < 0 and S.rank < 0


R1, R2 = RfdId.parse("001"), RfdId.parse("002")


@pytest.mark.parametrize(
    ("new", "requires", "blocked"),
    [
        (A, {}, []),
        (A, {R1: A, R2: IM}, []),
        (A, {R1: DI}, ["RFD 001 is Discussion (needs Accepted)"]),
        (A, {R1: None}, ["RFD 001 does not exist"]),
        (A, {R1: S}, ["RFD 001 is Superseded: require the RFD that replaced it"]),
        (A, {R1: AB, R2: D}, ["RFD 001 is Abandoned", "RFD 002 is Draft"]),
        (IM, {R1: IM}, []),
        (IM, {R1: A}, ["RFD 001 is Accepted (needs Implemented)"]),
        (DI, {R1: None}, []),
        (AB, {R1: D}, []),
    ],
)
def test_gates(new: Status, requires: dict[RfdId, Status | None], blocked: list[str]) -> None:
    if not blocked:
        check_gates(new, requires)
        return
    with pytest.raises(GateError) as err:
        check_gates(new, requires, path="docs/rfd/003-x.md")
    assert len(err.value.alternatives) == len(blocked)
    for expected, alternative in zip(blocked, err.value.alternatives, strict=True):
        assert alternative.startswith(expected)
    assert "Requires" in str(err.value)


@pytest.mark.parametrize(
    ("stage", "word", "words", "both"),
    [
        (A, "Discussion", "Accepted", "Accepted"),  # rfd's own format: rfd's words, once
        (A, "", "Accepted", "Accepted"),  # no document: rfd's words
        (A, "discussion", "published", "published (Accepted)"),  # Oxide's
        (IM, "published", "committed", "committed (Implemented)"),
        (DI, "committed", "discussion", "discussion"),  # the same word: said once
        (A, "exploring", "accepted", "accepted"),  # Ember's stage words
    ],
)
def test_a_stage_is_said_in_the_repositorys_words(
    stage: Status, word: str, words: str, both: str
) -> None:
    assert said(stage, word) == words
    assert named(stage, word) == both
