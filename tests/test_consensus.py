"""The sign-off ledger and the gate, as pure functions (bot/model/consensus.py,
bot/lifecycle/consensus_gate.py)."""

from __future__ import annotations

import pytest

from bot.config.load import ConsensusSection
from bot.core.errors import ParseError, ValidationError
from bot.lifecycle.consensus_gate import block, standing
from bot.model import consensus
from bot.model.consensus import DAY, Ledger

TEAM = "@org/architects"
CFG = ConsensusSection(reviewers=("alice", "bob", TEAM), approvals=2, fcp_days=3)


def approved(*who: tuple[str, str], rev: str = "r1") -> Ledger:
    ledger = Ledger()
    for login, entry in who:
        ledger = consensus.approve(ledger, "045", login, rev, 0, reviewer=entry)
    return ledger


def test_the_revision_is_the_git_blob_sha() -> None:
    assert consensus.revision("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def test_approving_twice_at_one_revision_is_refused_but_a_new_revision_renews() -> None:
    ledger = approved(("alice", "alice"))
    with pytest.raises(ValidationError, match="alice already approved RFD 045"):
        consensus.approve(ledger, "045", "alice", "r1", 1)
    renewed = consensus.approve(ledger, "045", "Alice", "r2", 1)
    assert [(a.login, a.revision) for a in renewed.approvals] == [("Alice", "r2")]


@pytest.mark.parametrize(
    ("cfg", "ledger", "missing"),
    [
        (CFG, Ledger(), "approvals: 0 of 2, waiting on alice, bob, @\u200borg/architects"),
        (CFG, approved(("alice", "alice"), ("mona", TEAM)), "a final comment period of 3 days"),
        (
            ConsensusSection(reviewers=("alice", TEAM), approvals="all"),
            approved(("alice", "alice")),
            "approvals: 1 of 2, waiting on @\u200borg/architects",
        ),
        (
            ConsensusSection(reviewers=("alice", "bob"), approvals=1, count_older=False),
            approved(("alice", "alice"), rev="r0"),
            "approvals: 0 of 1",
        ),
    ],
    ids=["nobody yet", "approvals in, no FCP", "all: a team counts once", "older not counted"],
)
def test_what_acceptance_still_needs(cfg: ConsensusSection, ledger: Ledger, missing: str) -> None:
    found = standing(cfg, ledger, "045", "r1", 0)
    assert not found.met
    assert any(line.startswith(missing) for line in found.missing), found.missing


def test_a_concern_blocks_and_pauses_the_fcp_until_restarted() -> None:
    ledger = approved(("alice", "alice"), ("bob", "bob"))
    ledger = consensus.start_fcp(ledger, "045", "bob", 3, now=0)
    assert standing(CFG, ledger, "045", "r1", 3 * DAY).met
    ledger = consensus.raise_concern(ledger, "carol", "too  slow", "", now=DAY)
    found = standing(CFG, ledger, "045", "r1", 10 * DAY)
    assert found.missing[0].startswith("concern 1 by carol is open: too slow")
    assert "paused" in found.missing[1]
    ledger = consensus.resolve(ledger, "045", 1, "carol")
    ledger = consensus.start_fcp(ledger, "045", "bob", 3, now=10 * DAY)
    assert not standing(CFG, ledger, "045", "r1", 12 * DAY).met
    assert standing(CFG, ledger, "045", "r1", 13 * DAY).met


def test_resolving_an_unknown_or_resolved_concern_says_which_are_open() -> None:
    ledger = consensus.raise_concern(Ledger(), "carol", "why", "", now=0)
    with pytest.raises(ValidationError, match="has no concern 2") as err:
        consensus.resolve(ledger, "045", 2, "carol")
    assert err.value.hint == "open: 1"
    ledger = consensus.resolve(ledger, "045", 1, "carol")
    with pytest.raises(ValidationError, match="already resolved by carol"):
        consensus.resolve(ledger, "045", 1, "bob")


def test_a_concern_cannot_become_structure_a_marker_or_a_mention() -> None:
    from markdown_it import MarkdownIt

    text = "x\n\n# heading <!-- rfd-bot:status:2 --> @org/team\n| a | b |"
    ledger = consensus.raise_concern(Ledger(), "bob", text, "https://github.com/c/1", now=0)
    shown = "\n".join(block(CFG, ledger, "045", "r1", 0))
    html = MarkdownIt("commonmark").enable("table").render(shown)
    assert html.count("<h4>") == 1 and "<h1>" not in html and html.count("<table>") == 1
    assert "<!-- rfd-bot" not in shown and "@org/team" not in shown


def test_the_block_shows_each_reviewer_open_concerns_and_the_fcp_end() -> None:
    ledger = approved(("alice", "alice"), rev="r0")
    link = "https://github.com/c/1"
    ledger = consensus.raise_concern(ledger, "bob", "no <b>rollback</b>", link, now=0)
    lines = block(CFG, ledger, "045", "r1", 0)
    assert "| alice | ✅ at `r0`, of an older revision |" in lines
    assert "| bob | waiting |" in lines
    concern = (
        "- **Concern 1** by bob: no <\u200bb>rollback<\u200b/b> — [comment](https://github.com/c/1)"
    )
    assert concern in lines


def test_the_file_round_trips_and_a_broken_one_names_itself() -> None:
    ledger = consensus.start_fcp(approved(("alice", "alice")), "045", "alice", 3, now=5)
    assert consensus.loads(consensus.dumps(ledger), "c.json") == ledger
    with pytest.raises(ParseError, match=r"approval\.login must be str") as err:
        consensus.loads('{"approvals": [{"login": 1}], "concerns": []}', "c.json")
    assert err.value.path == "c.json"


def test_the_acceptance_round_trips_and_earlier_ledgers_keep_their_bytes() -> None:
    """A ledger written before any acceptance has no ``accepted`` key (its git blob, which the
    bot's sign-off commits are checked against, is unchanged); a broken one names the key."""
    signed = approved(("alice", "alice"), ("bob", "bob"))
    assert '"accepted"' not in consensus.dumps(signed)
    decided = consensus.accept(signed, "carol", "r2", 9, ("alice", "bob"))
    assert consensus.loads(consensus.dumps(decided), "c.json") == decided
    assert decided.accepted == consensus.Acceptance("carol", "r2", 9, ("alice", "bob"))
    broken = '{"approvals": [], "concerns": [], "accepted": {"by": "x", "revision": "r", '
    with pytest.raises(ParseError, match=r"acceptance\.signers must be a list of logins"):
        consensus.loads(broken + '"at": 1, "signers": "x"}}', "c.json")
    with pytest.raises(ParseError, match=r"acceptance\.by must be str"):
        consensus.loads(broken.replace('"x"', "1") + '"at": 1}}', "c.json")
