"""rfd-sync (opt-in, post-commit / pre-push): bring tracking issues up to date.

When a commit adds ``phases/N.md`` or changes an RFD's status, the RFD's tracking
issue gets its checklist ticked (and is closed once the RFD is Implemented, Abandoned
or Superseded).  It needs a GitHub token (``RFD_GITHUB_TOKEN`` or ``GITHUB_TOKEN``);
without one it prints what it would do and succeeds.  The GitHub client is imported
only when there is something to do and a token to do it with.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from bot.core.errors import ForgeError, ForgeUnreachable, RfdError
from hooks import _git
from hooks._common import Layout, Report, hook_args, load_layout

if TYPE_CHECKING:
    from bot.forge.base import Forge
    from bot.model.status import Status
    from hooks._files import Root
    from hooks._tracking import Update
    from hooks._tree import Tree

TOKEN_ENV = ("RFD_GITHUB_TOKEN", "GITHUB_TOKEN")
REFUSED = (
    "rfd-sync: tracking issues not updated — rfd-status refuses this push (see its output); "
    "they are updated by the push that passes"
)


def main(argv: Sequence[str] | None = None) -> int:
    args = hook_args("rfd-sync", __doc__, argv, "ignored: the commits say what changed")
    return run(os.getcwd(), args.from_ref, args.to_ref, os.environ, github_forge)


def run(
    root: Root,
    from_ref: str,
    to_ref: str,
    environ: Mapping[str, str],
    make_forge: Callable[[Root, str], Forge],
) -> int:
    report = Report()
    try:
        # post-commit: git compares HEAD with its parent while the configuration loads
        head = None if to_ref else _git.commit_changes(root, "HEAD")
        layout = load_layout(root)
        if to_ref and not status_passes(root, from_ref, to_ref):
            report.note(REFUSED)
            return report.code
        from hooks._tree import Tree

        with _git.BlobReader(root) as reader:
            updates = collect(root, layout, from_ref, to_ref, reader, head)
            if updates:
                _sync(
                    root,
                    updates,
                    Tree(root, to_ref or "HEAD", reader),
                    layout,
                    environ,
                    make_forge,
                    report,
                )
    except ForgeUnreachable as err:  # offline or GitHub down: never block a commit or a push for it
        report.note(
            f"rfd-sync: tracking issues not updated — {err.message}; they will be "
            "on the next run (or by the bot's push handler)"
        )
    except (RfdError, _git.GitFailed) as err:
        report.error(err if isinstance(err, RfdError) else RfdError(str(err)))
    return report.code


def status_passes(root: Root, from_ref: str, to_ref: str) -> bool:
    """Whether rfd-status accepts the pushed commits (pre-commit runs every hook of a
    stage even when one fails: the push does not happen, so nothing may be synced)."""
    import contextlib
    import io

    from hooks import _transitions
    from hooks._common import load_settings

    checked = Report()
    with contextlib.redirect_stdout(io.StringIO()):  # rfd-status itself shows the problems
        _transitions.check(root, load_settings(root), from_ref, to_ref, None, checked)
    return not checked.problems


def _sync(
    root: Root,
    updates: list[Update],
    tree: Tree,
    layout: Layout,
    environ: Mapping[str, str],
    make_forge: Callable[[Root, str], Forge],
    report: Report,
) -> None:
    token = next((environ[n] for n in TOKEN_ENV if environ.get(n)), "")
    if not token:
        report.note("rfd-sync: no GitHub token (set RFD_GITHUB_TOKEN); it would:")
        for update in updates:
            report.note(f"  {update.describe()}")
        return
    from hooks._tracking import apply

    forge = make_forge(root, token)
    for update in updates:
        report.note(apply(forge, update, tree, layout))


def collect(
    root: Root,
    layout: Layout,
    from_ref: str,
    to_ref: str,
    reader: _git.BlobReader,
    head: Callable[[], list[_git.Change]] | None = None,
) -> list[Update]:
    """The updates due for the pushed commits, or for HEAD alone (post-commit; ``head`` is
    :func:`hooks._git.commit_changes` of HEAD when the caller started it already)."""
    from hooks._changes import added_phases, rfd_changes
    from hooks._tracking import Update
    from hooks._tree import Tree

    if to_ref:
        steps = [
            (old, new, _git.diff_changes(root, old, new))
            for old, new in _git.commits(root, from_ref, to_ref)
        ]
    else:
        steps = [("HEAD^", "HEAD", (head or _git.commit_changes(root, "HEAD"))())]
    phases: dict[str, list[str]] = {}
    statuses: dict[str, Status] = {}
    paths: dict[str, str] = {}
    for parent, commit, changes in steps:
        old = Tree(root, parent, reader).knowing(changes, before=True)
        new = Tree(root, commit, reader).knowing(changes)
        for key, number in added_phases(changes, layout):
            phases.setdefault(key, []).append(number)
        changed = rfd_changes(changes, layout)
        if changed:
            reader.start()  # git loads while the RFD parser is imported
        for change in changed:
            key = str(layout.rfd_id(change.path))
            paths[key] = change.path
            after = _status_change(old, new, change.old_path, change.path)
            if after is not None:
                statuses[key] = after
    return [
        Update(key, paths.get(key), tuple(sorted(set(phases.get(key, ())))), statuses.get(key))
        for key in sorted(set(phases) | set(statuses))
    ]


def _status_change(old: Tree, new: Tree, old_path: str | None, path: str) -> Status | None:
    try:
        after = new.document(path)
        before = old.document(old_path) if old_path else None
    except RfdError:
        return None
    if after is None or before is None or before.status is after.status:
        return None  # a new RFD has no tracking issue yet
    return after.status


def github_forge(root: Root, token: str) -> Forge:
    """The GitHub forge, imported here only (PyGithub costs more than a hook's budget).

    The repository is ``GITHUB_REPOSITORY`` when set (in Actions), else the ``origin``
    remote's ``owner/name``; ``GITHUB_API_URL`` selects GitHub Enterprise.
    """
    try:
        from bot.forge.github import (  # type: ignore[import-not-found,unused-ignore]
            GitHubForge,
        )
    except ImportError as exc:
        raise ForgeError(
            f"the GitHub forge cannot be loaded ({exc})",
            hint="install rfd-bot with its dependencies, or unset the token to only preview",
        ) from exc
    environ = {**os.environ, "GITHUB_TOKEN": token}
    if "/" not in environ.get("GITHUB_REPOSITORY", ""):
        environ["GITHUB_REPOSITORY"] = _git.origin_repository(root) or ""
    return GitHubForge.from_env(environ)  # type: ignore[no-any-return,unused-ignore]


if __name__ == "__main__":
    raise SystemExit(main())
