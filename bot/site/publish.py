"""``rfd init --site``: the workflow that publishes the site on GitHub Pages, and the site's
address in ``.github/rfd.toml`` (``[site] url``) so the bot's texts can link to RFD pages."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from bot.config.load import CONFIG_PATH
from bot.lifecycle.workflow_setup import Source
from bot.state import atomic_write

WORKFLOW_PATH = ".github/workflows/rfd-site.yml"
WROTE = "created {path} (rfd site on pushes to `{branch}`, deployed to GitHub Pages)"
KEPT = "kept {path}: it exists already"
URL_ADDED = "added [site] url = {url} to .github/rfd.toml"
PAGES_NEXT = 'next, on GitHub: Settings → Pages → Source: "GitHub Actions"'


def render(src: Source, branch: str) -> str:
    text = resources.files("bot.site").joinpath("workflow.yml").read_text(encoding="utf-8")
    return text.replace("__DEFAULT_BRANCH__", branch).replace("__SOURCE__", f"{src.repo}@{src.ref}")


def write_workflow(root: Path, src: Source, branch: str) -> str:
    """Write the Pages workflow unless one exists; the line saying what happened."""
    target = root / WORKFLOW_PATH
    if target.exists():
        return KEPT.format(path=WORKFLOW_PATH)
    atomic_write(target, render(src, branch))
    return WROTE.format(path=WORKFLOW_PATH, branch=branch)


def pages_url(repository: str) -> str:
    """Where GitHub Pages serves a repository's site: ``https://owner.github.io/name/``."""
    owner, _, name = repository.partition("/")
    if name.lower() == f"{owner.lower()}.github.io":
        return f"https://{owner.lower()}.github.io/"
    return f"https://{owner.lower()}.github.io/{name}/"


def add_url(root: Path, url: str) -> str | None:
    """Append ``[site] url`` to the configuration unless it has a ``[site]`` table already."""
    path = root / CONFIG_PATH
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if any(line.strip().startswith("[site]") for line in text.splitlines()):
        return None
    lead = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    atomic_write(path, f'{text}{lead}[site]\nurl = "{url}"\n')
    return URL_ADDED.format(url=url)
