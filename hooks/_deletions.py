"""rfd-status's check of what a commit removes: an RFD deleted (or renamed to another id)
must take its state directory along, and no remaining RFD may still Require or Extend it.

pre-commit never passes a deleted file to a hook, so the removals come from the diff
rfd-status reads anyway.  The cost follows the commit: one ``git ls-files`` per removed
RFD, and one ``git grep`` over the RFD files' ``Requires``/``Extends`` lines to find the
few that could name a removed id; only those are parsed.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.errors import GateError, RfdError
from bot.model.ids import RfdId
from hooks import _git
from hooks._common import Layout, Settings
from hooks._tree import Tree

LINK_KEYS = ("Requires", "Extends")
ORPHAN_HINT = "remove it with `git rm -r {dir}` if that state is no longer wanted"
MOVED_HINT = "the RFD is now {new}: move its state along with `git mv {dir} {target}`"
LINK_HINT = (
    "remove RFD {id} from {key}, or keep RFD {id} and retire it with `rfd abandon {id} "
    "--reason …` (or `rfd supersede`) instead of deleting it"
)


def removed(changes: Sequence[_git.Change], layout: Layout, new: Tree) -> dict[RfdId, str | None]:
    """Ids whose RFD file ``changes`` remove and ``new`` no longer has, each with the path it
    was renamed to (None when deleted)."""
    gone: dict[RfdId, str | None] = {}
    for change in changes:
        old_id = layout.rfd_id(change.old) if change.kind in ("D", "R") else None
        if old_id is None or (change.kind == "R" and layout.rfd_id(change.path) == old_id):
            continue
        gone[old_id] = change.path if change.kind == "R" else None
    if not gone:
        return gone
    names = new.rfd_names(layout)
    still = {i for i in gone if (p := names.path(i)) is not None and new.read(p) is not None}
    return {i: target for i, target in gone.items() if i not in still}


DELETED_CODE = "RFD016"
DELETED_HINT = (
    "keep the file and retire it: `rfd abandon {id} --reason …` or `rfd supersede {id} <new>` "
    "(or allow deletions in .github/rfd.toml: [process] delete_published = true)"
)


def check(
    gone: dict[RfdId, str | None], settings: Settings, new: Tree, paths: dict[RfdId, str]
) -> list[RfdError]:
    """Published RFDs deleted (unless ``[process] delete_published``; ``paths``: the files
    deleted), orphaned state directories and dangling Requires/Extends of the ``gone`` ids."""
    layout = settings.layout
    problems = [] if settings.process.delete_published else _published(gone, settings, paths)
    problems += [p for i, target in gone.items() if (p := _orphan(i, target, layout, new))]
    return problems + _dangling(gone, layout, new)


def _published(
    gone: dict[RfdId, str | None], settings: Settings, paths: dict[RfdId, str]
) -> list[RfdError]:
    if settings.lint.severity.get(DELETED_CODE) == "off":
        return []
    return [
        GateError(
            f"{DELETED_CODE} published RFD {rfd_id} is deleted: a published RFD stays, as history",
            path=paths.get(rfd_id, f"{settings.layout.rfd_dir}/"),
            hint=DELETED_HINT.format(id=rfd_id),
        )
        for rfd_id, target in gone.items()
        if target is None and not rfd_id.draft
    ]


def _orphan(rfd_id: RfdId, target: str | None, layout: Layout, new: Tree) -> RfdError | None:
    folder = layout.state_path(rfd_id, "").rstrip("/")
    if not new.has_files(folder):
        return None
    new_id = layout.rfd_id(target) if target else None
    hint = ORPHAN_HINT.format(dir=folder)
    if new_id is not None:
        move = MOVED_HINT.format(new=new_id, dir=folder, target=layout.state_path(new_id, ""))
        hint = f"{move}; or {hint}"
    return GateError(
        f"state of RFD {rfd_id}, whose file this commit {'renames' if target else 'deletes'}",
        path=f"{folder}/",
        hint=hint,
    )


def _dangling(gone: dict[RfdId, str | None], layout: Layout, new: Tree) -> list[RfdError]:
    from bot.model.header import normalize_key

    problems: list[RfdError] = []
    for path in _candidates(list(gone), layout, new):
        try:
            doc = new.document(path)
        except RfdError:
            continue  # rfd-lint reports a broken RFD on its own
        if doc is None:
            continue
        for field in doc.fields:
            key = next((k for k in LINK_KEYS if normalize_key(field.key) == k.casefold()), None)
            if key is None:
                continue
            for rfd_id in (i for i in doc.links(key) if i in gone):
                problems.append(
                    GateError(
                        f"{key} RFD {rfd_id}, which this commit "
                        f"{'renames away' if gone[rfd_id] else 'deletes'}",
                        path=path,
                        line=field.line,
                        hint=LINK_HINT.format(id=rfd_id, key=key),
                    )
                )
    return problems


def _candidates(ids: list[RfdId], layout: Layout, new: Tree) -> list[str]:
    """The RFD files with a Requires/Extends line that may name one of ``ids``.

    Perl regexes when git has them (~3× faster than POSIX ones over 2,000 RFDs: ~25 ms
    against ~80 ms), else extended regexes.
    """
    try:
        return new.grep([_pattern(i, perl=True) for i in ids], layout, perl=True)
    except _git.GitFailed:  # git built without PCRE
        return new.grep([_pattern(i, perl=False) for i in ids], layout)


def _pattern(rfd_id: RfdId, *, perl: bool) -> str:
    """A case-insensitive regex for a Requires/Extends line naming ``rfd_id`` (``RFD 045``,
    ``45``, ``[RFD D32]``...); a false match only costs parsing one more file."""
    number = f"d0*{rfd_id.number}" if rfd_id.draft else f"0*{rfd_id.number}"
    if perl:
        return rf"(?:requires|extends)\W.*(?<![0-9a-z]){number}(?![0-9])"
    return f"(requires|extends).*(^|[^0-9a-z]){number}([^0-9]|$)"
