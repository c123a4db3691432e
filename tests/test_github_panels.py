"""What the status comment's Decision block says once the RFD is past its discussion."""

from __future__ import annotations

from bot.lifecycle.consensus_gate import decided
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


def test_an_accepted_rfd_says_who_accepted_at_which_commit_with_whose_sign_offs() -> None:
    from bot.model.consensus import accept

    ledger = accept(SIGNED, "octo-cat", "aa11" + "0" * 36, 3.0, ("hubot", "mona"))
    commits = {BLOB: "1234567" + "0" * 33, "aa11" + "0" * 36: "abcdef1" + "0" * 33}

    def at(blob: str) -> str:
        sha = commits[blob]
        return f"[`{sha[:7]}`](https://github.com/o/r/commit/{sha})"

    line = decided(ledger, Status.ACCEPTED, at)[-1]
    assert line == (
        "✅ Accepted by @\u200bocto-cat at [`abcdef1`](https://github.com/o/r/commit/abcdef1"
        + "0" * 33
        + ") with the sign-offs of @\u200bhubot (at [`1234567`](https://github.com/o/r/commit/"
        + "1234567"
        + "0" * 33
        + ")), @\u200bmona (at [`1234567`](https://github.com/o/r/commit/"
        + "1234567"
        + "0" * 33
        + "))."
    )
    assert decided(ledger, Status.IMPLEMENTED)[-1].startswith(
        "✅ Accepted by @\u200bocto-cat at `aa11000`"
    )


def test_the_accepter_and_signers_stay_text() -> None:
    """A login in the ledger never mentions, links or marks anything."""
    from bot.model.consensus import accept

    hostile = "x](https://evil)<!-- rfd-bot:status:2 -->"
    line = decided(accept(Ledger(), hostile, BLOB, 1.0, (hostile,)), Status.ACCEPTED)[-1]
    assert "](https://evil)" not in line and "<!-- rfd-bot" not in line
    assert line.startswith("✅ Accepted by @\u200bx")


def test_the_next_step_names_the_concern_and_the_missing_sign_offs_first() -> None:
    from bot.config.load import ConsensusSection
    from bot.github.status_comment import Panel, blocker, next_step
    from bot.lifecycle.consensus_gate import standing
    from bot.model.consensus import Concern

    cfg = ConsensusSection(reviewers=("hubot", "mona"), approvals="all")
    ledger = Ledger(
        approvals=(Approval("hubot", BLOB, 1.0),), concerns=(Concern(1, "mona", "Proxies buffer"),)
    )
    found = blocker(cfg, ledger, standing(cfg, ledger, "045", BLOB, 3.0))
    panel = Panel(
        "045", "Streaming exports", "u", Status.DISCUSSION, signed_off=False, blocker=found
    )
    text = next_step(panel, "rfd:review", "rfd:accept")
    assert text.startswith("Concern 1 by mona is open: mona or a maintainer resolves it")
    assert "sign-offs 1 of 2: waiting for mona (`/rfd approve`)" in text
    assert "/rfd review" not in text


def test_a_concern_names_the_maintainers_who_may_resolve_it_besides_its_author() -> None:
    from bot.config.load import ConsensusSection
    from bot.github.status_comment import blocker
    from bot.lifecycle.consensus_gate import standing
    from bot.model.consensus import Concern

    cfg = ConsensusSection(reviewers=("hubot", "mona"), approvals=1)
    ledger = Ledger(
        approvals=(Approval("hubot", BLOB, 1.0),), concerns=(Concern(1, "mona", "Proxies buffer"),)
    )
    found = standing(cfg, ledger, "045", BLOB, 3.0)
    named = blocker(cfg, ledger, found, ("Mona", "octocat", "Codertocat"))
    assert named == (
        "concern 1 by mona is open: mona or a maintainer (Codertocat, octocat) resolves it "
        "(`/rfd resolve 1`)"
    )  # mona herself is not offered twice
    alone = blocker(cfg, ledger, found, ("mona",))
    assert alone.startswith("concern 1 by mona is open: mona or a maintainer resolves it")


def test_missing_sign_offs_name_the_reviewers_when_anyone_of_them_may_sign() -> None:
    from bot.config.load import ConsensusSection
    from bot.github.status_comment import blocker
    from bot.lifecycle.consensus_gate import standing

    cfg = ConsensusSection(reviewers=("hubot", "mona", "@octo-org/architects"), approvals=1)
    found = blocker(cfg, Ledger(), standing(cfg, Ledger(), "045", BLOB, 3.0))
    assert "waiting for" in found and "any reviewer" not in found
    assert "hubot" in found and "mona" in found and "@\u200bocto-org/architects" in found


def test_many_people_are_named_up_to_eight_then_counted() -> None:
    from bot.config.schema import Config
    from bot.github.status_comment import People, named, who_of

    logins = [f"dev{n:02}" for n in range(11, 0, -1)]
    assert named(logins) == ("dev01, dev02, dev03, dev04, dev05, dev06, dev07, dev08 and 3 more")
    assert named(["@github/security"]) == "@\u200bgithub/security"  # never a mention
    cfg = Config()
    who = who_of(cfg, People(("hubot", "Codertocat"), ()))
    assert who.review == "Codertocat, hubot (write access or more)"
    assert who.accept == "the same people, other than the RFD's author"
    assert who_of(cfg, None).review == "people with write access or more"


def test_an_implementation_review_is_not_listed_as_a_dismissed_one() -> None:
    from bot.config.discovery import RfdFile
    from bot.forge.base import Comment
    from bot.github.checkout import ChangedRfd
    from bot.github.review_post import posted_reviews
    from bot.github.status_comment import Row, review_entries
    from bot.model.ids import RfdId

    marker = "<!-- rfd-bot:review:045:aaaaaaaaaaaa -->"
    saved = "<sub>of `aaaaaaaaaaaa` · saved as `docs/rfd/.state/045/{dir}/17.md`</sub>"
    posted = posted_reviews(
        [
            Comment(n, f"{marker}\nText.\n\n{saved.format(dir=d)}", f"u/{n}")
            for n, d in ((1, "impl-reviews"), (2, "reviews"))
        ]
    )
    row = Row(ChangedRfd(RfdFile(RfdId.parse("045"), "x", "docs/rfd/045-x.md"), "modified"))
    (entry,) = review_entries(row, posted, "a" * 40)
    assert entry.url == "u/2" and entry.dismissed  # the design review whose file is gone
