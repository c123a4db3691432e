"""What the status comment's Decision block says once the RFD is past its discussion."""

from __future__ import annotations

from bot.github.panels import decided
from bot.model.consensus import Approval, Ledger
from bot.model.status import Status

BLOB = "cf966eb0" + "0" * 32
SIGNED = Ledger(approvals=(Approval("hubot", BLOB, 1.0), Approval("mona", BLOB, 2.0)))


def test_an_accepted_rfd_says_with_whose_sign_offs_and_nothing_stale() -> None:
    text = "\n".join(decided(SIGNED, Status.ACCEPTED))
    assert "✅ Accepted with the sign-offs of hubot (at `cf966eb`), mona (at `cf966eb`)." in text
    assert "Ready to accept" not in text and "older revision" not in text


def test_an_implemented_rfd_still_says_it_was_accepted() -> None:
    assert decided(SIGNED, Status.IMPLEMENTED)[-1].startswith("✅ Accepted with")


def test_an_abandoned_rfd_is_not_shown_as_accepted() -> None:
    assert decided(Ledger(), Status.ABANDONED)[-1] == "Abandoned: no sign-off was recorded."
