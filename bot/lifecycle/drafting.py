"""A new draft, the repository's way: its id rule and padding, its drafts directory, its
template (rfd-bot's built-in templates only as the fallback), the author from git.

Pure but for two reads: the repository's template file and the state directory's
draft numbers (through :mod:`bot.state.drafts`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bot import templates
from bot.config import repo_templates
from bot.config.discovery import RfdFile
from bot.config.load import Config
from bot.core.errors import InvalidStructure, ValidationError
from bot.model import document
from bot.model.ids import RfdId
from bot.model.status import Status
from bot.state import StateStore
from bot.state import drafts as state_drafts

UNKNOWN_CATEGORY = "unknown category {category!r}"
CATEGORY_HINT = "choose one of: {choices}"
TEMPLATE_HEADING_HINT = (
    "give the template a '# RFD NNN: TITLE' heading and a metadata list, or remove it to use "
    "rfd-bot's built-in template"
)


def next_id(files: Iterable[RfdFile], store: StateStore, cfg: Config) -> RfdId:
    """The next draft id by ``[conventions] draft_numbers``, padded to ``draft_digits``."""
    present = {f.rfd_id.number for f in files if f.rfd_id.draft}
    if cfg.conventions.draft_numbers == "first-free":
        taken = present | state_drafts.held(store)
        number = next(n for n in range(1, len(taken) + 2) if n not in taken)
    else:  # never reused: what the state directory remembers counts too
        number = max(*present, state_drafts.highest_used(store), 0) + 1
    return RfdId(draft=True, number=number, digits=cfg.conventions.draft_digits)


def directory(root: Path, cfg: Config) -> str:
    """Where a new draft goes: the drafts directory when the repository has one."""
    drafts = cfg.rfd.drafts_dir.strip("/")
    if drafts not in ("", ".") and (root / cfg.rfd_dir / drafts).is_dir():
        return f"{cfg.rfd_dir}/{drafts}"
    return cfg.rfd_dir


def categories(root: Path, cfg: Config) -> tuple[str, ...]:
    """The categories ``rfd new`` offers: the repository's templates', then the built-ins."""
    own = repo_templates.found(root / cfg.rfd_dir, cfg.rfd.templates)
    return tuple(dict.fromkeys((*own, *templates.CATEGORIES)))


def render(
    root: Path, cfg: Config, category: str, rfd_id: RfdId, title: str, authors: str, date: str
) -> str:
    """The new draft's text from the repository's template for ``category`` (or the
    built-in one): heading, status, authors and date filled in."""
    name = category.strip().casefold()
    own = repo_templates.find(root / cfg.rfd_dir, cfg.rfd.templates, name)
    if own is None:
        if name not in templates.CATEGORIES:
            choices = ", ".join(categories(root, cfg))
            raise ValidationError(
                UNKNOWN_CATEGORY.format(category=category),
                hint=CATEGORY_HINT.format(choices=choices),
            )
        return templates.render(name, rfd_id, title, authors, date)
    shown = own.relative_to(root).as_posix()
    try:
        return fill(own.read_text(encoding="utf-8"), rfd_id, title, authors, date)
    except InvalidStructure as err:
        raise InvalidStructure(str(err.message), path=shown, hint=TEMPLATE_HEADING_HINT) from err


def fill(text: str, rfd_id: RfdId, title: str, authors: str, date: str) -> str:
    """A repository template with its heading and header filled in (the rest as written)."""
    text = document.set_heading(text, rfd_id, title)
    text = document.set_field(text, "Status", Status.DRAFT.value)
    doc = document.parse(text, "template.md")
    key = next((k for k in ("Authors", "Author") if doc.field(k) is not None), "Authors")
    text = document.set_field(text, key, authors)
    return document.set_field(text, "Date", date)
