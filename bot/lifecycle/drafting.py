"""A new draft, the repository's way: its id rule and padding, its drafts directory, its
template (rfd-bot's built-in templates only as the fallback), the author from git.

Pure but for two reads: the repository's template file and the state directory's
draft numbers (through :mod:`bot.state.drafts`).

A corpus of another dialect (:func:`shape_of`, :func:`place`,
:func:`render_in_dialect`) gets a new RFD in its own layout, id rule and header form:

- a directory per RFD (Oxide, Joyent): the next number, padded as the directories are,
  ``<dir>/NNNN/README.md`` (``README.adoc`` where the corpus writes AsciiDoc);
- RFC-style files numbered by pull request: ``<dir>/0000-slug.md``, as these repositories
  do — a proposal named by its slug, several side by side; accepting it gives it its
  number (``text/0000-slug.md`` → ``text/0812-slug.md``, a git rename).

Its text is the repository's template when it has one (``0000-template.md`` at the root
or beside the RFCs, or ``[rfd] templates``), else the header keys (per-RFD values left
empty) and section titles of the newest RFD past the draft stage, with the first word of
the draft stage (``prediscussion``, ``predraft``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from bot import templates
from bot.config import repo_templates
from bot.config.discovery import RfdFile, next_number
from bot.config.load import Config
from bot.core.errors import AlreadyExists, InvalidStructure, ValidationError
from bot.model import document
from bot.model.document import ADOC, LIST, Document
from bot.model.ids import DOCUMENT_NAMES, PROPOSAL_NUMBER, RfdId, is_proposal, split_path
from bot.model.markdown import split_lines
from bot.model.status import Status, word_for
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


RFC_TEMPLATES = ("0000-template.md", "template.md")
"""Where RFC repositories keep their template: at the root or beside the RFCs."""
PER_DOCUMENT = frozenset(
    {
        "state",
        "stage",
        "status",
        "authors",
        "author",
        "discussion",
        "labels",
        "prs",
        "start-date",
        "release-date",
        "release-versions",
        "title",
    }
)
"""Keys whose value belongs to one RFD: a new one starts them afresh."""
PROPOSAL = PROPOSAL_NUMBER
"""The number of an RFC proposal (``0000-slug.md``): accepting it gives it its own."""


class Shape(NamedTuple):
    directory: bool
    """A directory per RFD (else a file per RFD, numbered by pull request)."""
    sample: Document
    """The newest RFD past the draft stage: its header keys, heading and sections are the
    corpus's way."""
    digits: int


def shape_of(files: list[RfdFile], read: Callable[[RfdFile], Document]) -> Shape | None:
    """The dialect of the corpus, None for rfd-bot's own (flat files with a field list)."""
    published = [f for f in files if not f.rfd_id.draft and f.rfd_id.number != PROPOSAL]
    if not published:
        return None
    sample = _sample(sorted(published, key=lambda f: f.rfd_id, reverse=True), read)
    directory = sum(f.name in DOCUMENT_NAMES for f in published) * 2 >= len(published)
    if sample.form == LIST and not directory:
        return None
    digits = max(f.rfd_id.digits for f in published)
    return Shape(directory, sample, digits)


SAMPLED = 5
"""How many of the newest RFDs are read to find one past the draft stage."""


def _sample(newest_first: list[RfdFile], read: Callable[[RfdFile], Document]) -> Document:
    """The newest RFD past the draft stage among the newest few (a draft just started — a
    prediscussion stub with one section — is no model of the team's RFDs), else the newest."""
    docs = [read(f) for f in newest_first[:SAMPLED]]
    return next((d for d in docs if d.status is not Status.DRAFT), docs[0])


def place(root: Path, rfd_dir: str, files: list[RfdFile], shape: Shape, slug: str) -> Path:
    """Where the new RFD goes: the next numbered directory, or ``0000-slug.md``."""
    if shape.directory:
        number = RfdId.published(next_number(files), shape.digits)
        name = "README.adoc" if shape.sample.form == ADOC else "README.md"
        return root / rfd_dir / str(number) / name
    path = root / rfd_dir / f"{PROPOSAL:0{shape.digits}d}-{slug}.md"
    if path.exists():
        raise AlreadyExists(
            f"{path.relative_to(root).as_posix()} exists: a proposal without a number yet",
            hint="give the new proposal another title, or accept the one there first",
        )
    return path


def render_in_dialect(
    root: Path, rfd_dir: str, shape: Shape, rfd_id: RfdId, title: str, authors: str, date: str
) -> str:
    """The new RFD's text in the corpus's form."""
    template = next(
        (p for d in (root, root / rfd_dir) for n in RFC_TEMPLATES if (p := d / n).is_file()), None
    )
    if template is not None and not shape.directory:
        return _from_template(template.read_text(encoding="utf-8"), title, date)
    if shape.sample.form == ADOC:
        return _asciidoc(shape, rfd_id, title, authors)
    return _front_matter(shape, rfd_id, title, authors)


def _from_template(text: str, title: str, date: str) -> str:
    """The RFC template, its title line and empty start date filled in; the rest as written."""
    lines = split_lines(text)
    for i, line in enumerate(lines):
        if re.match(r"^# ", line):
            lines[i] = f"# {title}\n"
            break
    text = "".join(lines)
    return re.sub(r"(?m)^start-date:[ \t]*(#.*)?$", f"start-date: {date}T00:00:00.000Z", text)


def _draft_word(shape: Shape) -> str:
    return word_for(Status.DRAFT, shape.sample.status_word, lower=True)


def _heading(shape: Shape, rfd_id: RfdId, title: str, mark: str) -> str:
    sample = shape.sample
    if sample.heading_id is None:
        return f"{mark} {title}"
    number = str(rfd_id) if sample.heading_id.digits >= rfd_id.digits else str(rfd_id.number)
    return f"{mark} RFD {number} {title}"


def _sections(shape: Shape, mark: str) -> str:
    titles = [s.title for s in shape.sample.sections if s.level == 2]
    return "".join(f"\n{mark} {t}\n" for t in titles) or f"\n{mark} Background\n"


def _front_matter(shape: Shape, rfd_id: RfdId, title: str, authors: str) -> str:
    keys = [f.key for f in shape.sample.fields]
    lines = ["---", f"authors: {authors}", f"{shape.sample.status_key}: {_draft_word(shape)}"]
    lines += [f"{key}:" for key in keys if key.casefold() not in PER_DOCUMENT]
    if any(k.casefold() == "discussion" for k in keys):
        lines.append("discussion:")
    lines += ["---", "", _heading(shape, rfd_id, title, "#")]
    return "\n".join(lines) + "\n" + _sections(shape, "##")


def _asciidoc(shape: Shape, rfd_id: RfdId, title: str, authors: str) -> str:
    """The sample's attributes in its order — the state and authors this RFD's, the other
    per-RFD ones (``:discussion:``, ``:labels:``) left empty to fill — its title line and
    the ``{authors}`` line under it when the team writes one, then its sections."""
    sample = shape.sample
    mine = {sample.status_key.casefold(): _draft_word(shape), "authors": authors}
    lines = []
    for f in sample.fields:
        key = f.key.casefold()
        value = mine.pop(key, "") if key in PER_DOCUMENT else f.value
        lines.append(f":{f.key}:{(' ' + value) if value else ''}")
    lines += [f":{key}: {value}" for key, value in mine.items()]  # the sample lacked them
    lines += ["", _heading(shape, rfd_id, title, "=")]
    below = sample.lines[sample.heading_line : sample.heading_line + 1]
    if [line.strip() for line in below] == ["{authors}"]:
        lines.append("{authors}")
    return "\n".join(lines) + "\n" + _sections(shape, "==")


def note(rfd_id: RfdId, path: str) -> str:
    """What ``rfd new`` adds to its message for an RFC proposal."""
    if not is_proposal(rfd_id, path):
        return ""
    return " (accepting it gives it its number)"


def name_of(rfd_id: RfdId, path: str) -> str:
    """``RFD 0033``, or ``proposal my-feature`` for an RFC proposal (``0000-my-feature.md``)."""
    parts = split_path(path)
    if parts is not None and is_proposal(rfd_id, path):
        return f"proposal {parts[1]}"
    return f"RFD {rfd_id}"


def new_id(path: Path) -> RfdId:
    """The id the new file's path gives."""
    parts = split_path(path.as_posix())
    assert parts is not None, path
    return parts[0]
