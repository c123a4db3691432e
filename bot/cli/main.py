"""Entry point of ``rfd``: a lazy click group (commands import only what they need)."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence

import click

from bot import __version__
from bot.cli.commands import COMMANDS, load
from bot.cli.common import run

DID_YOU_MEAN = "No such command {name!r}. Did you mean {close}?"


def _close(name: str) -> list[str]:
    """Commands close to a mistyped ``name``; those with its first letter when there are any
    (a typo seldom changes the first letter: ``lsit`` is ``list`` or ``lint``, not ``site``)."""
    close = difflib.get_close_matches(name, COMMANDS, n=3, cutoff=0.6)
    same = [c for c in close if c[:1] == name[:1]]
    return same or close


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, with "did you mean" for a mistyped command."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            close = _close(name)
            if close:
                ctx.fail(DID_YOU_MEAN.format(name=name, close=" or ".join(map(repr, close))))
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return load(name) if name in COMMANDS else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click's, from :data:`COMMANDS`: click's imports every command for its line."""
        width = formatter.width - 6 - max(map(len, COMMANDS))
        rows = [
            (name, click.Command(name, help=COMMANDS[name]).get_short_help_str(width))
            for name in self.list_commands(ctx)
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rfd")
@click.option(
    "-C",
    "--repo",
    "repo",
    type=click.Path(file_okay=False),
    default=".",
    help="Repository to work in (default: the current directory).",
)
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set a configuration key for this run (the command-line layer, applied last).",
)
@click.pass_context
def cli(ctx: click.Context, repo: str, assignments: tuple[str, ...]) -> None:
    """Run RFDs through explore → converge → draft → review → refine → accept → implement → done."""
    ctx.obj = {"repo": repo, "set": assignments}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code: 0 ok, 1 user error, 2 usage error."""
    return run(cli, list(argv) if argv is not None else sys.argv[1:])
