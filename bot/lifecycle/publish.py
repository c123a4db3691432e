"""Draft → Discussion: a draft takes the next permanent number and is published.

Everything that could be in the way is checked first — the target file, the
target state directory — so a refused publication changes nothing.  Then the file
is renamed (a git rename in a repository) into the RFD directory, its heading and
status are rewritten, its own relative links are re-aimed from its new place, its
state directory moves with it, and the other RFDs' references follow.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from bot.config.discovery import RfdFile, next_number
from bot.core.atomic import read_exact
from bot.core.errors import AlreadyExists, RfdError
from bot.events import RfdRenumbered, StatusChanged
from bot.lifecycle import style
from bot.lifecycle.workspace import Workspace
from bot.model import document, links
from bot.model.document import Document
from bot.model.ids import RfdId
from bot.model.status import Status
from bot.state import drafts


def publish_draft(ws: Workspace, file: RfdFile, doc: Document) -> tuple[RfdId, Path, list[Path]]:
    """Publish ``file``; return its new id, new path and every path changed."""
    digits = ws.config.conventions.id_digits
    new_id = RfdId(draft=False, number=next_number(ws.files()), digits=digits)
    old_path = ws.path(file)
    new_path = ws.root / ws.config.rfd_dir / new_id.file_name(file.slug)
    _check_free(ws, file, new_id, new_path)
    moved = (file.path, ws.rel(new_path))
    # links first: they resolve from where the file was, before ids in them change
    text = links.rewrite_targets(doc.text, links.mover(_dir(file.path), _dir(moved[1]), moved))
    text = document.set_heading(text, new_id)
    text = document.set_status(text, Status.DISCUSSION)
    text = style.drop_draft_back_links(text, moved[1])
    text = document.replace_id_references(text, file.rfd_id, new_id)
    _move_rfd(ws, old_path, new_path, text)
    changed = [old_path, new_path]
    if ws.store.move(file.rfd_id, new_id) is not None:
        changed.append(ws.store.dir(new_id))
    drafts.record(ws.store, new_id, file.rfd_id)
    changed += _rewrite_references(ws, file, new_id, moved)
    ws.refresh()
    changed += _back_links(ws, document.parse(text, moved[1]), ws.find(str(new_id)))
    ws.bus.emit(
        RfdRenumbered(
            rfd_id=str(new_id), old_id=str(file.rfd_id), old_path=file.path, new_path=moved[1]
        )
    )
    ws.bus.emit(StatusChanged(rfd_id=str(new_id), old="Draft", new="Discussion", path=moved[1]))
    return new_id, new_path, changed


def number_proposal(
    ws: Workspace, file: RfdFile, number: int | None = None, pull_url: str = ""
) -> tuple[RfdId, Path, list[Path]]:
    """Give an RFC proposal (``text/0000-slug.md``) its number — ``number``, else the next
    free one — renamed beside it (a git rename), its state directory moved with it when it
    is the only proposal (proposals share ``0000``); ``pull_url``: its pull request, written
    into the header fields that hold it (:func:`with_pull`).  Refused, changing nothing, when
    the number is taken."""
    digits = max(ws.config.conventions.id_digits, file.rfd_id.digits)
    new_id = RfdId.published(next_number(ws.files()) if number is None else number, digits)
    old_path = ws.path(file)
    new_path = old_path.with_name(new_id.file_name(file.slug))
    taken = [f.path for f in ws.files() if f.rfd_id == new_id]
    if taken:
        raise AlreadyExists(
            f"cannot number {file.path} as RFD {new_id}: {taken[0]} has that number",
            path=file.path,
            hint="renumber one of them by hand (git mv), then accept again",
        )
    _check_free(ws, file, new_id, new_path)
    text = read_exact(old_path)
    _move_rfd(ws, old_path, new_path, with_pull(text, pull_url) if pull_url else text)
    changed = [old_path, new_path]
    if sum(f.proposal for f in ws.files()) == 1 and ws.store.move(file.rfd_id, new_id):
        changed.append(ws.store.dir(new_id))
    ws.refresh()
    moved = ws.rel(new_path)
    ws.bus.emit(
        RfdRenumbered(rfd_id=str(new_id), old_id=file.slug, old_path=file.path, new_path=moved)
    )
    return new_id, new_path, changed


_EMBER_PR = re.compile(r"^(?P<key>[ \t]+accepted:)[ \t]*(?:#.*)?$", re.MULTILINE)
"""Ember's ``prs:`` map in the front matter, its ``accepted:`` PR left empty by the template."""
_RUST_PR = re.compile(r"^(?P<key>- RFC PR:)[ \t]*(?P<value>.*)$", re.MULTILINE)
"""Rust's header line ``- RFC PR: [rust-lang/rfcs#0000](https://github.com/…/pull/0000)``."""
_PULL = re.compile(r"https://[^/\s]+/(?P<repo>[\w.-]+/[\w.-]+)/pull/(?P<number>[0-9]+)$")


def with_pull(text: str, pull_url: str) -> str:
    """The proposal's header with its pull request written where the team writes it: Ember's
    empty ``prs: accepted:``, Rust's ``- RFC PR:`` line still naming ``#0000`` or nothing;
    a field the author filled in is kept."""
    match = _PULL.match(pull_url)
    if match is None:
        return text
    head, sep, body = _header_split(text)
    head = _EMBER_PR.sub(lambda m: f"{m['key']} {pull_url}", head, count=1)
    shown = f"[{match['repo']}#{match['number']}]({pull_url})"

    def rust(m: re.Match[str]) -> str:
        unfilled = not m["value"].strip() or re.search(r"#0+\b|/pull/0+\b", m["value"])
        return f"{m['key']} {shown}" if unfilled else m[0]

    return _RUST_PR.sub(rust, head, count=1) + sep + body


def numbered_by_pull(ws: Workspace) -> bool:
    """Does the corpus number its RFCs by pull request (as rust-lang/rfcs and emberjs/rfcs
    do)?  Yes when more than half of its numbered RFDs link the pull request of their own
    number in their header (``prs: accepted: …/pull/11`` in ``text/0011-….md``)."""
    numbered = [f for f in ws.files() if not f.rfd_id.draft and not f.proposal]
    own = 0
    for file in numbered:
        try:
            head = _header_split(read_exact(ws.path(file)))[0]
        except (OSError, UnicodeDecodeError):
            continue
        own += bool(re.search(rf"/pull/0*{file.rfd_id.number}\b", head))
    return own * 2 > len(numbered)


def _header_split(text: str) -> tuple[str, str, str]:
    """The header (front matter, or the lines above the first heading), and the rest."""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            return text[:end], text[end : end + 4], text[end + 4 :]
    heading = re.search(r"^#", text, re.MULTILINE)
    cut = heading.start() if heading else len(text)
    return text[:cut], "", text[cut:]


def _check_free(ws: Workspace, file: RfdFile, new_id: RfdId, new_path: Path) -> None:
    """Refuse, before writing anything, when the new file or state directory exists."""
    shown = ws.rel(new_path)
    if new_path.exists() or new_path.is_symlink():
        raise AlreadyExists(
            f"cannot publish RFD {file.rfd_id} as RFD {new_id}: {shown} is in the way",
            path=shown,
            alternatives=(f"rename or remove {shown} (it is not an RFD rfd can list), then retry",),
        )
    target = ws.store.dir(new_id)
    if target.exists() or target.is_symlink():
        where = ws.store.show(target)
        raise AlreadyExists(
            f"cannot publish RFD {file.rfd_id} as RFD {new_id}: the state directory "
            f"{where}/ exists already, and no RFD {new_id} owns it",
            path=where,
            alternatives=(
                f"move {where}/ away (e.g. into the state of the RFD it belongs to), then retry",
                f"delete {where}/ if it is left over from a deleted RFD, then retry",
            ),
        )


def _dir(path: str) -> str:
    return posixpath.dirname(path)


def _move_rfd(ws: Workspace, old: Path, new: Path, text: str) -> None:
    if ws.vcs is not None:
        ws.vcs.rename(old, new)
    else:
        old.rename(new)
    ws.write_rfd(new, text)


BACK_LINKS = {"Requires": "Required by", "Extends": "Extended by"}


def _back_links(ws: Workspace, doc: Document, published: RfdFile) -> list[Path]:
    """The RFDs it Requires/Extends list it under the back-link fields the repository keeps
    (``[conventions] back_links``), or that RFD keeps (it has the field already)."""
    style_ = ws.config.conventions
    changed = []
    for forward, back in BACK_LINKS.items():
        for rid in doc.links(forward):
            other = next((f for f in ws.files() if f.rfd_id == rid), None)
            if other is None:
                continue  # a link to a missing RFD: lint reports it
            path = ws.path(other)
            try:
                text = read_exact(path)
                if back not in style_.back_links and not _keeps(text, other.path, back):
                    continue
                updated = style.add_back_link(text, other.path, back, published, style_)
            except (OSError, UnicodeDecodeError, RfdError):
                continue  # a broken RFD is left as it is; `rfd lint` reports it
            if updated != text:
                ws.write_rfd(path, updated)
                changed.append(path)
    return changed


def _keeps(text: str, path: str, back: str) -> bool:
    return bool((document.parse(text, path).field(back) or "").strip())


def _rewrite_references(
    ws: Workspace, file: RfdFile, new_id: RfdId, moved: tuple[str, str]
) -> list[Path]:
    """Other RFDs: links to the old path follow the file, then ``RFD D7`` → ``RFD 012``."""
    changed = []
    for other in ws.files():
        path = ws.path(other)
        if other.path in moved or other.rfd_id == file.rfd_id or not path.exists():
            continue
        try:
            text = read_exact(path)
        except (OSError, UnicodeDecodeError):
            continue  # a broken RFD is left as it is; `rfd lint` reports it
        here = _dir(other.path)
        updated = links.rewrite_targets(text, links.mover(here, here, moved))
        updated = document.replace_id_references(updated, file.rfd_id, new_id)
        if updated != text:
            ws.write_rfd(path, updated)
            changed.append(path)
    return changed
