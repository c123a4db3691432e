"""Adopting an existing RFD repository: ``rfd adopt`` and ``rfd track``."""

from __future__ import annotations

import click

from bot.cli.common import configuration, repo_root, rfd_command, workspace
from bot.cli.output import Output
from bot.config.load import CONFIG_PATH
from bot.core.text import plural


@rfd_command()
def adopt(out: Output) -> int:
    """Record the adoption baseline and the process rules the history shows."""
    from bot.lifecycle.adoption import PROCESS_KEPT
    from bot.lifecycle.adoption import adopt as adopting

    root = repo_root()
    done = adopting(root, configuration(root))
    baseline = done.baseline.relative_to(root).as_posix()
    out.data(
        {
            "baseline": baseline,
            "rfds": done.rfds,
            "findings": done.findings,
            "config_written": done.config_written,
            "process": {s.key: s.value for s in done.settings},
        }
    )
    out.line(f"{baseline}: the status of {done.rfds} RFDs, never gated again")
    if done.findings:
        out.line(
            f"{baseline}: {plural(done.findings, 'lint finding')} from before adoption, "
            "not reported again (new ones are)"
        )
    if done.config_written:
        out.line(f"{CONFIG_PATH}: [process] as the history shows it:")
    else:
        out.line(PROCESS_KEPT.format(config=CONFIG_PATH))
    for setting in done.settings:
        out.line(f"  {setting.toml()}")
    out.success(f"commit {baseline} and {CONFIG_PATH}")
    return 0


@rfd_command()
@click.argument("rfd")
def track(out: Output, rfd: str) -> int:
    """Make a legacy Accepted RFD trackable: extract its plan into plan.json."""
    from bot.lifecycle.legacy import track as tracking

    ws = workspace(out)
    done = tracking(ws, rfd)
    out.data(
        {
            "rfd": done.rfd_id,
            "plan": ws.rel(done.path),
            "phases": [p.to_dict() for p in done.phases],
        }
    )
    out.success(done.message)
    return 0
