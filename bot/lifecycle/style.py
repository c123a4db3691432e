"""Edits in the repository's own style (``[conventions]``): how links to other RFDs are
written and how an abandoned RFD says so.  Text in, text out.

* ``link_style = "reference"``: the header says ``[RFD 031]`` and a definition
  ``[RFD 031]: ./031-x.md`` is added at the end of the file (unless one is there);
  ``"inline"``: ``[RFD 031](031-x.md)``.  Targets are relative to the file's directory.
  An AsciiDoc RFD links in its own syntax whatever the style: ``link:../0031/README.adoc[RFD
  0031]``.
* ``abandon_notice``: empty for an ``Abandoned`` header field, otherwise the repository's
  notice block (``{reason}`` filled in on one line) placed right under the header.
"""

from __future__ import annotations

import posixpath
import re

from bot.config.discovery import RfdFile
from bot.config.load import ConventionsSection
from bot.model import document
from bot.model.asciidoc import is_asciidoc
from bot.model.markdown import eol_of, split_lines

_SPACES_RE = re.compile(r"\s+")
_DEFINED_RE = r"^ {{0,3}}\[{label}\]:"


def target(source_path: str, file: RfdFile, *, dotted: bool = False) -> str:
    """The relative link from the RFD at ``source_path`` to ``file`` (``031-x.md``, or
    ``./031-x.md`` when ``dotted``, as link definitions are usually written)."""
    relative = posixpath.relpath(file.path, posixpath.dirname(source_path) or ".")
    return f"./{relative}" if dotted and not relative.startswith("../") else relative


def set_link_field(
    text: str, source_path: str, key: str, file: RfdFile, style: ConventionsSection
) -> str:
    """Set header ``key`` to a link to ``file``, written as the repository writes links."""
    label = file.rfd_id.label
    if is_asciidoc(source_path):
        return document.set_field(text, key, adoc_link(source_path, file))
    if style.link_style == "inline":
        return document.set_field(text, key, f"[{label}]({target(source_path, file)})")
    text = document.set_field(text, key, f"[{label}]")
    return add_definition(text, label, target(source_path, file, dotted=True))


def add_back_link(
    text: str, source_path: str, key: str, file: RfdFile, style: ConventionsSection
) -> str:
    """Add a link to ``file`` to the back-link field ``key`` (``Extended by``) of the RFD
    at ``source_path``, after the ids it lists already; unchanged when it lists it."""
    doc = document.parse(text, source_path)
    if file.rfd_id in doc.links(key):
        return text
    label = file.rfd_id.label
    inline = style.link_style == "inline" or is_asciidoc(source_path)
    link = f"[{label}]({target(source_path, file)})" if inline else f"[{label}]"
    link = adoc_link(source_path, file) if is_asciidoc(source_path) else link
    current = (doc.field(key) or "").strip()
    text = document.set_field(text, key, f"{current}, {link}" if current else link)
    return text if inline else add_definition(text, label, target(source_path, file, dotted=True))


def adoc_link(source_path: str, file: RfdFile) -> str:
    """A link from the AsciiDoc RFD at ``source_path`` to ``file``: ``link:../0012/README.adoc[RFD
    0012]`` (AsciiDoc has no Markdown links, nor reference definitions)."""
    return f"link:{target(source_path, file)}[{file.rfd_id.label}]"


def drop_draft_back_links(text: str, path: str) -> str:
    """``text`` with the drafts left out of its back-link fields (``Required by: [RFD D23]``):
    a published RFD links to no draft, whose id changes when it is published (publishing
    it adds its new number back, where the repository keeps the field).  A field left
    empty is removed."""
    doc = document.parse(text, path)
    for key in document.BACK_LINK_KEYS:
        value = doc.field(key)
        if value is None or not any(r.draft for r in document.parse_links(value)):
            continue
        kept = [part.strip() for part in value.split(",") if _names_no_draft(part)]
        text = (
            document.set_field(text, key, ", ".join(kept))
            if kept
            else document.remove_field(text, key)
        )
    return text


def _names_no_draft(part: str) -> bool:
    ids = document.parse_links(part)
    return bool(part.strip()) and not any(r.draft for r in ids)


def add_definition(text: str, label: str, link: str) -> str:
    """``text`` ending with ``[label]: link`` unless it defines ``label`` already."""
    if re.search(_DEFINED_RE.format(label=re.escape(label)), text, re.MULTILINE | re.I):
        return text
    eol = eol_of(text)
    body = text if text.endswith(("\n", "\r")) else text + eol
    last = split_lines(body)[-1] if body else ""
    spacer = "" if _is_definition(last) or not body.strip() else eol
    return f"{body}{spacer}[{label}]: {link}{eol}"


def _is_definition(line: str) -> bool:
    return re.match(r"^ {0,3}\[[^\]^][^\]]*\]:", line) is not None


def abandon(text: str, path: str, reason: str, style: ConventionsSection) -> str:
    """Record why the RFD was abandoned, in the repository's form."""
    one_line = _SPACES_RE.sub(" ", reason).strip()
    if not style.abandon_notice:
        return document.set_field(text, "Abandoned", one_line)
    block = style.abandon_notice.replace("{reason}", one_line)
    doc = document.parse(text, path)
    lines = split_lines(text)
    last = doc.fields[-1] if doc.fields else None
    after = last.index + last.span if last else doc.heading_line
    if doc.form == document.ADOC:  # attributes come before the title: go under the title
        after = _adoc_header_end(lines, doc.heading_line)
    eol = eol_of(text)
    notice = [f"{eol}"] + [f"{line}{eol}" for line in block.split("\n")]
    lines[after:after] = notice
    return "".join(lines)


def _adoc_header_end(lines: list[str], title_line: int) -> int:
    """The 0-based index of the first blank line after an AsciiDoc title (on 1-based line
    ``title_line``): its header (``{authors}``, attributes) ends there."""
    return next((i for i in range(title_line, len(lines)) if not lines[i].strip()), len(lines))
