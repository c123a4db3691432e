"""A recorded sign-off as its comment stands now (bot/github/followed.py): a table of edits
and deletions against the pure ``as_now``."""

from __future__ import annotations

import pytest

from bot.forge.base import Comment
from bot.github.followed import as_now
from bot.model.consensus import Approval, Concern, Fcp, Ledger, Step, trusted

OPEN = Concern(1, "mona", "Proxies may buffer", "", 1.0)
BASE = Ledger(concerns=(OPEN,))
APPROVED = Ledger(approvals=(Approval("hubot", "abc", 2.0, "hubot"),), concerns=(OPEN,))
RESOLVED = Ledger(concerns=(Concern(1, "mona", "Proxies may buffer", "", 1.0, "mona"),))
FCP = Ledger(concerns=(OPEN,), fcp=Fcp("hubot", 3.0, 10.0))
RAISED = Ledger(concerns=(OPEN, Concern(2, "mona", "Retries repeat", "", 4.0)))


def said(body: str) -> Comment:
    return Comment(id=1, body=body, url="", author="mona")


CASES = [
    # (case, the step's ledger after, the comment now (None: deleted), what counts, note)
    ("approval kept", APPROVED, said("/rfd approve"), APPROVED, ""),
    (
        "approval deleted",
        APPROVED,
        None,
        BASE,
        "the approval by hubot no longer counts: its comment was deleted",
    ),
    ("approval edited away", APPROVED, said("LGTM, later"), BASE, "no longer says `/rfd approve`"),
    ("resolve deleted", RESOLVED, None, BASE, "the resolution of concern 1 no longer counts"),
    ("resolve of another number", RESOLVED, said("/rfd resolve 2"), BASE, "`/rfd resolve`"),
    ("fcp edited away", FCP, said("/rfd approve"), BASE, "the final comment period no longer"),
    (
        "concern reworded",
        RAISED,
        said("/rfd concern Retries repeat twice"),
        Ledger(concerns=(OPEN, Concern(2, "mona", "Retries repeat twice", "", 4.0))),
        "concern 2 counts as its comment now says (edited): Retries repeat twice",
    ),
    (
        "concern deleted stays open",
        RAISED,
        None,
        RAISED,
        "concern 2 stays open although its comment was deleted",
    ),
    ("command quoted, not given", APPROVED, said("> /rfd approve\n\nno"), BASE, "no longer says"),
]


@pytest.mark.parametrize(
    ("after", "comment", "counts", "note"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_sign_off_counts_as_its_comment_stands(
    after: Ledger, comment: Comment | None, counts: Ledger, note: str
) -> None:
    step, notes = as_now(Step(BASE, after, proven=True), comment)
    assert trusted(BASE, [step]) == counts
    if note:
        (said_,) = notes.values()
        assert note in said_
    else:
        assert notes == {}
