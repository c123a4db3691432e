"""The full-text search index: Pagefind, run on the built pages (the edge to its binary).

Pagefind indexes what the RFD pages mark ``data-pagefind-body`` (the document, not the side
panels) and finds the heading above each match, so a result opens the page at its section.
It ships as the ``pagefind[extended]`` wheel (the ``site`` extra): a binary for the index and
the script the pages load — nothing is fetched at build or view time.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.core.errors import RfdError

BUNDLE = "_pagefind"
MISSING = "search is left out: Pagefind is not installed"
MISSING_HINT = "pip install 'rfd-bot[site]' (it brings the pagefind[extended] wheel)"


class SearchError(RfdError):
    """Pagefind is missing or failed."""


def executable() -> Path | None:
    """Pagefind's binary (``PAGEFIND_BINARY_PATH``, the wheels, or PATH), None when absent."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return None
    found: Path | None = get_executable()
    return found


def index(site: Path, binary: Path) -> None:
    """Build ``site/_pagefind/`` from the HTML under ``site``; SearchError on failure."""
    done = subprocess.run(
        [str(binary), "--site", str(site), "--output-subdir", BUNDLE, "--silent"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        message = f"Pagefind failed: {' '.join(detail) or done.returncode}"
        raise SearchError(message, hint="run `rfd site` again; report it with the message above")
