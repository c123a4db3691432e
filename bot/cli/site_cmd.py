"""``rfd site``: the static site of the whole corpus (:mod:`bot.site`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from bot.cli.common import repo_root, rfd_command
from bot.cli.output import Output
from bot.site import DEFAULT_OUT


@rfd_command("site")
@click.option(
    "--out",
    "out_dir",
    default=DEFAULT_OUT,
    show_default=True,
    help="Directory to build into (relative to the repository root).",
)
@click.option("--title", default="", help="The site's name (default: the repository's).")
@click.option("--no-search", is_flag=True, help="Leave the Pagefind search index out.")
def site(out: Output, out_dir: str, title: str, no_search: bool) -> int:
    """Build the RFD site: board, a page per RFD, graph, search, rfds.json, Atom feed."""
    from bot.lifecycle.repo_setup import exposed_output
    from bot.lifecycle.workflow_setup import origin_repository
    from bot.site import search
    from bot.site.build import build_site

    root = repo_root()
    repository = os.environ.get("GITHUB_REPOSITORY") or origin_repository(root)
    target = (root / out_dir).resolve()
    built = build_site(root, target, repository=repository, title=title, search_index=not no_search)
    out.data(
        {
            "out": str(built.out),
            "rfds": built.rfds,
            "files": built.files,
            "written": built.written,
            "removed": built.removed,
            "search": built.search,
            "seconds": built.seconds,
        }
    )
    exposed = exposed_output(root, built.out)
    if exposed:
        out.warning(exposed)
    if not no_search and not built.search:
        out.warning(f"{search.MISSING} — {search.MISSING_HINT}")
    timing = ", ".join(f"{k} {v:.1f} s" for k, v in built.seconds.items())
    out.success(
        f"{built.rfds} RFDs → {_shown(root, built.out)}/ ({built.written} of "
        f"{built.files} files written, {built.removed} removed; {timing})"
    )
    return 0


def _shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
