"""``rfd decide``: the decisions record by hand (the same operations the converge step uses)."""

from __future__ import annotations

import click

from bot.cli.common import rfd_command, workspace
from bot.cli.output import Output
from bot.model.decisions import render


@rfd_command()
@click.argument("rfd")
@click.argument("action", type=click.Choice(["add", "update", "reject"]))
@click.argument("number", type=int, required=False)
@click.option("--text", help="The decision (add; optional for update).")
@click.option(
    "--status",
    type=click.Choice(["locked", "discussing"]),
    help="Locked or still under discussion (default for add: discussing).",
)
@click.option("--reason", help="Why it is rejected (required for reject).")
def decide(
    out: Output,
    rfd: str,
    action: str,
    number: int | None,
    text: str | None,
    status: str | None,
    reason: str | None,
) -> int:
    """Add, update or reject a decision in decisions.md (numbers stay stable)."""
    ws = workspace(out)
    file = ws.find(rfd)
    title = ws.document(file).title
    found = ws.store.decide(
        str(file.rfd_id),
        action,
        number=number,
        text=text,
        status=status,
        reason=reason,
        title=title,
    )
    rendered = render(found)
    out.data(
        {
            "locked": len(found.locked),
            "discussing": len(found.discussing),
            "rejected": len(found.rejected),
            "decisions": rendered,
        }
    )
    out.line(rendered.rstrip())
    out.success(
        f"decisions of RFD {file.rfd_id}: {len(found.locked)} locked, "
        f"{len(found.discussing)} discussing, {len(found.rejected)} rejected"
    )
    return 0
