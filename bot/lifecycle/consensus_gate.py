"""What acceptance still needs from people, and the "Decision" block that shows it.

Pure: a :class:`~bot.config.load.ConsensusSection`, a :class:`~bot.model.consensus.Ledger`, the
RFD's current revision and the time in; what is missing (each naming who can give it)
and markdown lines out.  Logins and concern texts are untrusted: they go through
:mod:`bot.core.github_markdown` (no structure, marker or mention).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.config.load import ConsensusSection
from bot.core.github_markdown import cell, inline
from bot.model.consensus import Approval, Concern, Ledger, day, same_login
from bot.model.status import Status

HEADING = "#### Decision"
WAITING = "approvals: {have} of {need}, waiting on {who} (`/rfd approve`, or `rfd approve {rfd}`)"
OPEN_CONCERN = (
    "concern {number} by {author} is open: {text} (its author or a maintainer resolves it "
    "with `/rfd resolve {number}`, or `rfd resolve {rfd} {number}`)"
)
NO_FCP = (
    "a final comment period of {days} days: a reviewer starts it with `/rfd fcp` "
    "(or `rfd fcp {rfd}`)"
)
FCP_PAUSED = (
    "the final comment period is paused by a concern: a reviewer restarts it with `/rfd fcp`"
)
FCP_RUNNING = "the final comment period runs until {end}"


@dataclass(frozen=True)
class Standing:
    """Where the decision stands: the approvals that count, and what is missing."""

    counted: tuple[Approval, ...]
    waiting: tuple[str, ...]
    missing: tuple[str, ...]
    have: int = 0
    """Sign-offs that count (with ``approvals = "all"``: reviewers who signed)."""
    need: int = 0

    @property
    def met(self) -> bool:
        return not self.missing


def standing(cfg: ConsensusSection, ledger: Ledger, rfd: str, rev: str, now: float) -> Standing:
    """What the accept gate says of ``ledger`` at revision ``rev`` and time ``now``."""
    counted = tuple(a for a in ledger.approvals if cfg.count_older or a.revision == rev)
    waiting = tuple(r for r in cfg.reviewers if not _signed(r, counted))
    every = cfg.approvals == "all"
    need = len(cfg.reviewers) if every else int(cfg.approvals)
    have = len(cfg.reviewers) - len(waiting) if every else len(counted)
    missing: list[str] = []
    if have < need:
        who = ", ".join(inline(w) for w in waiting) or "any reviewer"
        missing.append(WAITING.format(have=have, need=need, who=who, rfd=rfd))
    missing += [_concern(c, rfd) for c in ledger.open_concerns]
    if cfg.fcp_days:
        missing += _fcp_missing(cfg, ledger, rfd, now)
    return Standing(counted, waiting, tuple(missing), have, need)


def _signed(reviewer: str, approvals: tuple[Approval, ...]) -> bool:
    return any(same_login(a.reviewer or a.login, reviewer) for a in approvals)


def _concern(concern: Concern, rfd: str) -> str:
    return OPEN_CONCERN.format(
        number=concern.number, author=inline(concern.author), text=inline(concern.text), rfd=rfd
    )


def _fcp_missing(cfg: ConsensusSection, ledger: Ledger, rfd: str, now: float) -> list[str]:
    fcp = ledger.fcp
    if fcp is None:
        return [NO_FCP.format(days=cfg.fcp_days, rfd=rfd)]
    if fcp.paused:
        return [FCP_PAUSED]
    if not fcp.elapsed(now):
        return [FCP_RUNNING.format(end=day(fcp.end))]
    return []


READY = "✅ Ready to accept."
NOT_YET = "⏳ Not ready to accept yet: {parts}."
SHORT_APPROVALS = "sign-offs {have} of {need} ({approve})"
SHORT_CONCERN = "concern {number} open ({resolve})"
SHORT_NO_FCP = "the final comment period has not started ({fcp})"
SHORT_PAUSED = "the final comment period is paused by a concern ({fcp} restarts it)"
SHORT_RUNNING = "the final comment period runs until {end}"
COMMANDS = {
    True: {"approve": "`/rfd approve`", "resolve": "`/rfd resolve {n}`", "fcp": "`/rfd fcp`"},
    False: {
        "approve": "`rfd approve {rfd}`",
        "resolve": "`rfd resolve {rfd} {n}`",
        "fcp": "`rfd fcp {rfd}`",
    },
}
"""The commands the block names: slash commands on GitHub, ``rfd`` in the terminal."""


def block(
    cfg: ConsensusSection,
    ledger: Ledger,
    rfd: str,
    rev: str,
    now: float,
    heading: str = HEADING,
    *,
    slash: bool = False,
    at: Callable[[str], str] | None = None,
) -> list[str]:
    """The "Decision" block of one RFD: sign-offs, open concerns, the final comment period,
    and in one line what acceptance still waits for (``slash``: said as GitHub commands;
    ``at``: how a sign-off's revision is shown, its blob's short sha by default)."""
    lines = [heading, "", "| reviewer | sign-off |", "|---|---|"]
    for reviewer in cfg.reviewers:
        lines.append(f"| {cell(reviewer)} | {_sign_off(reviewer, ledger, rev, at or short)} |")
    concerns = ledger.open_concerns
    if concerns:
        lines += ["", "Open concerns:", ""]
        lines += [
            f"- **Concern {c.number}** by {inline(c.author)}: {inline(c.text)}{_link(c)}"
            for c in concerns
        ]
    if ledger.fcp is not None and ledger.fcp.elapsed(now):
        lines += ["", _fcp_line(ledger, now)]
    parts = _waiting_for(cfg, ledger, rfd, rev, now, COMMANDS[slash])
    return [*lines, "", NOT_YET.format(parts="; ".join(parts)) if parts else READY]


def _waiting_for(
    cfg: ConsensusSection, ledger: Ledger, rfd: str, rev: str, now: float, commands: dict[str, str]
) -> list[str]:
    """What acceptance waits for, each part short and naming the command that moves it."""
    found = standing(cfg, ledger, rfd, rev, now)
    parts = []
    if found.have < found.need:
        approve = commands["approve"].format(rfd=rfd)
        parts.append(SHORT_APPROVALS.format(have=found.have, need=found.need, approve=approve))
    parts += [
        SHORT_CONCERN.format(
            number=c.number, resolve=commands["resolve"].format(rfd=rfd, n=c.number)
        )
        for c in ledger.open_concerns
    ]
    fcp, start = ledger.fcp, commands["fcp"].format(rfd=rfd)
    if cfg.fcp_days and fcp is None:
        parts.append(SHORT_NO_FCP.format(fcp=start))
    elif cfg.fcp_days and fcp is not None and fcp.paused:
        parts.append(SHORT_PAUSED.format(fcp=start))
    elif cfg.fcp_days and fcp is not None and not fcp.elapsed(now):
        parts.append(SHORT_RUNNING.format(end=day(fcp.end)))
    return parts


def short(revision: str) -> str:
    return f"`{revision[:7]}`"


def _sign_off(reviewer: str, ledger: Ledger, rev: str, at: Callable[[str], str]) -> str:
    mine = [a for a in ledger.approvals if same_login(a.reviewer or a.login, reviewer)]
    if not mine:
        return "waiting"
    cells = []
    for a in mine:
        older = "" if a.revision == rev else ", of an older revision"
        by = "" if same_login(a.login, reviewer) else f" by {cell(a.login)}"
        shown = at(a.revision)
        cells.append(f"✅{by} at {shown}{older}" if shown else f"✅{by}{older}")
    return "; ".join(cells)


def _link(concern: Concern) -> str:
    safe = concern.link.startswith("https://") and not re.search(r"[\s()<>\[\]]", concern.link)
    return f" — [comment]({concern.link})" if safe else ""


def _fcp_line(ledger: Ledger, now: float) -> str:
    fcp = ledger.fcp
    assert fcp is not None
    if fcp.elapsed(now):
        return f"Final comment period ended {day(fcp.end)}."
    if fcp.paused:
        return "Final comment period paused by a concern."
    return f"Final comment period ends {day(fcp.end)}."


DECIDED = "{status} with the sign-offs of {who}."
DECIDED_ALONE = "{status}: no sign-off was recorded."
ACCEPTED_BY = "✅ Accepted by {by}{commit} with the sign-offs of {who}."
ACCEPTED_BY_ALONE = "✅ Accepted by {by}{commit}: no sign-off was recorded."
AT_COMMIT = " at {link}"


def decided(
    ledger: Ledger, status: Status, at: Callable[[str], str] | None = None
) -> tuple[str, ...]:
    """The Decision block of an RFD past its discussion: who accepted it, at which commit,
    with whose sign-offs and on which revision (the sign-offs are history now: no "older
    revision", no "ready to accept"); ``at``: a revision (a blob) as a commit link."""
    revision = at or (lambda blob: f"`{blob[:7]}`")
    accepted = status in (Status.ACCEPTED, Status.IMPLEMENTED)
    if accepted and ledger.accepted is not None:
        return (HEADING, "", _accepted_by(ledger, revision))
    who = _signers(ledger, [a.login for a in ledger.approvals], revision)
    shown = "✅ Accepted" if accepted else status.value
    line = DECIDED.format(status=shown, who=who) if who else DECIDED_ALONE.format(status=shown)
    return (HEADING, "", line)


def _accepted_by(ledger: Ledger, revision: Callable[[str], str]) -> str:
    """``✅ Accepted by @hubot at <commit> with the sign-offs of @hubot (at …), @mona (at …).``
    (logins as inert text: the ledger's names never mention anyone)."""
    decision = ledger.accepted
    assert decision is not None
    link = revision(decision.revision)
    facts = {
        "by": inline(f"@{decision.by}"),
        "commit": AT_COMMIT.format(link=link) if link else "",
        "who": _signers(ledger, decision.signers, revision, mention=True),
    }
    return (ACCEPTED_BY if decision.signers else ACCEPTED_BY_ALONE).format(**facts)


def _signers(
    ledger: Ledger,
    logins: Sequence[str],
    revision: Callable[[str], str],
    *,
    mention: bool = False,
) -> str:
    """``hubot (at <commit>), mona``: each login with the revision of its sign-off, when
    the ledger holds one and the history shows its commit."""
    shown = []
    for login in logins:
        name = inline(f"@{login}" if mention else login)
        found = ledger.approval_of(login)
        rev = revision(found.revision) if found else ""
        shown.append(f"{name} (at {rev})" if rev else name)
    return ", ".join(shown)
