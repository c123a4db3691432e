"""Setting up: ``init`` and ``new``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bot.cli.common import (
    configuration,
    on_exists_option,
    repo_root,
    resolve_exists,
    rfd_command,
    workspace,
)
from bot.cli.output import Output
from bot.config.load import CONFIG_PATH, load_config
from bot.core.errors import RfdError
from bot.lifecycle import lifecycle, repo_setup
from bot.state import OnExists

if TYPE_CHECKING:
    from bot.config.action_pin import Advice
    from bot.lifecycle.workflow_setup import Source

AFTER_LABELS = (
    'for `/rfd implement` tick "Allow GitHub Actions to create and approve pull requests" '
    "(Settings → Actions → General); add the ANTHROPIC_API_KEY secret (or OPENAI_API_KEY and "
    "the RFD_BASE_URL variable) — `rfd help bot` says how"
)
GITHUB_NEXT = (
    "next, on GitHub: commit and push the workflow; create the labels {labels} (Settings → "
    "Labels, or run this again with RFD_GITHUB_TOKEN set); " + AFTER_LABELS
)
GITHUB_NEXT_LABELLED = "next, on GitHub: commit and push the workflow; " + AFTER_LABELS


_BOT_WORKFLOW = ".github/workflows/rfd.yml"
"""Where the bot's workflow is written (``workflow_setup.WORKFLOW_PATH``, not imported)."""
NOTHING_WRITTEN = "rfd init wrote nothing: the repository is as it was; {what}, then run it again"


@rfd_command()
@click.option("--example", is_flag=True, help="Add an example RFD to try every step on.")
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace an existing .github/rfd.toml with the detected conventions (kept as .orig).",
)
@click.option("--github", is_flag=True, help="Also write the bot's workflow, pinned to a release.")
@click.option("--site", is_flag=True, help="Also write the workflow that publishes `rfd site`.")
@click.option("--action-repo", default=None, help="Where rfd-bot's action lives (OWNER/NAME).")
@click.option("--action-ref", default=None, help="The release tag or commit sha to pin it to.")
def init(
    out: Output,
    example: bool,
    overwrite: bool,
    github: bool,
    site: bool,
    action_repo: str | None,
    action_ref: str | None,
) -> int:
    """Set the repository up for RFDs: config (detected from the RFDs already there), RFD
    directory, committed state directory; ``--github`` adds the bot's workflow and labels.
    All of it or nothing: when a step fails, every file it wrote is put back."""
    from bot.core.atomic import all_or_nothing

    root = repo_root(required=False)
    had_config = (root / CONFIG_PATH).is_file()
    with _nothing_on_failure():
        src = _checked(root, had_config, github, site, action_repo, action_ref)
        kept = github and (root / _BOT_WORKFLOW).exists()
        with all_or_nothing():
            done = repo_setup.init(root, example=example, overwrite=overwrite)
            adopted = [] if example else _adopt_history(root, write_config=not had_config)
            changed = [*done.changed, *adopted]
            made: list[str] = []
            if github:
                changed += _workflow(root, src)
            if site:
                changed += _site(root, src)
            if github:
                made = _labels(root)  # last: a token GitHub refuses puts the files back too
    changed += made
    if kept:
        for advice in _tag_pins(root):
            out.warning(f"{advice.pin.path}:{advice.pin.line}: {advice.message} — {advice.hint}")
    out.data({"changed": changed, "kept": done.kept})
    for line in (*changed, *done.kept):
        out.line(f"  {line}")
    if not done.changed and not github and not site:
        out.line("  nothing to do: already set up")
    out.success(f"{root.name} is ready for RFDs — try `rfd list`")
    if github:
        cfg = load_config(root)
        labels = f"`{cfg.labels.review}` and `{cfg.labels.accept}`"
        out.line((GITHUB_NEXT_LABELLED if made else GITHUB_NEXT).format(labels=labels))
    if site:
        from bot.site.publish import PAGES_NEXT

        out.line(PAGES_NEXT)
    return 0


def _checked(
    root: Path,
    had_config: bool,
    github: bool,
    site: bool,
    action_repo: str | None,
    action_ref: str | None,
) -> Source | None:
    """What can be known wrong before anything is written: the configuration, the trigger
    labels it names, the commit to pin the action to (None: no workflow will be written)."""
    if had_config:
        cfg = load_config(root)
        if github:
            from bot.lifecycle.workflow_setup import check_labels

            check_labels(cfg)
    return _source(action_repo, action_ref) if _writes_workflow(root, github, site) else None


@contextmanager
def _nothing_on_failure() -> Iterator[None]:
    """Say, on the error that stopped ``init``, that nothing was left written."""
    try:
        yield
    except RfdError as exc:
        exc.hint = NOTHING_WRITTEN.format(what=exc.hint or "fix what the message names")
        raise
    except OSError as exc:
        where = exc.filename or "a file"
        raise RfdError(
            f"could not write {where}: {exc.strerror or exc}",
            hint=NOTHING_WRITTEN.format(what="make it writable"),
        ) from exc


def _source(repo: str | None, ref: str | None) -> Source:
    """Where the action comes from, pinned to a commit (checked before anything is written)."""
    import os

    from bot import __version__
    from bot.lifecycle import workflow_setup

    known = workflow_setup.releases(__version__, os.environ)
    return workflow_setup.source(repo, ref, __version__, known)


def _labels(root: Path) -> list[str]:
    """The trigger labels, created when a token and a github ``origin`` allow it."""
    import os

    from bot.forge.github import GitHubForge
    from bot.lifecycle import workflow_setup

    environ = workflow_setup.github_environ(root, os.environ)
    if environ is None:
        return []
    forge = GitHubForge.from_env(environ)
    return workflow_setup.create_labels(forge, load_config(root), environ["GITHUB_REPOSITORY"])


def _writes_workflow(root: Path, github: bool, site: bool) -> bool:
    """Will a workflow be written (so the action's pin must be known before anything is)?"""
    from bot.lifecycle import workflow_setup
    from bot.site import publish

    wanted = [workflow_setup.WORKFLOW_PATH] * github + [publish.WORKFLOW_PATH] * site
    return any(not (root / path).exists() for path in wanted)


def _tag_pins(root: Path) -> list[Advice]:
    """The kept workflow's ``uses:`` of the action that name a tag: said, with the commit."""
    import os

    from bot import __version__
    from bot.config import action_pin
    from bot.lifecycle import workflow_setup

    path = workflow_setup.WORKFLOW_PATH
    found = action_pin.pins(path, (root / path).read_text(encoding="utf-8", errors="replace"))
    if all(pin.pinned for pin in found):
        return []
    return action_pin.advise(found, workflow_setup.releases(__version__, os.environ))


def _workflow(root: Path, src: Source | None) -> list[str]:
    from bot.lifecycle import workflow_setup

    if src is None:
        return [workflow_setup.KEPT.format(path=workflow_setup.WORKFLOW_PATH)]
    branch = workflow_setup.default_branch(root, load_config(root).rfd.main_branch)
    wrote = workflow_setup.write_workflow(root, src, branch)
    if src.tag is None or not wrote.startswith("created"):
        return [wrote]
    return [wrote, workflow_setup.PINNED_TAG.format(sha=src.ref, tag=src.tag, repo=src.repo)]


def _site(root: Path, src: Source | None) -> list[str]:
    """The Pages workflow, and the site's address when ``origin`` is on GitHub."""
    from bot.lifecycle import workflow_setup
    from bot.site import publish

    branch = workflow_setup.default_branch(root, load_config(root).rfd.main_branch)
    if src is None or (root / publish.WORKFLOW_PATH).exists():
        lines = [publish.KEPT.format(path=publish.WORKFLOW_PATH)]
    else:
        lines = [publish.write_workflow(root, src, branch)]
    repository = workflow_setup.origin_repository(root)
    added = publish.add_url(root, publish.pages_url(repository)) if repository else None
    return [*lines, added] if added else lines


def _adopt_history(root: Path, *, write_config: bool) -> list[str]:
    """In a repository that has RFDs and no baseline yet, record it (``rfd adopt``): the
    statuses they have now are never gated again; ``[process]`` goes into a configuration
    init has just written, never into one the team had.  What it did, a line each."""
    from bot.config import discovery
    from bot.core.text import plural
    from bot.lifecycle.adoption import adopt
    from bot.model import baseline
    from bot.state import StateStore

    cfg = configuration(root)
    if StateStore(root, cfg).base.joinpath(baseline.FILE).exists() or not discovery.scan(root, cfg):
        return []
    done = adopt(root, cfg, write_config=write_config)
    lines = [
        f"recorded {done.baseline.relative_to(root).as_posix()}: the statuses of "
        f"{done.rfds} RFDs are history, never gated again"
    ]
    if done.findings:
        lines.append(
            f"  and {plural(done.findings, 'lint finding')} they have now, not "
            "reported again (new ones are)"
        )
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


@rfd_command()
@click.option("--to", "tag", default=None, help="The release tag to move to (default: newest).")
def pin(out: Output, tag: str | None) -> int:
    """Move rfd-bot's action in the repository's workflows to a newer release, pinned to its
    commit; everything else in those files stays as it is."""
    import os

    from bot import __version__
    from bot.lifecycle import pin_update, workflow_setup

    root = repo_root()
    online = workflow_setup.has_token(os.environ)
    known = workflow_setup.releases(__version__, os.environ)
    done = pin_update.update(root, known, tag, online=online)
    new = done.release
    out.data(
        {
            "repo": done.repo,
            "tag": new.tag,
            "sha": new.sha,
            "release": new.url,
            "moved": [vars(m) for m in done.moved],
            "current": done.current,
            "compare": done.compare,
        }
    )
    for moved in done.moved:
        lines = f"{moved.lines} line{'s' if moved.lines != 1 else ''}"
        out.line(f"  {moved.path}: {moved.old} → {new.tag} ({new.sha}), {lines}")
    for path in done.current:
        out.line(f"  {path}: on {new.tag} already")
    if not done.moved:
        out.success(f"rfd-bot's action is on {new.tag} already: nothing to change")
        return 0
    out.success(f"moved rfd-bot's action to {new.tag} — commit the workflows")
    out.line(f"what changed: {new.url}")
    for link in done.compare:
        out.line(f"every commit since: {link}")
    return 0
