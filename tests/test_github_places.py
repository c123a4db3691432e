"""Every command in every place of an RFD's life: it works there, or its answer links the
place where it works (never a dead end such as "changes no RFD")."""

from __future__ import annotations

import re

import pytest

from bot.github.commands import Verb
from bot.github.places import WORKS, Link, Place, Where, answer, works

WEB = "https://github.com/Codertocat/Hello-World"
PR = Link(2, f"{WEB}/pull/2")
ISSUE = Link(12, f"{WEB}/issues/12")
FILE = f"{WEB}/blob/main/docs/rfd/045-streaming-exports.md"
PR_5 = Link(5, f"{WEB}/pull/5")
_LINK = re.compile(r"\]\((https?://[^\s)]+)\)")

# the RFD as each place finds it: (where the comment is, what is known of the RFD then)
STATES = {
    "open PR, not accepted": (Place.OPEN_PR, Where("045", PR, Place.OPEN_PR)),
    "open PR, accepted": (Place.OPEN_PR, Where("045", PR, Place.OPEN_PR, ISSUE)),
    "merged PR": (Place.MERGED_PR, Where("045", PR, Place.MERGED_PR, ISSUE, FILE)),
    "closed PR": (Place.CLOSED_PR, Where("045", PR, Place.CLOSED_PR)),
    "closed PR, RFD on main through PR 5": (
        Place.CLOSED_PR,
        Where("045", PR, Place.CLOSED_PR, ISSUE, FILE, status="Accepted", brought=PR_5),
    ),
    "merged PR, no tracking issue": (
        Place.MERGED_PR,
        Where("045", PR, Place.MERGED_PR, file_url=FILE, status="Discussion", on_pr=True),
    ),
    "closed PR, RFD only there": (Place.CLOSED_PR, Where("045", PR, Place.CLOSED_PR, on_pr=True)),
    "closed PR, RFD on main, accepted on PR 5": (
        Place.CLOSED_PR,
        Where("045", PR, Place.CLOSED_PR, ISSUE, FILE, status="Accepted", on_pr=True, decided=PR_5),
    ),
    "closed PR, RFD on main, no tracking issue": (
        Place.CLOSED_PR,
        Where("045", PR, Place.CLOSED_PR, file_url=FILE, status="Discussion", on_pr=True),
    ),
    "merged PR, accepted by hand": (
        Place.MERGED_PR,
        Where("045", PR, Place.MERGED_PR, file_url=FILE, status="Accepted", on_pr=True),
    ),
    "closed PR, RFD on main accepted by hand": (
        Place.CLOSED_PR,
        Where("045", PR, Place.CLOSED_PR, file_url=FILE, status="Accepted", on_pr=True),
    ),
    "tracking issue, PR open": (Place.TRACKING, Where("045", PR, Place.OPEN_PR, ISSUE)),
    "tracking issue, PR merged": (Place.TRACKING, Where("045", PR, Place.MERGED_PR, ISSUE, FILE)),
    "phase PR": (Place.PHASE_PR, Where("045", PR, Place.MERGED_PR, ISSUE, FILE)),
}


def working_links(verb: Verb, where: Where) -> set[str]:
    """The links that lead where ``verb`` works for this RFD now."""
    found = set()
    if Place.TRACKING in WORKS[verb] and where.tracking is not None:
        found.add(where.tracking.url)
    if where.pr is not None and where.pr_place is Place.OPEN_PR:
        found.add(where.pr.url)  # the RFD's open pull request
    if where.pr is not None and where.pr_place is Place.CLOSED_PR and not where.file_url:
        found.add(where.pr.url)  # reopened, it is again
    if where.file_url and where.pr_place is not Place.OPEN_PR:
        found.add(where.file_url)  # a new pull request that edits it (merged, or brought)
    return found


GRID = [(verb, state) for verb in Verb for state in STATES]


@pytest.mark.parametrize(("verb", "state"), GRID, ids=[f"{v.value}-{s}" for v, s in GRID])
def test_every_command_in_every_place_works_or_links_where_it_works(verb: Verb, state: str) -> None:
    place, where = STATES[state]
    if works(verb, place):
        return  # it runs here: the command's own tests say what it answers
    said = answer(verb, where)
    assert f"`/rfd {verb.value}`" in said
    assert "RFD 045" in said or said.startswith("This pull request "), said  # on the RFD's PR
    links = set(_LINK.findall(said))
    if where.on_pr and where.pr_place is Place.CLOSED_PR and not where.file_url:
        assert "This pull request " in said and "reopen" in said, said  # said on it: no link
    else:
        assert links & working_links(verb, where), said  # at least one link leads where it works
    assert links <= {PR.url, PR_5.url, ISSUE.url, FILE}, said  # and none leads anywhere else
    if where.pr_place is Place.CLOSED_PR and where.file_url:
        assert "reopen" not in said, said  # its branch is behind the RFD on main


def test_the_places_where_each_command_works() -> None:
    """Discussion commands on the open pull request; finishing and implementing on the
    tracking issue (on the open pull request they say what comes first); status and
    help everywhere."""
    on_pr = [v for v in Verb if WORKS[v] == {Place.OPEN_PR}]
    assert sorted(v.value for v in on_pr) == sorted(
        ["review", "refine", "dismiss", "accept", "approve", "concern", "resolve", "fcp"]
    )
    assert WORKS[Verb.DONE] == WORKS[Verb.IMPLEMENT] == {Place.TRACKING, Place.OPEN_PR}
    assert WORKS[Verb.STATUS] == WORKS[Verb.HELP] == set(Place)


@pytest.mark.parametrize(
    ("verb", "where", "expected"),
    [
        (
            Verb.REVIEW,
            Where("045", PR, Place.OPEN_PR, ISSUE),
            f"`/rfd review` for RFD 045 works on its pull request: comment it on [#2]({PR.url}).",
        ),
        (
            Verb.IMPLEMENT,
            Where("045", PR, Place.MERGED_PR, ISSUE, FILE),
            f"`/rfd implement` for RFD 045 works on its tracking issue: comment it on "
            f"[#12]({ISSUE.url}).",
        ),
        (
            Verb.DONE,
            Where("045", PR, Place.MERGED_PR, ISSUE, FILE),
            "`/rfd done` for RFD 045 works on its tracking issue: "
            f"comment it on [#12]({ISSUE.url}),"
            " and the bot opens the pull request that marks the RFD Implemented.",
        ),
        (
            Verb.IMPLEMENT,
            Where("045", PR, Place.OPEN_PR),
            f"RFD 045 has no tracking issue yet: it is opened when the RFD is accepted on "
            f"[#2]({PR.url}). `/rfd implement` works there afterwards.",
        ),
        (
            Verb.IMPLEMENT,
            Where("045", PR, Place.CLOSED_PR),
            "RFD 045 is not accepted: it has no tracking issue yet, which is opened when the RFD "
            "is accepted on an open pull request that changes it. RFD 045's pull request "
            f"[#2]({PR.url}) is closed without merging — reopen it, then accept the RFD there. "
            "`/rfd implement` works on the tracking issue afterwards.",
        ),
        (
            Verb.DONE,
            Where("045", PR, Place.CLOSED_PR, on_pr=True),
            "RFD 045 is not accepted: it has no tracking issue yet, which is opened when the RFD "
            "is accepted on an open pull request that changes it. This pull request is closed "
            "without merging — reopen it, then accept the RFD there. `/rfd done` works on the "
            "tracking issue afterwards.",
        ),
        (
            Verb.IMPLEMENT,
            Where("045", PR, Place.CLOSED_PR, file_url=FILE, status="Discussion", on_pr=True),
            "RFD 045 has no tracking issue yet: it is opened when the RFD is accepted on an open "
            "pull request that changes it. This pull request was closed without merging, but the "
            f"RFD reached [`main`]({FILE}) another way: open a pull request that edits the file "
            "and accept the RFD there. `/rfd implement` works on the tracking issue afterwards.",
        ),
        (
            Verb.APPROVE,
            Where("045", PR, Place.CLOSED_PR),
            f"RFD 045's pull request [#2]({PR.url}) is closed without merging: reopen it, then "
            "comment `/rfd approve` there.",
        ),
        (
            Verb.APPROVE,
            Where("045", PR, Place.CLOSED_PR, on_pr=True),
            "This pull request was closed without merging, and RFD 045 is not on `main`: reopen "
            "this pull request, then comment `/rfd approve` again.",
        ),
        (
            Verb.DONE,
            Where("045", PR, Place.MERGED_PR, file_url=FILE, status="Discussion", on_pr=True),
            "RFD 045 has no tracking issue yet: it is opened when the RFD is accepted on an open "
            "pull request that changes it. This pull request was merged, and the RFD's status on "
            f"[`main`]({FILE}) is Discussion: open a pull request that edits the file and accept "
            "the RFD there. `/rfd done` works on the tracking issue afterwards.",
        ),
        (
            Verb.DONE,
            Where("045", PR, Place.CLOSED_PR, file_url=FILE, status="Accepted", on_pr=True),
            f"RFD 045 is Accepted on [`main`]({FILE}) but has no tracking issue: it was accepted "
            "without the bot. **Next step:** open a pull request that edits the file and comment "
            "`/rfd accept` there: the bot extracts the RFD's plan and opens its tracking issue "
            "(the status stays Accepted). `/rfd done` works on the tracking issue afterwards.",
        ),
        (
            Verb.IMPLEMENT,
            Where("045", PR, Place.MERGED_PR, file_url=FILE, status="Draft"),
            "RFD 045 has no tracking issue yet: it is opened when the RFD is accepted on an open "
            f"pull request that changes it. RFD 045's pull request [#2]({PR.url}) was merged, and "
            f"the RFD's status on [`main`]({FILE}) is Draft: open a pull request that edits the "
            "file and accept the RFD there. `/rfd implement` works on the tracking issue "
            "afterwards.",
        ),
        (
            Verb.APPROVE,
            Where("045", PR, Place.CLOSED_PR, ISSUE, FILE, status="Accepted", brought=PR_5),
            f"RFD 045's pull request [#2]({PR.url}) was closed without merging, but the RFD "
            f"reached [`main`]({FILE}) through [#5]({PR_5.url}), and its status there is "
            "Accepted: `/rfd approve` works on an open pull request that changes it — open one "
            "that edits the file and comment it there. Its implementation is followed on "
            f"tracking issue [#12]({ISSUE.url}).",
        ),
        (
            Verb.APPROVE,
            Where(
                "045", PR, Place.CLOSED_PR, ISSUE, FILE, status="Accepted", brought=PR_5, on_pr=True
            ),
            f"This pull request was closed without merging, but the RFD reached [`main`]({FILE}) "
            f"through [#5]({PR_5.url}), and its status there is Accepted: `/rfd approve` works on "
            "an open pull request that changes it — open one that edits the file and comment it "
            f"there. Its implementation is followed on tracking issue [#12]({ISSUE.url}).",
        ),
        (
            Verb.APPROVE,
            Where("045", PR, Place.CLOSED_PR, ISSUE, FILE, status="Accepted", decided=PR_5),
            f"RFD 045's pull request [#2]({PR.url}) was closed without merging, but the RFD "
            f"reached [`main`]({FILE}) another way (it was accepted on [#5]({PR_5.url})), and its "
            "status there is Accepted: `/rfd approve` works on an open pull request that changes "
            "it — open one that edits the file and comment it there. Its implementation is "
            f"followed on tracking issue [#12]({ISSUE.url}).",
        ),
        (
            Verb.CONCERN,
            Where("045", PR, Place.CLOSED_PR, file_url=FILE, status="Discussion"),
            f"RFD 045's pull request [#2]({PR.url}) was closed without merging, but the RFD "
            f"reached [`main`]({FILE}) another way, and its status there is Discussion: "
            "`/rfd concern` works on an open pull request that changes it — open one that edits "
            "the file and comment it there.",
        ),
        (
            Verb.REFINE,
            Where("045", PR, Place.MERGED_PR, ISSUE, FILE),
            f"RFD 045 was merged in [#2]({PR.url}) and lives on [on `main`]({FILE}): `/rfd refine` "
            "works on an open pull request that changes it — open one that edits the file and "
            "comment it there. Its implementation is followed on tracking issue "
            f"[#12]({ISSUE.url}).",
        ),
    ],
)
def test_the_answer_names_the_place_and_links_it(verb: Verb, where: Where, expected: str) -> None:
    assert answer(verb, where) == expected
