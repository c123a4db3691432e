"""Sign-offs on a workspace: approve, concern, resolve, start and end the final comment period.

The same operations serve ``rfd approve`` (the git identity is the actor) and
``/rfd approve`` (the commenter, authorized by :mod:`bot.github.reviewers` first).
Each reads the RFD's ledger through the state store, applies one pure step of
:mod:`bot.model.consensus` and writes it back atomically; the result names the file to commit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from bot.core import authors as author_forms
from bot.core.atomic import read_exact
from bot.core.errors import GateError, PermissionDenied, ValidationError
from bot.lifecycle.consensus_gate import Standing, block, decided, standing
from bot.lifecycle.workspace import Workspace
from bot.model import consensus
from bot.model.consensus import Ledger, same_login
from bot.model.status import Status

NOT_CONFIGURED = "this repository has no [consensus] table: nothing to sign off"
CONFIGURE = "add [consensus] with `reviewers = [...]` to .github/rfd.toml"
NOT_A_REVIEWER = "{login} is not a reviewer of this repository (consensus.reviewers: {who})"
OWN_RFD = "{login} is an author of RFD {rfd} and cannot approve it"
NOT_RESOLVER = "concern {number} is {author}'s: only its author or a maintainer resolves it"
NO_FCP_DAYS = "no final comment period is configured (consensus.fcp_days = 0)"
FCP_TOO_EARLY = "RFD {rfd} is not ready for a final comment period: {missing}"
NOT_READY = "RFD {rfd} lacks its sign-offs: {missing}"


@dataclass(frozen=True)
class SignOff:
    rfd_id: str
    changed: tuple[Path, ...]
    message: str
    ledger: Ledger
    revision: str = ""
    """The content an approval is of (a blob), which :attr:`text` names."""

    @property
    def text(self) -> str:
        """What was recorded, as the terminal says it (an approval with its revision's first
        7 digits; on GitHub the revision is shown as its commit instead)."""
        return f"{self.message} at {self.revision[:7]}" if self.revision else self.message


def _enabled(ws: Workspace) -> None:
    if not ws.config.consensus.enabled:
        raise ValidationError(NOT_CONFIGURED, hint=CONFIGURE)


def _current(ws: Workspace, query: str) -> tuple[str, str, tuple[str, ...]]:
    """``(id, revision, authors)`` of the RFD ``query`` names."""
    file = ws.find(query)
    text = read_exact(ws.path(file))
    return str(file.rfd_id), consensus.revision(text), ws.document(file).authors


def _save(ws: Workspace, rid: str, ledger: Ledger, message: str) -> SignOff:
    path = ws.store.write_consensus(rid, ledger)
    return SignOff(rid, (path,), message, ledger)


def reviewer_entry(ws: Workspace, login: str) -> str | None:
    """The ``consensus.reviewers`` entry ``login`` is (teams are checked by the caller)."""
    return next((r for r in ws.config.consensus.reviewers if same_login(r, login)), None)


def approve(ws: Workspace, query: str, login: str, *, reviewer: str = "") -> SignOff:
    """``login`` approves the RFD's current revision (``reviewer``: the team it counts for)."""
    _enabled(ws)
    rid, rev, authors = _current(ws, query)
    entry = reviewer or reviewer_entry(ws, login)
    if entry is None:
        who = ", ".join(ws.config.consensus.reviewers)
        raise PermissionDenied(NOT_A_REVIEWER.format(login=login, who=who))
    if _is_author(authors, login):
        raise PermissionDenied(OWN_RFD.format(login=login, rfd=rid))
    ledger = ws.store.read_consensus(rid)
    ledger = consensus.approve(ledger, rid, login, rev, ws.clock(), reviewer=entry)
    done = _save(ws, rid, ledger, f"{login} approved RFD {rid}")
    return replace(done, revision=rev)


def _is_author(entries: tuple[str, ...], login: str) -> bool:
    """Does the ``Authors`` field name ``login``, in any form :mod:`bot.core.authors` reads
    (on GitHub the PR's author and the commits' authors count too:
    :mod:`bot.github.authorship`)?"""
    named = author_forms.named(entries).logins
    return login.lower().lstrip("@") in named or any(
        same_login(a.split("<", 1)[0], login) for a in entries
    )


def concern(ws: Workspace, query: str, login: str, text: str, link: str = "") -> SignOff:
    """A blocking objection, numbered; it pauses a running final comment period."""
    _enabled(ws)
    rid, _, _ = _current(ws, query)
    ledger = consensus.raise_concern(ws.store.read_consensus(rid), login, text, link, ws.clock())
    number = ledger.concerns[-1].number
    paused = " (the final comment period is paused)" if ledger.fcp and ledger.fcp.paused else ""
    return _save(ws, rid, ledger, f"concern {number} raised on RFD {rid} by {login}{paused}")


def resolve(
    ws: Workspace, query: str, number: int, login: str, *, maintainer: Callable[[], bool]
) -> SignOff:
    """Concern ``number`` resolved by ``login``: its author, or a ``maintainer()`` (asked
    only when ``login`` is not the concern's author)."""
    _enabled(ws)
    rid, _, _ = _current(ws, query)
    ledger = ws.store.read_consensus(rid)
    found = next((c for c in ledger.concerns if c.number == number), None)
    if found is not None and not same_login(found.author, login) and not maintainer():
        raise PermissionDenied(NOT_RESOLVER.format(number=number, author=found.author))
    ledger = consensus.resolve(ledger, rid, number, login)
    return _save(ws, rid, ledger, f"concern {number} of RFD {rid} resolved by {login}")


def start_fcp(ws: Workspace, query: str, login: str) -> SignOff:
    """The final comment period, once the approvals are in and no concern is open."""
    _enabled(ws)
    days = ws.config.consensus.fcp_days
    if not days:
        raise ValidationError(NO_FCP_DAYS, hint="set consensus.fcp_days to a number of days")
    rid, rev, _ = _current(ws, query)
    ledger = ws.store.read_consensus(rid)
    before = standing(ws.config.consensus, ledger, rid, rev, ws.clock())
    blocking = [m for m in before.missing if "final comment period" not in m]
    if blocking:
        raise GateError(FCP_TOO_EARLY.format(rfd=rid, missing="; ".join(blocking)))
    ledger = consensus.start_fcp(ledger, rid, login, days, ws.clock())
    assert ledger.fcp is not None
    end = consensus.day(ledger.fcp.end)
    return _save(
        ws, rid, ledger, f"final comment period of RFD {rid} started by {login}: it ends {end}"
    )


def current_standing(ws: Workspace, query: str) -> Standing:
    rid, rev, _ = _current(ws, query)
    return standing(ws.config.consensus, ws.store.read_consensus(rid), rid, rev, ws.clock())


def decision(
    ws: Workspace, query: str, *, slash: bool = False, at: Callable[[str], str] | None = None
) -> list[str]:
    """The "Decision" block of the RFD (empty without a [consensus] table); ``slash``: for
    GitHub, naming slash commands; ``at``: a sign-off's revision as its commit's link.
    Past its discussion the RFD's block says what was decided (who accepted it, with whose
    sign-offs), as the ledger holds it: never "ready to accept" again."""
    if not ws.config.consensus.enabled:
        return []
    rid, rev, _ = _current(ws, query)
    ledger = ws.store.read_consensus(rid)
    status = ws.document(query).status
    if status not in (Status.DRAFT, Status.DISCUSSION):
        return list(decided(ledger, status, at))
    return block(ws.config.consensus, ledger, rid, rev, ws.clock(), slash=slash, at=at)


def check_signed_off(ws: Workspace, query: str, path: str) -> None:
    """The accept gate's human part: GateError saying what is missing and who can give it."""
    if not ws.config.consensus.enabled:
        return
    found = current_standing(ws, query)
    if not found.met:
        rid = str(ws.find(query).rfd_id)
        raise GateError(
            NOT_READY.format(rfd=rid, missing="; ".join(found.missing)),
            path=path,
            hint=f"see `rfd status {rid}`; the RFD is accepted once nothing is missing",
        )
