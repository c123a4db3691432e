"""``rfd approve``, ``rfd concern``, ``rfd resolve``, ``rfd fcp``: sign-offs by hand.

The actor is the git identity (``user.name``): name yourself in ``consensus.reviewers``
by the login your git ``user.name`` holds.  The ledger is written to the RFD's state
directory; commit it with the RFD.
"""

from __future__ import annotations

import click

from bot.cli.common import rfd_command, workspace
from bot.cli.output import Output
from bot.core.errors import ValidationError
from bot.lifecycle import signoff
from bot.lifecycle.workspace import Workspace

NO_IDENTITY = "no git identity to sign with"
SET_IDENTITY = "set it with `git config user.name <your GitHub login>`"


def _actor(ws: Workspace) -> str:
    author = ws.vcs.author() if ws.vcs is not None else ""
    name = author.split("<", 1)[0].strip()
    if not name:
        raise ValidationError(NO_IDENTITY, hint=SET_IDENTITY)
    return name


def _done(out: Output, ws: Workspace, result: signoff.SignOff) -> int:
    out.data(
        {
            "rfd": result.rfd_id,
            "message": result.text,
            "files": [ws.rel(p) for p in result.changed],
        }
    )
    for line in signoff.decision(ws, result.rfd_id):
        out.line(line)
    out.success(f"{result.text}; commit {', '.join(ws.rel(p) for p in result.changed)}")
    return 0


@rfd_command()
@click.argument("rfd")
def approve(out: Output, rfd: str) -> int:
    """Sign off on the RFD at its current revision (you must be one of its reviewers)."""
    ws = workspace(out)
    return _done(out, ws, signoff.approve(ws, rfd, _actor(ws)))


@rfd_command()
@click.argument("rfd")
@click.argument("text")
def concern(out: Output, rfd: str, text: str) -> int:
    """Raise a blocking concern (it pauses a running final comment period)."""
    ws = workspace(out)
    return _done(out, ws, signoff.concern(ws, rfd, _actor(ws), text))


@rfd_command()
@click.argument("rfd")
@click.argument("number", type=click.IntRange(min=1))
def resolve(out: Output, rfd: str, number: int) -> int:
    """Resolve a concern by its number (locally anyone with commit access is a maintainer)."""
    ws = workspace(out)
    return _done(out, ws, signoff.resolve(ws, rfd, number, _actor(ws), maintainer=lambda: True))


@rfd_command()
@click.argument("rfd")
def fcp(out: Output, rfd: str) -> int:
    """Start the final comment period (the approvals in, no concern open)."""
    ws = workspace(out)
    return _done(out, ws, signoff.start_fcp(ws, rfd, _actor(ws)))
