"""Reviews and phases: ``review``, ``dismiss``, ``phase``."""

from __future__ import annotations

from pathlib import Path

import click

from bot import phases
from bot import review as reviewing
from bot.cli.common import rfd_command, workspace
from bot.cli.output import Output
from bot.errors import ValidationError


@rfd_command()
@click.argument("rfd")
@click.option("--model", help="Model alias or id (default: the review step's model).")
def review(out: Output, rfd: str, model: str | None) -> int:
    """Review the RFD (Discussion) or its implementation (Accepted); save the review."""
    ws = workspace(out)
    if ws.llm.offline and ws.llm_reason:
        out.line(ws.llm_reason, style="yellow")
    o = reviewing.review(ws, rfd, model=model)
    out.data(
        {
            "path": ws.rel(o.path),
            "kind": o.review.kind,
            "findings": len(o.review.findings),
            "model": o.model,
            "cost_usd": o.cost_usd,
            "review": o.text,
        }
    )
    out.markdown(o.text)
    out.success(o.message)
    return 0


def parse_selection(items: tuple[str, ...]) -> list[int] | str:
    if [i.lower() for i in items] == ["all"]:
        return "all"
    try:
        return [int(i) for i in items]
    except ValueError:
        raise ValidationError(
            f"cannot dismiss {' '.join(items)!r}",
            hint="give review numbers as listed by `rfd status` (e.g. `1 3`) or `all`",
        ) from None


@rfd_command()
@click.argument("rfd")
@click.argument("which", nargs=-1, required=True)
@click.option("--impl", is_flag=True, help="Dismiss implementation reviews instead.")
def dismiss(out: Output, rfd: str, which: tuple[str, ...], impl: bool) -> int:
    """Delete reviews that are addressed: numbers from `rfd status`, or `all`."""
    ws = workspace(out)
    selection = parse_selection(which)
    o = reviewing.dismiss(ws, rfd, selection, impl=impl)  # type: ignore[arg-type]
    out.data({"dismissed": [ws.rel(p) for p in o.dismissed]})
    for p in o.dismissed:
        out.line(f"Dismissed {ws.rel(p)}")
    out.success(o.message)
    return 0


@rfd_command()
@click.argument("rfd")
@click.argument("action", type=click.Choice(["done"]))
@click.argument("number", metavar="PHASE")
@click.option(
    "--summary",
    "summary_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Markdown file saying what the phase delivered ('-' for stdin).",
)
def phase(out: Output, rfd: str, action: str, number: str, summary_file: Path) -> int:
    """Record a phase implemented by hand (phases/<label>.md: 1, 0, 3a, B as the plan names
    it) and tick it on the tracking issue."""
    ws = workspace(out)
    o = phases.phase_done(ws, rfd, number, summary_file.read_text(encoding="utf-8"))
    out.data(
        {
            "rfd": o.rfd_id,
            "phase": o.label,
            "position": o.number,
            "done": o.done,
            "total": o.total,
            "issue": o.issue.number if o.issue else None,
        }
    )
    out.success(o.message)
    return 0
