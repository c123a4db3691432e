"""``rfd site``: read the corpus, render every file, write what changed, index for search.

A rebuild writes only the files whose content changed (an unchanged page keeps its bytes and
its time stamp) and removes the pages of RFDs that are gone.  The output directory carries a
marker file: a directory that has other files and no marker is refused, never emptied.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pygments.formatters import HtmlFormatter

from bot.config.load import load_config
from bot.core.errors import RfdError
from bot.site import graph, search
from bot.site.corpus import read_corpus
from bot.site.history import read_history
from bot.site.markdown import render_all
from bot.site.pages import Site, render_site

MARKER = ".rfd-site"
CACHE = ".rfd-site-cache.json"
READ_CACHE = ".rfd-site-read.json"
STATIC = ("site.css", "site.js", "favicon.svg")
GENERATED_DIRS = ("rfd", "board")
NOT_A_SITE = "{out} has files and was not built by `rfd site`"
NOT_A_SITE_HINT = "choose a new or empty directory with --out (nothing there is removed)"


class SiteError(RfdError):
    """The site cannot be written where it was asked."""


@dataclass
class Built:
    out: Path
    rfds: int
    files: int
    written: int
    removed: int
    search: bool
    seconds: dict[str, float] = field(default_factory=dict)


def build_site(
    root: Path,
    out: Path,
    *,
    repository: str | None = None,
    title: str = "",
    search_index: bool = True,
) -> Built:
    """Build the site of the repository at ``root`` into ``out``."""
    clock: dict[str, float] = {}
    start = time.perf_counter()
    check_out(out)
    cfg = load_config(root)
    corpus = read_corpus(root, repository=repository, cache=out / READ_CACHE)
    clock["read"] = _lap(start)
    history = read_history(root, cfg.rfd_dir, cfg.state_root)
    clock["history"] = _lap(start, clock)
    site = Site(corpus, graph.build(corpus.rfds), history, title or f"{root.name} · RFDs")
    binary = search.executable() if search_index else None
    site.search = binary is not None
    docs = [(r.path, r.text) for r in corpus.rfds]
    rendered = render_all(docs, site.pages, site.blob_base, out / CACHE, site.numbers)
    clock["markdown"] = _lap(start, clock)
    files = dict(render_site(site, lambda r: rendered[r.path]))
    files.update(static_files())
    clock["render"] = _lap(start, clock)
    written = write(out, files)
    removed = prune(out, files)
    clock["write"] = _lap(start, clock)
    if binary is not None:
        search.index(out, binary)
        clock["search"] = _lap(start, clock)
    return Built(out, len(corpus.rfds), len(files), written, removed, binary is not None, clock)


def _lap(start: float, clock: dict[str, float] | None = None) -> float:
    return round(time.perf_counter() - start - sum((clock or {}).values()), 3)


def check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise SiteError(NOT_A_SITE.format(out=out), hint=NOT_A_SITE_HINT)
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise SiteError(NOT_A_SITE.format(out=out), hint=NOT_A_SITE_HINT)


def static_files() -> dict[str, str]:
    """The stylesheet, the script and the code colours (Pygments, light and dark)."""
    folder = resources.files("bot.site").joinpath("static")
    files = {f"static/{name}": folder.joinpath(name).read_text(encoding="utf-8") for name in STATIC}
    files["static/highlight.css"] = highlight_css()
    files[MARKER] = "built by `rfd site`: a rebuild replaces the files here\n"
    return files


def highlight_css() -> str:
    light: str = HtmlFormatter(style="default").get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    dark: str = HtmlFormatter(style="github-dark").get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    dark_rules = "\n".join(line for line in dark.splitlines() if line.startswith(".highlight ."))
    scoped = dark_rules.replace(".highlight .", ':root[data-theme="dark"] .highlight .')
    media = dark_rules.replace(".highlight .", ':root:not([data-theme="light"]) .highlight .')
    return f"{light}\n{scoped}\n@media (prefers-color-scheme: dark) {{\n{media}\n}}\n"


def write(out: Path, files: dict[str, str]) -> int:
    """Write each file whose content differs from what is there; how many were written."""
    written = 0
    made: set[Path] = set()
    for rel, text in files.items():
        target = out / rel
        data = text.encode("utf-8")
        try:
            if target.read_bytes() == data:
                continue
        except OSError:
            pass
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_bytes(data)  # generated: a failed write is mended by the next build
        written += 1
    return written


def prune(out: Path, files: Iterable[str]) -> int:
    """Remove the generated pages that this build did not produce (RFDs gone, fewer pages)."""
    keep = set(files)
    removed = 0
    for folder in GENERATED_DIRS:
        for page in (out / folder).glob("*.html"):
            if f"{folder}/{page.name}" not in keep:
                page.unlink()
                removed += 1
    return removed
