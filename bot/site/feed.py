"""The Atom feed of changes (RFC 4287), newest first (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from xml.etree import ElementTree as ET

from bot.site.history import Change

ATOM = "http://www.w3.org/2005/Atom"
LIMIT = 100
"""Entries in the feed: readers poll it, so it stays small however long the history."""
EPOCH = "1970-01-01T00:00:00+00:00"
_NOT_IRI = re.compile(r"[^A-Za-z0-9._-]+")


def headline(change: Change, title: str) -> str:
    """What an entry says: ``RFD 045 accepted: Streaming exports``."""
    name = f"RFD {change.rfd}"
    if change.kind == "new":
        return f"New: {name}: {title}"
    if change.kind == "status":
        return f"{name} {change.detail}: {title}"
    if change.kind == "plan":
        return f"{name} has a plan: {title}"
    return f"{name} phase {change.detail} done: {title}"


def render(
    changes: Sequence[Change],
    titles: Mapping[str, str],
    page: Callable[[str], str],
    *,
    site_title: str,
    base: str,
) -> str:
    """The feed's XML; ``page(id)`` is an RFD page's address relative to ``base``."""
    ET.register_namespace("", ATOM)
    recent = [c for c in reversed(changes) if c.rfd in titles][:LIMIT]
    feed = ET.Element(f"{{{ATOM}}}feed")
    if base:
        feed.set("{http://www.w3.org/XML/1998/namespace}base", base)
    _text(feed, "title", f"{site_title}: changes")
    _text(feed, "id", f"{base or 'urn:rfd-site:'}feed.xml")
    _text(feed, "updated", recent[0].commit.date if recent else EPOCH)
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", href="feed.xml")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", href="index.html")
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    _text(author, "name", "rfd-bot")
    for index, change in enumerate(recent):
        feed.append(_entry(change, titles.get(change.rfd, ""), page(change.rfd), index))
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, "unicode") + "\n"


def _entry(change: Change, title: str, href: str, index: int) -> ET.Element:
    entry = ET.Element(f"{{{ATOM}}}entry")
    _text(entry, "title", headline(change, title))
    sha = change.commit.sha or f"n{index}"
    detail = _NOT_IRI.sub("-", change.detail)
    _text(entry, "id", f"urn:rfd-site:{sha}:{change.kind}:{change.rfd}:{detail}")
    _text(entry, "updated", change.commit.date or EPOCH)
    ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", href=href)
    author = ET.SubElement(entry, f"{{{ATOM}}}author")
    _text(author, "name", change.commit.author or "unknown")
    _text(entry, "summary", f"{change.commit.subject} ({change.commit.sha[:7]})")
    return entry


def _text(parent: ET.Element, tag: str, value: str) -> None:
    ET.SubElement(parent, f"{{{ATOM}}}{tag}").text = value
