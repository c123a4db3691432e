"""Setting up: ``init`` and ``new``."""

from __future__ import annotations

from pathlib import Path

import click

from bot import lifecycle, repo_setup
from bot.cli.common import on_exists_option, repo_root, resolve_exists, rfd_command, workspace
from bot.cli.output import Output
from bot.config import CONFIG_PATH
from bot.state import OnExists


@rfd_command()
@click.option("--example", is_flag=True, help="Add an example RFD to try every step on.")
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace an existing .github/rfd.toml with the detected conventions (kept as .orig).",
)
def init(out: Output, example: bool, overwrite: bool) -> int:
    """Set the repository up for RFDs: config (detected from the RFDs already there), RFD
    directory, committed state directory."""
    root = repo_root()
    had_config = (root / CONFIG_PATH).is_file()
    done = repo_setup.init(root, example=example, overwrite=overwrite)
    adopted = [] if example else _adopt_history(root, write_config=not had_config)
    out.data({"changed": [*done.changed, *adopted], "kept": done.kept})
    for line in (*done.changed, *adopted, *done.kept):
        out.line(f"  {line}")
    if not done.changed:
        out.line("  nothing to do: already set up")
    out.success(f"{root.name} is ready for RFDs — try `rfd list`")
    return 0


def _adopt_history(root: Path, *, write_config: bool) -> list[str]:
    """In a repository that has RFDs and no baseline yet, record it (``rfd adopt``): the
    statuses they have now are never gated again; ``[process]`` goes into a configuration
    init has just written, never into one the team had.  What it did, a line each."""
    from bot import baseline, discovery
    from bot.adoption import adopt
    from bot.config import load_config
    from bot.state import StateStore

    cfg = load_config(root)
    if StateStore(root, cfg).base.joinpath(baseline.FILE).exists() or not discovery.scan(root, cfg):
        return []
    done = adopt(root, cfg, write_config=write_config)
    lines = [f"recorded {done.baseline.relative_to(root).as_posix()}: the statuses of "
             f"{done.rfds} RFDs are history, never gated again"]  # fmt: skip
    if done.config_written:
        lines.append("added [process] to .github/rfd.toml as the history shows it")
    return lines


@rfd_command()
@click.argument("category")
@click.argument("title")
@click.option("--authors", default="", help="Authors line (default: your git name and email).")
@on_exists_option(tuple(OnExists), "an RFD with this name")
def new(out: Output, category: str, title: str, authors: str, on_exists: str | None) -> int:
    """Create a draft RFD from the repository's template for CATEGORY (design, decision,
    guide, process, or any its templates name)."""
    ws = workspace(out)
    o = resolve_exists(
        out,
        lambda choice: lifecycle.new_rfd(ws, category, title, authors=authors, on_exists=choice),
        on_exists,
        tuple(OnExists),
    )
    out.data({"rfd": o.rfd_id, "path": ws.rel(o.path), "created": o.created})
    out.success(o.message)
    if o.created:
        out.line(f"next: `rfd status {o.rfd_id}`, then `rfd explore {o.rfd_id}` or edit the file")
    return 0
