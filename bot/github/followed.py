"""Sign-off comments as they stand now: their edits and deletions followed.

Each sign-off the bot recorded came from a comment, which its commit names
(``Rfd-Bot-Event: c<comment id>``).  GitHub keeps that comment as it was last written, and
lists it no more once deleted; the comment list each run reads is what counts:

- an approval, a resolution or a final comment period whose comment was deleted, or edited
  so that it no longer gives that command, no longer counts;
- a concern counts as its comment says now (its text edited, noted as such);
- a concern whose comment was deleted or edited into something else stays open: anyone with
  write access can edit or delete another person's comment and GitHub does not say who, so
  following a comment only ever takes away what lets an RFD pass, never what blocks it.

A note for each entry that changed says so (the status comment and the reply show it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from bot.forge.base import Comment
from bot.github.checkout import Checkout, _repo, _run
from bot.github.commands import Command, Verb, parse
from bot.model.consensus import FORGED_APPROVAL, FORGED_CONCERN, FORGED_FCP, Concern, Ledger, Step

_EVENT = re.compile(r"c(?P<id>\d{1,20})")
GONE = "its comment was deleted"
EDITED = "its comment was edited and no longer says `/rfd {verb}`"
WITHDRAWN = "{what} no longer counts: {why}"
STAYS_OPEN = (
    "concern {number} stays open although {why} (its author or a maintainer resolves it with "
    "`/rfd resolve {number}`)"
)
STAYS = " stays open"
"""The end of the key of a note on a concern kept open (no ledger change names it)."""
REWORDED = "concern {number} counts as its comment now says (edited): {text}"


def follow(
    comments: Callable[[], Sequence[Comment]],
    checkout: Checkout,
    steps: list[Step],
    shas: list[str],
) -> tuple[list[Step], dict[str, str]]:
    """``steps`` (the bot's commits ``shas``) as the comments that asked for them stand now,
    and a note for each entry that changed, keyed by the words
    :func:`bot.model.consensus.forged` uses for it."""
    out: list[Step] = []
    notes: dict[str, str] = {}
    for step, sha in zip(steps, shas, strict=True):
        cid = _event_comment(checkout, sha) if step.proven else None
        if cid is None:
            out.append(step)
            continue
        said = next((c for c in comments() if c.id == cid), None)
        now, changed = as_now(step, said)
        out.append(now)
        notes.update(changed)
    return out, notes


def as_now(step: Step, comment: Comment | None) -> tuple[Step, dict[str, str]]:
    """``step`` as ``comment`` (None: deleted) says now; pure."""
    commands = parse(comment.body).commands if comment is not None else ()
    why = GONE if comment is None else ""
    before, after = step.before, step.after
    for approval in (a for a in after.approvals if a not in before.approvals):
        if not _says(commands, Verb.APPROVE):
            key = FORGED_APPROVAL.format(login=approval.login)
            what = f"the approval by {approval.login}"
            return _dropped(step), {key: WITHDRAWN.format(what=what, why=why or _edited("approve"))}
    for concern in _resolved(before, after):
        if not _says(commands, Verb.RESOLVE, concern.number):
            what = f"the resolution of concern {concern.number}"
            note = WITHDRAWN.format(what=what, why=why or _edited("resolve"))
            return _dropped(step), {FORGED_CONCERN.format(number=concern.number): note}
    if after.fcp is not None and after.fcp != before.fcp and not _says(commands, Verb.FCP):
        note = WITHDRAWN.format(what="the final comment period", why=why or _edited("fcp"))
        return _dropped(step), {FORGED_FCP: note}
    return _concerns_now(step, commands, why)


def _concerns_now(step: Step, commands: Iterable[Command], why: str) -> tuple[Step, dict[str, str]]:
    known = {c.number for c in step.before.concerns}
    new = [c for c in step.after.concerns if c.number not in known]
    if not new:
        return step, {}
    (concern,) = new[:1]
    text = next((c.text for c in commands if c.verb is Verb.CONCERN), None)
    if text is None:
        note = STAYS_OPEN.format(number=concern.number, why=why or _edited("concern"))
        return step, {f"concern {concern.number}{STAYS}": note}
    text = " ".join(text.split())
    if text == concern.text:
        return step, {}
    edited = tuple(replace(c, text=text) if c is concern else c for c in step.after.concerns)
    note = REWORDED.format(number=concern.number, text=text)
    return replace(step, after=replace(step.after, concerns=edited)), {
        FORGED_CONCERN.format(number=concern.number): note
    }


def _says(commands: Iterable[Command], verb: Verb, number: int | None = None) -> bool:
    return any(
        c.verb is verb and (number is None or number in (c.selection or ())) for c in commands
    )


def _resolved(before: Ledger, after: Ledger) -> list[Concern]:
    was = {c.number: c for c in before.concerns}
    return [c for c in after.concerns if not c.open and c.number in was and was[c.number].open]


def _dropped(step: Step) -> Step:
    return replace(step, proven=False)


def _edited(verb: str) -> str:
    return EDITED.format(verb=verb)


def _event_comment(checkout: Checkout, sha: str) -> int | None:
    """The comment whose command made the bot's commit ``sha`` (its trailer), if any."""
    out = _run(
        _repo(checkout.root),
        {},
        "log",
        "-1",
        "--format=%(trailers:key=Rfd-Bot-Event,valueonly)",
        "--end-of-options",
        sha,
    ).strip()
    match = _EVENT.fullmatch(out.splitlines()[-1].strip()) if out else None
    return int(match["id"]) if match else None
